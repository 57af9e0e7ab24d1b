/* Lab 7 - from shared tiles to warp tiling: reference solution.
 *
 * Read top to bottom: the epilogue (alpha, beta), then each stage's index
 * helpers and kernel (1D block tile, 2D block tile, vectorised, warp tile),
 * then the entry points. handouts/lab7-warp-tiling.md explains each step.
 *
 * The stage-4 kernel is delimited on its own ("STAGE 4" below): its tile
 * parameters come from lab7.h and may be replaced by a tuning sweep
 * (solutions/measure/lab7_tile_sweep.sh). */
#include <stdint.h>

#include "lab7.h"

#include "cuda_check.h"

/* ------------------------------------------------------------ epilogue */

/* One element of C = alpha * acc + beta * C. The BLAS rule: with beta == 0
 * the old C is not read at all (it may hold NaN, and 0 * NaN is NaN). */
__device__ __forceinline__ void sgemm_store(float *c, float alpha, float acc, float beta)
{
    *c = beta == 0.0f ? alpha * acc : alpha * acc + beta * *c;
}

/* Four neighbours of a row of C at once (c is 16-byte aligned). */
__device__ __forceinline__ void sgemm_store4(float *c, float alpha, float4 acc, float beta)
{
    float4 out = make_float4(alpha * acc.x, alpha * acc.y, alpha * acc.z, alpha * acc.w);
    if (beta != 0.0f) {
        const float4 old = *reinterpret_cast<const float4 *>(c);
        out.x += beta * old.x;
        out.y += beta * old.y;
        out.z += beta * old.z;
        out.w += beta * old.w;
    }
    *reinterpret_cast<float4 *>(c) = out;
}

/* ------------------------------------------- stage 1: block tile, 1D */

LAB_HOST_DEVICE lab7_coord lab7_block_tile_1d_output(int thread, int i)
{
    /* Thread t owns column t % BN1 and the TM1 rows starting at
     * (t / BN1) * TM1: the 32 threads of a warp own 32 neighbouring columns
     * of the same rows, so their stores (and their reads of Bs) are
     * contiguous. */
    lab7_coord e = {(thread / LAB7_BT1_BN) * LAB7_BT1_TM + i, thread % LAB7_BT1_BN};
    return e;
}

