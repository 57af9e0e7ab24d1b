/* Lab 8 - tensor cores through WMMA.
 *
 * Fill in the TODOs, in their order; each names the section of
 * handouts/lab8-tensor-cores.md that explains it. Check your work with
 *     make check-lab8
 * (one test: make check-lab8 GRADER_ARGS="--only cpu_global_tiles_cover_c").
 * The grader runs your index helpers on the CPU (simulating every warp and
 * thread of a launch) and, on a GPU machine, runs your two kernels against
 * a CPU reference, cuBLAS and lab 7's warp tile.
 *
 * Written for you: the fragment types, the shared-tile loader, the
 * validation and the launches. The placeholder return values only keep the
 * file compiling: replace them. */
#include <stdint.h>

#include <mma.h>

#include "lab8.h"

#include "cuda_check.h"

using namespace nvcuda;

/* -------------------------------------------------------------- helpers */

LAB_HOST_DEVICE lab8_coord lab8_global_tile(lab_dim3 block_idx, int warp)
{
    /* TODO(8.1): a block's warps cover LAB8_G_WARPS_M x LAB8_G_WARPS_N
     * tiles of 16 x 16, numbered across first; the block's corner is
     * (blockIdx.y * LAB8_G_BM, blockIdx.x * LAB8_G_BN). (handout section 4) */
    (void)block_idx;
    (void)warp;
    lab8_coord at = {0, 0};
    return at;
}

LAB_HOST_DEVICE lab8_coord lab8_warp_origin(int warp)
{
    /* TODO(8.4): the warps tile the block tile LAB8_S_WARPS_M x
     * LAB8_S_WARPS_N, numbered across first. (handout section 6) */
    (void)warp;
    lab8_coord at = {0, 0};
    return at;
}

LAB_HOST_DEVICE lab8_coord lab8_fragment_origin(int warp, int fm, int fn)
{
    /* TODO(8.4): the warp's corner, then fragment (fm, fn) of 16 x 16
     * inside its warp tile. (handout section 6) */
    (void)warp;
    (void)fm;
    (void)fn;
    lab8_coord at = {0, 0};
    return at;
}

LAB_HOST_DEVICE lab8_coord lab8_chunk_load(int thread, int round, int threads, int tile_cols)
{
    /* TODO(8.5): chunk number round * threads + thread, in a tile of
     * tile_cols / LAB8_CHUNK chunks per row. (handout section 7) */
    (void)thread;
    (void)round;
    (void)threads;
    (void)tile_cols;
    lab8_coord at = {0, 0};
    return at;
}

/* ------------------------------------------------------------ fragments */

/* The fragments both stages use: 16 x 16 pieces of A and B in FP16, read
 * from row-major memory, and a 16 x 16 accumulator in FP32. Which thread
 * of the warp holds which elements is the hardware's business: code may
 * only load, store, fill and multiply fragments, and apply the same
 * operation to every element of x[] (an elementwise scale, as the epilogue
 * does), never pick an element by its place in the tile. */
typedef wmma::fragment<wmma::matrix_a, LAB8_FRAG, LAB8_FRAG, LAB8_FRAG, __half, wmma::row_major>
    a_fragment;
typedef wmma::fragment<wmma::matrix_b, LAB8_FRAG, LAB8_FRAG, LAB8_FRAG, __half, wmma::row_major>
    b_fragment;
typedef wmma::fragment<wmma::accumulator, LAB8_FRAG, LAB8_FRAG, LAB8_FRAG, float> acc_fragment;

/* Architecture guards. This file is compiled for compute_75 (PTX, which the
 * driver compiles for any later GPU), sm_80 and sm_90, or for the GPU you
 * build on. WMMA on FP16 exists on all of them. What exists only from sm_80
 * (BF16 and TF32 fragments, mma.sync m16n8k16, cp.async: part 2 of the
 * lab) must compile away for compute_75, so it goes inside
 *     #if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
 *         ... sm_80 code ...
 *     #endif
 * in device code (the host pass has no __CUDA_ARCH__), with a fallback in
 * the #else branch, and the host side asks the device's compute capability
 * before it launches such a kernel (cudaDevAttrComputeCapabilityMajor). */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define LAB8_DEVICE_HAS_SM80 1