__global__ void __launch_bounds__(LAB7_BT1_THREADS)
    block_tile_1d_kernel(int m, int n, int k, float alpha, const float *__restrict__ a,
                         const float *__restrict__ b, float beta, float *__restrict__ c)
{
    enum { BM = LAB7_BT1_BM, BN = LAB7_BT1_BN, BK = LAB7_BT1_BK, TM = LAB7_BT1_TM };
    static_assert(BM * BK == LAB7_BT1_THREADS && BK * BN == LAB7_BT1_THREADS,
                  "one element of each shared tile per thread");
    __shared__ float As[BM * BK]; /* As[row][p]: the BM x BK tile of A */
    __shared__ float Bs[BK * BN]; /* Bs[p][col]: the BK x BN tile of B */
    const int t = threadIdx.x;
    const int block_row = blockIdx.y * BM, block_col = blockIdx.x * BN;
    const lab7_coord mine = lab7_block_tile_1d_output(t, 0);
    /* The element of each tile this thread copies: consecutive threads walk
     * a row, so a warp's loads are contiguous. */
    const int a_row = t / BK, a_col = t % BK, b_row = t / BN, b_col = t % BN;
    (void)m;

    float acc[TM];
#pragma unroll
    for (int i = 0; i < TM; ++i)
        acc[i] = 0.0f;

    for (int k0 = 0; k0 < k; k0 += BK) {
        As[a_row * BK + a_col] = a[(block_row + a_row) * k + k0 + a_col];
        Bs[b_row * BN + b_col] = b[(k0 + b_row) * n + block_col + b_col];
        __syncthreads();
#pragma unroll
        for (int p = 0; p < BK; ++p) {
            /* One load of B serves TM multiply-adds; the A values are the
             * same for the whole warp (a broadcast). */
            const float b_value = Bs[p * BN + mine.col];
#pragma unroll
            for (int i = 0; i < TM; ++i)
                acc[i] += As[(mine.row + i) * BK + p] * b_value;
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < TM; ++i) {
        const lab7_coord e = lab7_block_tile_1d_output(t, i);
        sgemm_store(&c[(block_row + e.row) * n + block_col + e.col], alpha, acc[i], beta);
    }
}

/* ------------------------------------------- stage 2: block tile, 2D */

LAB_HOST_DEVICE lab7_coord lab7_block_tile_2d_output(int thread, int i, int j)
{
    /* BN2 / TN2 = 16 threads across a row of thread tiles: thread t owns
     * the TM2 x TN2 square at thread row t / 16, thread column t % 16. */
    const int threads_across = LAB7_BT2_BN / LAB7_BT2_TN;
    lab7_coord e = {(thread / threads_across) * LAB7_BT2_TM + i,
                    (thread % threads_across) * LAB7_BT2_TN + j};
    return e;
}

/* At most 128 registers per thread, so that two blocks (16 warps) fit an
 * SM (handout section 9). */
__global__ void __launch_bounds__(LAB7_BT2_THREADS, 2)
    block_tile_2d_kernel(int m, int n, int k, float alpha, const float *__restrict__ a,
                         const float *__restrict__ b, float beta, float *__restrict__ c)
{
    enum {
        BM = LAB7_BT2_BM, BN = LAB7_BT2_BN, BK = LAB7_BT2_BK, TM = LAB7_BT2_TM, TN = LAB7_BT2_TN,
        THREADS = LAB7_BT2_THREADS
    };
    static_assert(BM * BK % THREADS == 0 && BK * BN % THREADS == 0,
                  "the tiles load in whole rounds of THREADS elements");
    __shared__ float As[BM * BK]; /* As[row][p] */
    __shared__ float Bs[BK * BN]; /* Bs[p][col] */
    const int t = threadIdx.x;
    const int block_row = blockIdx.y * BM, block_col = blockIdx.x * BN;
    const lab7_coord mine = lab7_block_tile_2d_output(t, 0, 0);
    (void)m;

    float acc[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j)
            acc[i][j] = 0.0f;
    float reg_m[TM], reg_n[TN];

    for (int k0 = 0; k0 < k; k0 += BK) {
        /* Each round the block copies THREADS consecutive elements. */
#pragma unroll
        for (int f = t; f < BM * BK; f += THREADS)
            As[f] = a[(block_row + f / BK) * k + k0 + f % BK];
#pragma unroll
        for (int f = t; f < BK * BN; f += THREADS)
            Bs[f] = b[(k0 + f / BN) * n + block_col + f % BN];
        __syncthreads();
#pragma unroll
        for (int p = 0; p < BK; ++p) {
            /* TM + TN shared loads feed TM * TN multiply-adds (in the
             * source: nvcc reads p .. p + 3 of a row of As, and 4 neighbours
             * of Bs, with one LDS.128 each; handout section 3). */
#pragma unroll
            for (int i = 0; i < TM; ++i)
                reg_m[i] = As[(mine.row + i) * BK + p];
#pragma unroll
            for (int j = 0; j < TN; ++j)
                reg_n[j] = Bs[p * BN + mine.col + j];
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j)
                    acc[i][j] += reg_m[i] * reg_n[j];
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) {
            const lab7_coord e = lab7_block_tile_2d_output(t, i, j);
            sgemm_store(&c[(block_row + e.row) * n + block_col + e.col], alpha, acc[i][j], beta);
        }
}

/* ------------------------------------------------ stage 3: vectorised */

LAB_HOST_DEVICE lab7_coord lab7_float4_load(int thread, int round, int threads, int tile_cols)
{
    /* The float4s of the tile in row-major order; round r takes numbers
     * r*threads .. r*threads + threads-1, thread t the t-th of them, so a
     * warp reads 32 consecutive float4s (512 contiguous bytes where a row
     * is long enough). */
    const int per_row = tile_cols / 4;
    const int f = round * threads + thread;
    lab7_coord e = {f / per_row, (f % per_row) * 4};
    return e;
}

LAB_HOST_DEVICE int lab7_a_transposed_offset(lab7_coord a, int bm)
{
    /* As[col][row]: column p of the A tile becomes a contiguous row of BM
     * words, so the inner loop reads a thread's TM values of A as float4s. */
    return a.col * bm + a.row;
}

/* One thread's share of the BM x BK tile of A and the BK x BN tile of B,
 * held in registers between the global loads and the shared stores (stage
 * 4 loads the next tiles while it computes on the current ones). */
template <int BM, int BN, int BK, int THREADS>
struct tile_share {
    static_assert(BK % 4 == 0 && BN % 4 == 0, "tile rows hold whole float4s");
    static_assert((BM * BK / 4) % THREADS == 0 && (BK * BN / 4) % THREADS == 0,
                  "the tiles load in whole rounds of THREADS float4s");
    enum { A_ROUNDS = BM * BK / 4 / THREADS, B_ROUNDS = BK * BN / 4 / THREADS };
    float4 a[A_ROUNDS], b[B_ROUNDS];
};

/* Global to registers: the tiles that start at column k0 of A and row k0
 * of B, one float4 per thread per round. */
template <int BM, int BN, int BK, int THREADS>
static __device__ __forceinline__ void fetch_tiles_float4(const float *__restrict__ a,
                                                          const float *__restrict__ b, int n,
                                                          int k, int block_row, int block_col,
                                                          int k0,
                                                          tile_share<BM, BN, BK, THREADS> &s)
{
    const int t = threadIdx.x;
#pragma unroll
    for (int r = 0; r < s.A_ROUNDS; ++r) {
        const lab7_coord e = lab7_float4_load(t, r, THREADS, BK);
        s.a[r] = *reinterpret_cast<const float4 *>(&a[(block_row + e.row) * k + k0 + e.col]);
    }
#pragma unroll
    for (int r = 0; r < s.B_ROUNDS; ++r) {
        const lab7_coord e = lab7_float4_load(t, r, THREADS, BN);
        s.b[r] = *reinterpret_cast<const float4 *>(&b[(k0 + e.row) * n + block_col + e.col]);
    }
}

/* Registers to shared: A transposed (As[BK][BM]), B as it is (Bs[BK][BN]).
 * With BK = 8 the two threads that load one row of A write it 4 * BM words
 * apart, into the same bank: a 2-way conflict on each scalar store (handout
 * section 7). A_STRIDE, the words from one row of As to the next, is BM in
 * every graded build; only the tile sweep pads it (LAB7_WT_A_PAD). */
template <int BM, int BN, int BK, int THREADS, int A_STRIDE = BM>
static __device__ __forceinline__ void stash_tiles(const tile_share<BM, BN, BK, THREADS> &s,
                                                   float *As, float *Bs)
{
    const int t = threadIdx.x;
#pragma unroll
    for (int r = 0; r < s.A_ROUNDS; ++r) {
        const lab7_coord e = lab7_float4_load(t, r, THREADS, BK);
        const float part[4] = {s.a[r].x, s.a[r].y, s.a[r].z, s.a[r].w};
#pragma unroll
        for (int q = 0; q < 4; ++q) {
            const lab7_coord aq = {e.row, e.col + q};
            As[lab7_a_transposed_offset(aq, A_STRIDE)] = part[q];
        }
    }
#pragma unroll
    for (int r = 0; r < s.B_ROUNDS; ++r) {
        const lab7_coord e = lab7_float4_load(t, r, THREADS, BN);
        *reinterpret_cast<float4 *>(&Bs[e.row * BN + e.col]) = s.b[r];
    }
}

/* Both steps at once: the loads of stage 3. */
template <int BM, int BN, int BK, int THREADS>
static __device__ __forceinline__ void load_tiles_float4(const float *__restrict__ a,
                                                         const float *__restrict__ b, int n,
                                                         int k, int block_row, int block_col,
                                                         int k0, float *As, float *Bs)
{
    tile_share<BM, BN, BK, THREADS> s;
    fetch_tiles_float4(a, b, n, k, block_row, block_col, k0, s);
    stash_tiles(s, As, Bs);
}

__global__ void __launch_bounds__(LAB7_BT2_THREADS)
    vectorised_kernel(int m, int n, int k, float alpha, const float *__restrict__ a,
                      const float *__restrict__ b, float beta, float *__restrict__ c)
{
    enum {
        BM = LAB7_BT2_BM, BN = LAB7_BT2_BN, BK = LAB7_BT2_BK, TM = LAB7_BT2_TM, TN = LAB7_BT2_TN,
        THREADS = LAB7_BT2_THREADS
    };
    static_assert(TM % 4 == 0 && TN % 4 == 0, "fragments are read as float4s");
    __shared__ __align__(16) float As[BK * BM]; /* transposed: As[p][row] */
    __shared__ __align__(16) float Bs[BK * BN]; /* Bs[p][col] */
    const int t = threadIdx.x;
    const int block_row = blockIdx.y * BM, block_col = blockIdx.x * BN;
    const lab7_coord mine = lab7_block_tile_2d_output(t, 0, 0);
    (void)m;

    float acc[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j)
            acc[i][j] = 0.0f;
    float reg_m[TM], reg_n[TN];

    for (int k0 = 0; k0 < k; k0 += BK) {
        load_tiles_float4<BM, BN, BK, THREADS>(a, b, n, k, block_row, block_col, k0, As, Bs);
        __syncthreads();
#pragma unroll
        for (int p = 0; p < BK; ++p) {
            /* Both fragments are contiguous words now: float4 reads. */
#pragma unroll
            for (int i = 0; i < TM; i += 4)
                *reinterpret_cast<float4 *>(&reg_m[i]) =
                    *reinterpret_cast<const float4 *>(&As[p * BM + mine.row + i]);
#pragma unroll
            for (int j = 0; j < TN; j += 4)
                *reinterpret_cast<float4 *>(&reg_n[j]) =
                    *reinterpret_cast<const float4 *>(&Bs[p * BN + mine.col + j]);
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j)
                    acc[i][j] += reg_m[i] * reg_n[j];
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; j += 4) {
            const lab7_coord e = lab7_block_tile_2d_output(t, i, j);
            sgemm_store4(&c[(block_row + e.row) * n + block_col + e.col], alpha,
                         make_float4(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]),
                         beta);
        }
}