#else
#define LAB8_DEVICE_HAS_SM80 0
#endif

/* ------------------------------------------------------------- epilogue */

/* C = alpha * acc + beta * C for one 16 x 16 tile of C at `c` (rows `ldc`
 * floats apart). */
__device__ __forceinline__ void store_scaled(const acc_fragment &acc, float *c, int ldc,
                                             float alpha, float beta)
{
    /* TODO(8.2): the BLAS rule: with beta == 0, C is not read (it may be
     * NaN). Otherwise load C's tile into an accumulator fragment: it has
     * the same layout as acc, so element i of one matches element i of the
     * other. (handout section 5) */
    (void)acc;
    (void)c;
    (void)ldc;
    (void)alpha;
    (void)beta;
}

/* --------------------------------------------- stage 1: WMMA from global */

__global__ void __launch_bounds__(LAB8_G_THREADS)
    wmma_global_kernel(int m, int n, int k, float alpha, const __half *a, const __half *b,
                       float beta, float *c)
{
    const int warp = threadIdx.x / LAB8_WARP_SIZE;
    const lab8_coord tile = lab8_global_tile(lab_block_idx(), warp);
    /* TODO(8.3): a warp whose tile lies outside C has nothing to do (the
     * whole warp leaves: WMMA calls need all 32 lanes). Otherwise: an
     * accumulator filled with 0; for each K step of 16, A's 16 x 16 piece
     * at (tile.row, k0) (rows k halves apart) and B's at (k0, tile.col)
     * (rows n apart) into fragments, and one mma_sync; then the epilogue
     * at C's tile. (handout section 4) */
    (void)tile;
    (void)m;
    (void)n;
    (void)k;
    (void)alpha;
    (void)a;
    (void)b;
    (void)beta;
    (void)c;
}

/* --------------------------------------- stage 2: WMMA through shared */

/* Shared tiles, rows padded by LAB8_S_PAD halves (lab8.h says why). */
enum {
    A_LD = LAB8_S_BK + LAB8_S_PAD, /* 40 halves: a row of the BM x BK tile of A */
    B_LD = LAB8_S_BN + LAB8_S_PAD  /* 136 halves: a row of the BK x BN tile of B */
};

/* Copies a ROWS x COLS tile of a row-major matrix (rows `ld` halves apart,
 * starting at `src`) into shared memory (rows COLS + LAB8_S_PAD apart), 16
 * bytes per thread per round, at the places lab8_chunk_load gives. */
template <int ROWS, int COLS>
__device__ __forceinline__ void stash_tile(const __half *src, int ld, __half *dst, int thread)
{
    constexpr int ROUNDS = ROWS * COLS / (LAB8_CHUNK * LAB8_S_THREADS);
    static_assert(ROUNDS * LAB8_CHUNK * LAB8_S_THREADS == ROWS * COLS,
                  "the tile must be a whole number of rounds");
#pragma unroll
    for (int r = 0; r < ROUNDS; ++r) {
        const lab8_coord at = lab8_chunk_load(thread, r, LAB8_S_THREADS, COLS);
        *reinterpret_cast<uint4 *>(dst + at.row * (COLS + LAB8_S_PAD) + at.col) =
            *reinterpret_cast<const uint4 *>(src + (size_t)at.row * ld + at.col);
    }
}

__global__ void __launch_bounds__(LAB8_S_THREADS)
    wmma_shared_kernel(int m, int n, int k, float alpha, const __half *a, const __half *b,
                       float beta, float *c)
{
    const int thread = threadIdx.x, warp = thread / LAB8_WARP_SIZE;
    const int block_row = blockIdx.y * LAB8_S_BM, block_col = blockIdx.x * LAB8_S_BN;
    (void)m; /* the grid covers C exactly: M, N and K are multiples of the tiles */
    /* TODO(8.6): two shared tiles, 32-byte aligned (WMMA loads from
     * shared memory need it too): __shared__ __align__(32) __half
     * as[LAB8_S_BM * A_LD] and bs[LAB8_S_BK * B_LD]. FM x FN accumulators
     * filled with 0. For each K step of BK: both tiles into shared memory
     * (stash_tile: A's BM x BK tile at (block_row, k0), B's BK x BN tile
     * at (k0, block_col)), a barrier; for each 16 of the step, the warp's
     * FM fragments of A and FN of B from shared memory (at
     * lab8_fragment_origin, rows A_LD and B_LD apart) and FM x FN
     * mma_sync; a barrier before the next step's stores. Then the
     * epilogue, fragment by fragment. (handout section 7) */
    (void)thread;
    (void)warp;
    (void)block_row;
    (void)block_col;
    (void)n;
    (void)k;
    (void)alpha;
    (void)a;
    (void)b;
    (void)beta;
    (void)c;
}