/* =====================================================================
 * STAGE 4: the warp tile. Everything from here to "END OF STAGE 4" uses
 * the LAB7_WT_* parameters of lab7.h (or a sweep's -D values).
 * ===================================================================== */

LAB_HOST_DEVICE lab7_coord lab7_warp_tile_origin(int warp_idx)
{
    /* BN / WN warp tiles across the block tile, warps numbered along a row. */
    const int warps_across = LAB7_WT_BN / LAB7_WT_WN;
    const int warp_row = warp_idx / warps_across, warp_col = warp_idx % warps_across;
    lab7_coord e = {warp_row * LAB7_WT_WM, warp_col * LAB7_WT_WN};
    return e;
}

LAB_HOST_DEVICE lab7_coord lab7_thread_in_warp(int lane)
{
    /* WSUBN / TN threads across one sub-tile; the 32 lanes fill it row by row. */
    const int threads_across = LAB7_WT_WSUBN / LAB7_WT_TN;
    lab7_coord e = {lane / threads_across, lane % threads_across};
    return e;
}

LAB_HOST_DEVICE lab7_coord lab7_warp_tile_output(int thread, int wm_iter, int wn_iter, int i,
                                                 int j)
{
    /* Block tile -> warp tile -> sub-tile (wm_iter, wn_iter) -> thread tile. */
    const lab7_coord warp = lab7_warp_tile_origin(thread / LAB7_WARP_SIZE);
    const lab7_coord lane = lab7_thread_in_warp(thread % LAB7_WARP_SIZE);
    lab7_coord e = {warp.row + wm_iter * LAB7_WT_WSUBM + lane.row * LAB7_WT_TM + i,
                    warp.col + wn_iter * LAB7_WT_WSUBN + lane.col * LAB7_WT_TN + j};
    return e;
}

/* The divisibility the kernel relies on. */
static_assert(LAB7_WT_BM % LAB7_WT_WM == 0 && LAB7_WT_BN % LAB7_WT_WN == 0,
              "warp tiles divide the block tile");
static_assert(LAB7_WT_WMITER >= 1 && LAB7_WT_WM % LAB7_WT_WMITER == 0 &&
                  LAB7_WT_WN % LAB7_WT_WNITER == 0,
              "sub-tiles divide the warp tile");
static_assert(LAB7_WT_WMITER * LAB7_WT_WNITER * LAB7_WARP_SIZE * LAB7_WT_TM * LAB7_WT_TN ==
                  LAB7_WT_WM * LAB7_WT_WN,
              "the warp's 32 thread tiles per sub-tile cover the warp tile exactly");
static_assert(LAB7_WT_WSUBM % LAB7_WT_TM == 0 && LAB7_WT_WSUBN % LAB7_WT_TN == 0 &&
                  (LAB7_WT_WSUBM / LAB7_WT_TM) * (LAB7_WT_WSUBN / LAB7_WT_TN) == LAB7_WARP_SIZE,
              "32 thread tiles make one sub-tile");
static_assert(LAB7_WT_TM % 4 == 0 && LAB7_WT_TN % 4 == 0, "fragments are read as float4s");
#ifndef LAB7_WARP_TILE_SWEEP
static_assert(LAB7_SIZE_MULTIPLE % LAB7_WT_BM == 0 && LAB7_SIZE_MULTIPLE % LAB7_WT_BN == 0 &&
                  LAB7_K_MULTIPLE % LAB7_WT_BK == 0,
              "the contract's size rule must suit the warp-tile kernel");
#endif

/* The any-size fetch (bonus): scalar loads, zero outside A and B. */
static __device__ __forceinline__ float element_or_zero(const float *__restrict__ x, int rows,
                                                        int cols, int row, int col)
{
    return row < rows && col < cols ? x[(size_t)row * cols + col] : 0.0f;
}

template <int BM, int BN, int BK, int THREADS>
static __device__ __forceinline__ void fetch_tiles_checked(const float *__restrict__ a,
                                                           const float *__restrict__ b, int m,
                                                           int n, int k, int block_row,
                                                           int block_col, int k0,
                                                           tile_share<BM, BN, BK, THREADS> &s)
{
    const int t = threadIdx.x;
#pragma unroll
    for (int r = 0; r < s.A_ROUNDS; ++r) {
        const lab7_coord e = lab7_float4_load(t, r, THREADS, BK);
        const int row = block_row + e.row, col = k0 + e.col;
        s.a[r] = make_float4(element_or_zero(a, m, k, row, col),
                             element_or_zero(a, m, k, row, col + 1),
                             element_or_zero(a, m, k, row, col + 2),
                             element_or_zero(a, m, k, row, col + 3));
    }
#pragma unroll
    for (int r = 0; r < s.B_ROUNDS; ++r) {
        const lab7_coord e = lab7_float4_load(t, r, THREADS, BN);
        const int row = k0 + e.row, col = block_col + e.col;
        s.b[r] = make_float4(element_or_zero(b, k, n, row, col),
                             element_or_zero(b, k, n, row, col + 1),
                             element_or_zero(b, k, n, row, col + 2),
                             element_or_zero(b, k, n, row, col + 3));
    }
}

/* The tile sweep's one parameter beyond lab7.h's: words of padding after
 * each row of the transposed A tile, so that the two threads of a row of A
 * store into different banks (stash_tiles), as lab 4's padded tile does.
 * A multiple of 4 keeps the float4 reads aligned. Always 0 outside a sweep
 * build: the lab's layout, lab7_a_transposed_offset's. */
#if !defined(LAB7_WARP_TILE_SWEEP) || !defined(LAB7_WT_A_PAD)
#undef LAB7_WT_A_PAD
#define LAB7_WT_A_PAD 0
#endif
static_assert(LAB7_WT_A_PAD >= 0 && LAB7_WT_A_PAD % 4 == 0, "padding keeps float4s aligned");

/* The lab's block tile as the kernel body below reads a shape: its sizes
 * and its three index helpers (TODO(7.8)). The final stage adds a second
 * shape, 64 x 64 (end of this file), and runs the same body with it. */