/* ---------------------------------------------------------- entry points */

/* The checks every entry point makes before it launches: sizes (positive,
 * no int overflow), pointers, the stage's multiples of M, N and K, and
 * 32-byte alignment (WMMA's global loads and stores). On failure nothing
 * is launched and lab_last_error() says why. */
static lab_status check_gemm_args(const char *function, int m, int n, int k, const void *a,
                                  const void *b, const void *c, int mn_multiple_m,
                                  int mn_multiple_n, int k_multiple)
{
    const int rows[3] = {m, k, m}, cols[3] = {k, n, n}; /* A, B, C */
    for (int i = 0; i < 3; ++i) {
        lab_status status = lab_check_extents(function, rows[i], cols[i], 1);
        if (status != LAB_OK)
            return status;
    }
    lab_status status = lab_check_pointers(function, a, b, c);
    if (status != LAB_OK)
        return status;
    if (m % mn_multiple_m != 0 || n % mn_multiple_n != 0 || k % k_multiple != 0)
        return lab_fail(LAB_ERR_UNSUPPORTED, "%s: M=%d, N=%d, K=%d: M must be a multiple of "
                        "%d, N of %d and K of %d (lab8.h)", function, m, n, k, mn_multiple_m,
                        mn_multiple_n, k_multiple);
    if (((uintptr_t)a | (uintptr_t)b | (uintptr_t)c) % 32 != 0)
        return lab_fail(LAB_ERR_UNSUPPORTED, "%s: a, b and c must be 32-byte aligned (WMMA "
                        "loads and stores need it; cudaMalloc's pointers are)", function);
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

extern "C" lab_status lab8_wmma_global(int m, int n, int k, float alpha, const lab8_half *a,
                                       const lab8_half *b, float beta, float *c)
{
    lab_status status = check_gemm_args("lab8_wmma_global", m, n, k, a, b, c, LAB8_G_MULTIPLE,
                                        LAB8_G_MULTIPLE, LAB8_G_MULTIPLE);
    if (status != LAB_OK)
        return status;
    /* One block per LAB8_G_BM x LAB8_G_BN tile of C, rounded up: M and N
     * are multiples of 16, not of the block's 32, so the last row or
     * column of blocks may hold warps with no tile (TODO(8.3) sends them
     * home). */
    dim3 grid((unsigned)((n + LAB8_G_BN - 1) / LAB8_G_BN),
              (unsigned)((m + LAB8_G_BM - 1) / LAB8_G_BM));
    status = check_grid("lab8_wmma_global", grid, m);
    if (status != LAB_OK)
        return status;
    wmma_global_kernel<<<grid, LAB8_G_THREADS>>>(m, n, k, alpha, a, b, beta, c);
    LAB_LAUNCH_CHECK();
    return LAB_OK;
}

extern "C" lab_status lab8_wmma_shared(int m, int n, int k, float alpha, const lab8_half *a,
                                       const lab8_half *b, float beta, float *c)
{
    lab_status status = check_gemm_args("lab8_wmma_shared", m, n, k, a, b, c, LAB8_S_BM,
                                        LAB8_S_BN, LAB8_S_BK);
    if (status != LAB_OK)
        return status;
    dim3 grid((unsigned)(n / LAB8_S_BN), (unsigned)(m / LAB8_S_BM));
    status = check_grid("lab8_wmma_shared", grid, m);
    if (status != LAB_OK)
        return status;
    wmma_shared_kernel<<<grid, LAB8_S_THREADS>>>(m, n, k, alpha, a, b, beta, c);
    LAB_LAUNCH_CHECK();
    return LAB_OK;
}