struct warp_shape_large {
    enum {
        BM = LAB7_WT_BM, BN = LAB7_WT_BN, BK = LAB7_WT_BK, TM = LAB7_WT_TM, TN = LAB7_WT_TN,
        WMITER = LAB7_WT_WMITER, WNITER = LAB7_WT_WNITER, WSUBM = LAB7_WT_WSUBM,
        WSUBN = LAB7_WT_WSUBN, THREADS = LAB7_WT_THREADS, A_STRIDE = BM + LAB7_WT_A_PAD
    };
    static __device__ __forceinline__ lab7_coord warp_origin(int warp)
    {
        return lab7_warp_tile_origin(warp);
    }
    static __device__ __forceinline__ lab7_coord lane_place(int lane)
    {
        return lab7_thread_in_warp(lane);
    }
    static __device__ __forceinline__ lab7_coord output(int t, int wm, int wn, int i, int j)
    {
        return lab7_warp_tile_output(t, wm, wn, i, j);
    }
};

/* The warp-tiled kernel's body for any shape S (the block tile and its
 * warp and thread tiles). CHECKED = false: sizes multiples of the block
 * tile, 16-byte aligned pointers (lab7_sgemm). CHECKED = true: any size
 * (lab7_sgemm_any_size). */
template <class S, bool CHECKED>
static __device__ __forceinline__ void warp_tile_body(int m, int n, int k, float alpha,
                                                      const float *__restrict__ a,
                                                      const float *__restrict__ b, float beta,
                                                      float *__restrict__ c)
{
    enum {
        BM = S::BM, BN = S::BN, BK = S::BK, TM = S::TM, TN = S::TN, WMITER = S::WMITER,
        WNITER = S::WNITER, WSUBM = S::WSUBM, WSUBN = S::WSUBN, THREADS = S::THREADS,
        A_STRIDE = S::A_STRIDE
    };
    typedef tile_share<BM, BN, BK, THREADS> share;
    /* Two buffers of each tile: the block computes on one while the next
     * tiles go into the other (see the loop below). */
    __shared__ __align__(16) float As[2][BK * A_STRIDE]; /* transposed: As[p][row] */
    __shared__ __align__(16) float Bs[2][BK * BN];       /* Bs[p][col] */
    const int t = threadIdx.x;
    const int block_row = blockIdx.y * BM, block_col = blockIdx.x * BN;
    /* Where this thread's fragments start in the block tile: its warp's
     * tile, then its place in the warp's grid of thread tiles. */
    const lab7_coord warp = S::warp_origin(t / LAB7_WARP_SIZE);
    const lab7_coord lane = S::lane_place(t % LAB7_WARP_SIZE);
    const int frag_row = warp.row + lane.row * TM, frag_col = warp.col + lane.col * TN;

    /* WMITER*TM x WNITER*TN results per thread, all in registers (every
     * index below is a compile-time constant once the loops are unrolled). */
    float acc[WMITER * TM][WNITER * TN];
#pragma unroll
    for (int i = 0; i < WMITER * TM; ++i)
#pragma unroll
        for (int j = 0; j < WNITER * TN; ++j)
            acc[i][j] = 0.0f;
    float reg_m[WMITER * TM], reg_n[WNITER * TN];

    share next;
    if (CHECKED)
        fetch_tiles_checked(a, b, m, n, k, block_row, block_col, 0, next);
    else
        fetch_tiles_float4(a, b, n, k, block_row, block_col, 0, next);
    stash_tiles<BM, BN, BK, THREADS, A_STRIDE>(next, As[0], Bs[0]);
    __syncthreads();

    /* One barrier per step. The next tiles' global loads are issued before
     * the arithmetic on this step's tiles and stored into the other buffer
     * after it, so their latency hides behind BK * WMITER*TM * WNITER*TN
     * multiply-adds. The other buffer is free: every thread finished
     * reading it before the barrier that ended the previous step. */
    int buf = 0;
    for (int k0 = 0; k0 < k; k0 += BK, buf ^= 1) {
        const bool more = k0 + BK < k;
        if (more) {
            if (CHECKED)
                fetch_tiles_checked(a, b, m, n, k, block_row, block_col, k0 + BK, next);
            else
                fetch_tiles_float4(a, b, n, k, block_row, block_col, k0 + BK, next);
        }
        const float *as = As[buf], *bs = Bs[buf];
#pragma unroll
        for (int p = 0; p < BK; ++p) {
            /* The warp's fragments for this p: WMITER*TM values of A (a
             * column of the warp tile) and WNITER*TN of B (a row), as float4s. */
#pragma unroll
            for (int wm = 0; wm < WMITER; ++wm)
#pragma unroll
                for (int i = 0; i < TM; i += 4)
                    *reinterpret_cast<float4 *>(&reg_m[wm * TM + i]) =
                        *reinterpret_cast<const float4 *>(
                            &as[p * A_STRIDE + frag_row + wm * WSUBM + i]);
#pragma unroll
            for (int wn = 0; wn < WNITER; ++wn)
#pragma unroll
                for (int j = 0; j < TN; j += 4)
                    *reinterpret_cast<float4 *>(&reg_n[wn * TN + j]) =
                        *reinterpret_cast<const float4 *>(
                            &bs[p * BN + frag_col + wn * WSUBN + j]);
            /* (WMITER*TM) x (WNITER*TN) independent multiply-adds: ILP. */
#pragma unroll
            for (int i = 0; i < WMITER * TM; ++i)
#pragma unroll
                for (int j = 0; j < WNITER * TN; ++j)
                    acc[i][j] += reg_m[i] * reg_n[j];
        }
        if (more)
            stash_tiles<BM, BN, BK, THREADS, A_STRIDE>(next, As[buf ^ 1], Bs[buf ^ 1]);
        __syncthreads();
    }

#pragma unroll
    for (int wm = 0; wm < WMITER; ++wm)
#pragma unroll
        for (int wn = 0; wn < WNITER; ++wn)
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; j += 4) {
                    const lab7_coord e = S::output(t, wm, wn, i, j);
                    const int row = block_row + e.row, col = block_col + e.col;
                    const int ai = wm * TM + i, aj = wn * TN + j;
                    if (CHECKED) {
#pragma unroll
                        for (int q = 0; q < 4; ++q)
                            if (row < m && col + q < n)
                                sgemm_store(&c[(size_t)row * n + col + q], alpha, acc[ai][aj + q],
                                            beta);
                    } else {
                        sgemm_store4(&c[row * n + col], alpha,
                                     make_float4(acc[ai][aj], acc[ai][aj + 1], acc[ai][aj + 2],
                                                 acc[ai][aj + 3]),
                                     beta);
                    }
                }
}

/* Stage 4: the body with the lab's block tile. At least LAB7_WT_MIN_BLOCKS
 * blocks per SM: with 256 threads and 2 blocks, at most 128 registers per
 * thread (handout section 9). */
template <bool CHECKED>
__global__ void __launch_bounds__(LAB7_WT_THREADS, LAB7_WT_MIN_BLOCKS)
    warp_tile_kernel(int m, int n, int k, float alpha, const float *__restrict__ a,
                     const float *__restrict__ b, float beta, float *__restrict__ c)
{
    warp_tile_body<warp_shape_large, CHECKED>(m, n, k, alpha, a, b, beta, c);
}

/* ============================================================ END OF STAGE 4 */

/* --------------------------------------------------------- entry points */

/* Positive sizes whose matrices an int can index, no NULL; with
 * `fixed_sizes`, also the contract's size and alignment rule. On failure
 * nothing is launched and lab_last_error() says why. */
static lab_status check_sgemm_args(const char *function, int m, int n, int k, const float *a,
                                   const float *b, const float *c, int fixed_sizes)
{
    const int rows[3] = {m, k, m}, cols[3] = {k, n, n}; /* A, B, C */
    for (int i = 0; i < 3; ++i) {
        lab_status status = lab_check_extents(function, rows[i], cols[i], 1);
        if (status != LAB_OK)
            return status;
    }
    lab_status status = lab_check_pointers(function, a, b, c);
    if (status != LAB_OK || !fixed_sizes)
        return status;
    if (m % LAB7_SIZE_MULTIPLE != 0 || n % LAB7_SIZE_MULTIPLE != 0 || k % LAB7_K_MULTIPLE != 0)
        return lab_fail(LAB_ERR_UNSUPPORTED, "%s: M=%d, N=%d, K=%d: M and N must be multiples "
                        "of %d and K of %d (lab7.h; lab7_sgemm_any_size takes any size)",
                        function, m, n, k, LAB7_SIZE_MULTIPLE, LAB7_K_MULTIPLE);
    if (((uintptr_t)a | (uintptr_t)b | (uintptr_t)c) % 16 != 0)
        return lab_fail(LAB_ERR_UNSUPPORTED, "%s: a, b and c must be 16-byte aligned (the "
                        "kernels move float4s)", function);
    return LAB_OK;
}

/* gridDim.y is limited to 65535 blocks: say so instead of failing the launch. */
static lab_status check_grid(const char *function, dim3 grid, int m)
{
    if (grid.y > 65535)
        return lab_fail(LAB_ERR_UNSUPPORTED, "%s: M=%d needs %u rows of blocks, more than the "
                        "65535 gridDim.y allows", function, m, grid.y);
    return LAB_OK;
}

typedef void (*sgemm_kernel)(int, int, int, float, const float *, const float *, float, float *);

static lab_status launch(sgemm_kernel kernel, int bm, int bn, int threads, int m, int n, int k,
                         float alpha, const float *a, const float *b, float beta, float *c)
{
    const dim3 grid((unsigned)((n + bn - 1) / bn), (unsigned)((m + bm - 1) / bm));
    lab_status status = check_grid("lab7_sgemm", grid, m);
    if (status != LAB_OK)
        return status;
    kernel<<<grid, threads>>>(m, n, k, alpha, a, b, beta, c);
    LAB_LAUNCH_CHECK();
    return LAB_OK;
}

/* The final stage (optional, bonus), at the end of this file: the launch
 * with the block tile chosen per size (TODO(7.13)), and its small-tile
 * kernel for lab7_kernel_attributes. */
static lab_status sgemm_sized(int m, int n, int k, float alpha, const float *a, const float *b,
                              float beta, float *c);
static const void *sized_small_kernel(void);

extern "C" lab_status lab7_sgemm(lab7_stage stage, int m, int n, int k, float alpha,
                                 const float *a, const float *b, float beta, float *c)
{
    lab_status status = check_sgemm_args("lab7_sgemm", m, n, k, a, b, c, 1);
    if (status != LAB_OK)
        return status;
    switch (stage) {
    case LAB7_STAGE_BLOCK_TILE_1D:
        return launch(block_tile_1d_kernel, LAB7_BT1_BM, LAB7_BT1_BN, LAB7_BT1_THREADS, m, n, k,
                      alpha, a, b, beta, c);
    case LAB7_STAGE_BLOCK_TILE_2D:
        return launch(block_tile_2d_kernel, LAB7_BT2_BM, LAB7_BT2_BN, LAB7_BT2_THREADS, m, n, k,
                      alpha, a, b, beta, c);
    case LAB7_STAGE_VECTORISED:
        return launch(vectorised_kernel, LAB7_BT2_BM, LAB7_BT2_BN, LAB7_BT2_THREADS, m, n, k,
                      alpha, a, b, beta, c);
    case LAB7_STAGE_WARP_TILE:
        /* A sweep's block tile may be larger than the contract's multiple. */
        if (m % LAB7_WT_BM != 0 || n % LAB7_WT_BN != 0 || k % LAB7_WT_BK != 0)
            return lab_fail(LAB_ERR_UNSUPPORTED, "lab7_sgemm: M=%d, N=%d, K=%d do not fit the "
                            "warp tile's %dx%dx%d block tile", m, n, k, LAB7_WT_BM, LAB7_WT_BN,
                            LAB7_WT_BK);
        return launch(warp_tile_kernel<false>, LAB7_WT_BM, LAB7_WT_BN, LAB7_WT_THREADS, m, n, k,
                      alpha, a, b, beta, c);
    case LAB7_STAGE_SIZED:
        return sgemm_sized(m, n, k, alpha, a, b, beta, c);
    }
    return lab_fail(LAB_ERR_UNSUPPORTED, "lab7_sgemm: no stage %d", (int)stage);
}

extern "C" lab_status lab7_sgemm_any_size(int m, int n, int k, float alpha, const float *a,
                                          const float *b, float beta, float *c)
{
    lab_status status = check_sgemm_args("lab7_sgemm_any_size", m, n, k, a, b, c, 0);
    if (status != LAB_OK)
        return status;
    /* The fast kernel where it applies, the checked one everywhere else. */
    if (m % LAB7_WT_BM == 0 && n % LAB7_WT_BN == 0 && k % LAB7_WT_BK == 0 &&
        ((uintptr_t)a | (uintptr_t)b | (uintptr_t)c) % 16 == 0)
        return launch(warp_tile_kernel<false>, LAB7_WT_BM, LAB7_WT_BN, LAB7_WT_THREADS, m, n, k,
                      alpha, a, b, beta, c);
    return launch(warp_tile_kernel<true>, LAB7_WT_BM, LAB7_WT_BN, LAB7_WT_THREADS, m, n, k,
                  alpha, a, b, beta, c);
}

extern "C" lab_status lab7_kernel_attributes(lab7_stage stage, struct cudaFuncAttributes *out)
{
    if (!out)
        return lab_fail(LAB_ERR_NULL_POINTER, "lab7_kernel_attributes: out is NULL");
    const void *kernel = NULL;
    switch (stage) {
    case LAB7_STAGE_BLOCK_TILE_1D: kernel = (const void *)block_tile_1d_kernel; break;
    case LAB7_STAGE_BLOCK_TILE_2D: kernel = (const void *)block_tile_2d_kernel; break;
    case LAB7_STAGE_VECTORISED: kernel = (const void *)vectorised_kernel; break;
    case LAB7_STAGE_WARP_TILE: kernel = (const void *)warp_tile_kernel<false>; break;
    case LAB7_STAGE_SIZED: kernel = sized_small_kernel(); break;
    default:
        return lab_fail(LAB_ERR_UNSUPPORTED, "lab7_kernel_attributes: no stage %d", (int)stage);
    }
    LAB_CUDA_TRY(cudaFuncGetAttributes(out, kernel));
    return LAB_OK;
}

/* ========================================================================
 * Final stage (optional): the block tile chosen per size. Stage 4's body
 * with a second, 64 x 64 shape, and the rule that picks one of the two.
 * ===================================================================== */

LAB_HOST_DEVICE int lab7_tile_blocks(int m, int n, int bm, int bn)
{
    /* A partial tile at an edge still needs a whole block: round up. */
    return ((m + bm - 1) / bm) * ((n + bn - 1) / bn);
}

LAB_HOST_DEVICE int lab7_choose_tile(int m, int n, int sm_count)
{
    /* The slowest SM sets the time: one with ceil(blocks / SMs) blocks
     * while others have fewer (wave quantisation). Count that SM's work for
     * each tile, in elements of C weighted by the tile's speed: the large
     * tile computes about 5/4 as fast (8 x 8 results a thread against 16
     * loads per k, where the small tile's 4 x 8 take 12), the small one
     * spreads the same C over 4 times as many blocks. At 256 .. 1024 on 132
     * SMs the large tile's 4 .. 64 blocks leave SMs idle and the small one
     * wins; at 1408 its 121 blocks give no SM two while the small tile's
     * 484 give some SMs 4; at 1536 its 144 give 12 SMs two and the small
     * tile's busiest SM has 5 / 8 of their work. "Every SM has a block",
     * the simpler rule, picks the slower tile at 1280 .. 1536 by 15-16%. */
    const int sms = sm_count > 0 ? sm_count : 1;
    const long long large = lab7_tile_blocks(m, n, LAB7_WT_BM, LAB7_WT_BN);
    const long long small = lab7_tile_blocks(m, n, LAB7_WTS_BM, LAB7_WTS_BN);
    const long long large_rounds = (large + sms - 1) / sms, small_rounds = (small + sms - 1) / sms;
    return large_rounds * LAB7_WT_BM * LAB7_WT_BN * LAB7_TILE_RATE_SMALL <=
                   small_rounds * LAB7_WTS_BM * LAB7_WTS_BN * LAB7_TILE_RATE_LARGE
               ? LAB7_TILE_LARGE
               : LAB7_TILE_SMALL;
}

/* The small block tile: LAB7_WTS_* of lab7.h. The helpers of TODO(7.8) are
 * written for the large tile, so this shape does its own index arithmetic,
 * the same steps with its own sizes. */
struct warp_shape_small {
    enum {
        BM = LAB7_WTS_BM, BN = LAB7_WTS_BN, BK = LAB7_WTS_BK, TM = LAB7_WTS_TM,
        TN = LAB7_WTS_TN, WMITER = LAB7_WTS_WMITER, WNITER = LAB7_WTS_WNITER,
        WSUBM = LAB7_WTS_WM / LAB7_WTS_WMITER, WSUBN = LAB7_WTS_WN / LAB7_WTS_WNITER,
        THREADS = LAB7_WTS_THREADS, A_STRIDE = BM
    };
    static_assert(WMITER >= 1 && WMITER * WNITER * LAB7_WARP_SIZE * TM * TN ==
                                     LAB7_WTS_WM * LAB7_WTS_WN,
                  "the warp's thread tiles cover its warp tile");
    static_assert((WSUBM / TM) * (WSUBN / TN) == LAB7_WARP_SIZE, "32 thread tiles per sub-tile");
    static_assert(LAB7_SIZE_MULTIPLE % BM == 0 && LAB7_SIZE_MULTIPLE % BN == 0 &&
                      LAB7_K_MULTIPLE % BK == 0,
                  "the contract's size rule must suit the small tile too");
    static __device__ __forceinline__ lab7_coord warp_origin(int warp)
    {
        const int across = BN / LAB7_WTS_WN; /* 2 warp tiles across */
        lab7_coord e = {(warp / across) * LAB7_WTS_WM, (warp % across) * LAB7_WTS_WN};
        return e;
    }
    static __device__ __forceinline__ lab7_coord lane_place(int lane)
    {
        const int across = WSUBN / TN; /* 4 thread tiles across a sub-tile */
        lab7_coord e = {lane / across, lane % across};
        return e;
    }
    static __device__ __forceinline__ lab7_coord output(int t, int wm, int wn, int i, int j)
    {
        const lab7_coord w = warp_origin(t / LAB7_WARP_SIZE);
        const lab7_coord l = lane_place(t % LAB7_WARP_SIZE);
        lab7_coord e = {w.row + wm * WSUBM + l.row * TM + i, w.col + wn * WSUBN + l.col * TN + j};
        return e;
    }
};

/* 128 threads and up to 4 blocks per SM: the registers stay under 128 per
 * thread (105 in the sweep's build), and 16 KiB of shared memory per block
 * (two buffers of two 64 x 16 tiles) lets 4 fit easily. */
__global__ void __launch_bounds__(LAB7_WTS_THREADS, LAB7_WTS_MIN_BLOCKS)
    warp_tile_small_kernel(int m, int n, int k, float alpha, const float *__restrict__ a,
                           const float *__restrict__ b, float beta, float *__restrict__ c)
{
    warp_tile_body<warp_shape_small, false>(m, n, k, alpha, a, b, beta, c);
}

/* For lab7_kernel_attributes (given). */
static const void *sized_small_kernel(void) { return (const void *)warp_tile_small_kernel; }

static lab_status sgemm_sized(int m, int n, int k, float alpha, const float *a, const float *b,
                              float beta, float *c)
{
    /* The SM count, read once: the attribute call costs a trip into the
     * driver, and the grader calls this entry point thousands of times. One
     * process, one GPU: a program that switches devices would need one
     * count per device. In a green context (GRADER_SM_COUNT, design.md
     * section 3.6) the attribute still reports the whole GPU's SMs (132 on
     * an H100), so the choice is made for the whole GPU, not for the SMs
     * granted. */
    static int sm_count = 0;
    if (sm_count == 0) {
        int device = 0, count = 0;
        LAB_CUDA_TRY(cudaGetDevice(&device));
        LAB_CUDA_TRY(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device));
        sm_count = count;
    }
    if (lab7_choose_tile(m, n, sm_count) == LAB7_TILE_LARGE)
        return launch(warp_tile_kernel<false>, LAB7_WT_BM, LAB7_WT_BN, LAB7_WT_THREADS, m, n, k,
                      alpha, a, b, beta, c);
    return launch(warp_tile_small_kernel, LAB7_WTS_BM, LAB7_WTS_BN, LAB7_WTS_THREADS, m, n, k,
                  alpha, a, b, beta, c);
}
