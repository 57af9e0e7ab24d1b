/* Lab 7, handout section 15: can a warp tile whose tiles reach shared
 * memory by cp.async (no register staging, STAGES K steps in flight) reach
 * 95% of cuBLAS FP32 at 2048 and 4096, where stage 4 reaches 92-93%? And
 * can split K beat lab 3's tiles at 256, where the final stage's 64 x 64
 * tile only ties them?
 *
 *   build/bin/measure_lab7_async_copy [runs]     default 21; sizes 256 .. 4096
 *
 * Each variant, lab 7's stage 4 and final stage (the reference), lab 3's
 * tiled kernel and cuBLAS (pedantic FP32) are timed interleaved in one
 * process, median of `runs` after 3 warm-ups each, no L2 flush (compare
 * within a line); the variant's C is checked against cuBLAS's. One line
 * per variant and size. H100 results: handouts/results/h100-lab7-async-copy.txt.
 *
 * The kernel: a BM x BN block tile of warps of (32 * WMITER) x 32, each
 * thread 4 * WMITER x 8 results in sub-tiles of 4 x 4 (stage 4's shape at
 * 128 x 128, the final stage's small tile at 64 x 64). A is stored as it is
 * in memory, As[row][k] with rows padded to BK + 4 words (cp.async cannot
 * transpose), and a thread reads KV consecutive k of one row at once; a
 * sub-tile's 4 rows per thread are 8 apart, so at one read the warp's 8
 * distinct rows are consecutive and, with the padded stride, in 8
 * different groups of 4 banks. B is stored as it is, Bs[k][col]. Split-K
 * variants (SPLIT > 1) give each of SPLIT blocks along z a run of K tiles
 * and add the partial products into a zeroed C with atomics (the zeroing is
 * timed with the kernel). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime.h>

#include "lab3.h"
#include "lab7.h"
#include "lab7_cublas.h"
#include "measure_common.h"

namespace {

/* Template: block tile BM x BN, warp tile WM x WN with WN = 32 (two sub-tiles
 * of 16 columns across, 4 lanes x 4 columns each) and WM = 32 * WMITER (sub-tiles
 * of 32 rows, 8 lanes x 4 rows each, a thread's 4 rows 8 apart). */
template <int BM, int BN, int BK, int WMITER, int STAGES, int KV, int MINB, int SPLIT> struct shape {
    enum { WM = 32 * WMITER, WN = 32, WARPS = (BM / WM) * (BN / WN), THREADS = WARPS * 32 };
};

__device__ __forceinline__ void copy16(void *smem, const void *gmem)
{
    const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(gmem) : "memory");
}
__device__ __forceinline__ void commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
template <int N> __device__ __forceinline__ void wait_groups()
{
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

template <int BM, int BN, int BK, int WMITER, int STAGES, int KV, int MINB, int SPLIT>
__global__ void __launch_bounds__(shape<BM, BN, BK, WMITER, STAGES, KV, MINB, SPLIT>::THREADS, MINB)
    async_tile_kernel(int n, int k, float alpha, const float *__restrict__ a,
                      const float *__restrict__ b, float *__restrict__ c)
{
    typedef shape<BM, BN, BK, WMITER, STAGES, KV, MINB, SPLIT> S;
    constexpr int THREADS = S::THREADS, WM = S::WM, WN = S::WN, TR = 4 * WMITER;
    static_assert(BK % KV == 0 && (KV == 1 || KV == 2 || KV == 4), "KV divides BK");
    static_assert(BM % WM == 0 && BN % WN == 0, "warp tiles divide the block tile");
    constexpr int AS = BK + 4;                     /* padded row of As, in floats */
    constexpr int A_F4 = BM * BK / 4 / THREADS;    /* float4 copies per thread */
    constexpr int B_F4 = BK * BN / 4 / THREADS;
    static_assert(A_F4 >= 1 && B_F4 >= 1 && A_F4 * 4 * THREADS == BM * BK &&
                      B_F4 * 4 * THREADS == BK * BN,
                  "whole rounds of copies");
    __shared__ __align__(16) float As[STAGES][BM * AS];
    __shared__ __align__(16) float Bs[STAGES][BK * BN];
    const int t = threadIdx.x, warp = t / 32, lane = t % 32;
    const int block_row = blockIdx.y * BM, block_col = blockIdx.x * BN;
    const int warp_row = (warp / (BN / WN)) * WM, warp_col = (warp % (BN / WN)) * WN;
    const int lr = lane / 4, lc = lane % 4; /* 8 x 4 lanes per sub-tile */
    /* Split K (SPLIT > 1): block z sums its own run of K tiles and adds its
     * partial C to the zeroed C with atomics. */
    const int per_split = (k / BK + SPLIT - 1) / SPLIT, first_tile = blockIdx.z * per_split;
    const int tiles = min(per_split, k / BK - first_tile);

    auto load = [&](int stage, int kt) {
#pragma unroll
        for (int r = 0; r < A_F4; ++r) {
            const int f = r * THREADS + t, row = f / (BK / 4), col = (f % (BK / 4)) * 4;
            copy16(&As[stage][row * AS + col], &a[(size_t)(block_row + row) * k + (first_tile + kt) * BK + col]);
        }
#pragma unroll
        for (int r = 0; r < B_F4; ++r) {
            const int f = r * THREADS + t, row = f / (BN / 4), col = (f % (BN / 4)) * 4;
            copy16(&Bs[stage][row * BN + col], &b[(size_t)((first_tile + kt) * BK + row) * n + block_col + col]);
        }
    };

    /* Row r of acc: sub-tile r / 4, its row (r % 4) * 8 + lr; column j: sub-tile j / 4. */
    float acc[TR][8];
#pragma unroll
    for (int i = 0; i < TR; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j)
            acc[i][j] = 0.0f;

#pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) {
        if (s < tiles)
            load(s, s);
        commit();
    }
    for (int kt = 0; kt < tiles; ++kt) {
        wait_groups<STAGES - 2>(); /* this thread's copies of tile kt have landed */
        __syncthreads();           /* everyone's have; and tile kt-1 is read */
        const int next = kt + STAGES - 1;
        if (next < tiles)
            load(next % STAGES, next);
        commit();
        const float *as = As[kt % STAGES], *bs = Bs[kt % STAGES];
#pragma unroll
        for (int p = 0; p < BK; p += KV) {
            float ra[TR][KV];
#pragma unroll
            for (int r = 0; r < TR; ++r) {
                const float *src = &as[(warp_row + (r / 4) * 32 + (r % 4) * 8 + lr) * AS + p];
                if constexpr (KV == 4) {
                    const float4 v = *reinterpret_cast<const float4 *>(src);
                    ra[r][0] = v.x;
                    ra[r][1] = v.y;
                    ra[r][2] = v.z;
                    ra[r][3] = v.w;
                } else if constexpr (KV == 2) {
                    const float2 v = *reinterpret_cast<const float2 *>(src);
                    ra[r][0] = v.x;
                    ra[r][1] = v.y;
                } else {
                    ra[r][0] = *src;
                }
            }
#pragma unroll
            for (int q = 0; q < KV; ++q) {
                float rb[8];
#pragma unroll
                for (int wn = 0; wn < 2; ++wn)
                    *reinterpret_cast<float4 *>(&rb[wn * 4]) = *reinterpret_cast<const float4 *>(
                        &bs[(p + q) * BN + warp_col + wn * 16 + lc * 4]);
#pragma unroll
                for (int i = 0; i < TR; ++i)
#pragma unroll
                    for (int j = 0; j < 8; ++j)
                        acc[i][j] += ra[i][q] * rb[j];
            }
        }
    }
    wait_groups<0>();

#pragma unroll
    for (int r = 0; r < TR; ++r)
#pragma unroll
        for (int wn = 0; wn < 2; ++wn) {
            const int row = block_row + warp_row + (r / 4) * 32 + (r % 4) * 8 + lr;
            const int col = block_col + warp_col + wn * 16 + lc * 4;
            const float *v = &acc[r][wn * 4];
            float *dst = &c[(size_t)row * n + col];
            if constexpr (SPLIT == 1)
                *reinterpret_cast<float4 *>(dst) =
                    make_float4(alpha * v[0], alpha * v[1], alpha * v[2], alpha * v[3]);
            else
#pragma unroll
                for (int q = 0; q < 4; ++q)
                    atomicAdd(dst + q, alpha * v[q]);
        }
}

struct variant {
    const char *name;
    int bm, bn;
    void (*launch)(int, const float *, const float *, float *);
    const void *kernel;
};

/* A split launch zeroes C first, inside the timed interval. */
template <int BM, int BN, int BK, int WMITER, int STAGES, int KV, int MINB, int SPLIT>
void launch(int s, const float *a, const float *b, float *c)
{
    const dim3 grid(s / BN, s / BM, SPLIT);
    if (SPLIT > 1)
        cudaMemsetAsync(c, 0, (size_t)s * s * sizeof(float), 0);
    async_tile_kernel<BM, BN, BK, WMITER, STAGES, KV, MINB, SPLIT>
        <<<grid, shape<BM, BN, BK, WMITER, STAGES, KV, MINB, SPLIT>::THREADS>>>(s, s, 1.0f, a, b,
                                                                                 c);
}

/* MINB: __launch_bounds__'s blocks per SM (2 caps 256 threads at 128 registers). */
#define VARIANT_SPLIT(BM, BN, BK, WMITER, ST, KV, MINB, SPLIT)                                 \
    {"async " #BM "x" #BN " BK=" #BK " ST=" #ST " KV=" #KV " MINB=" #MINB                         \
     " SPLIT=" #SPLIT,                                                                           \
     BM, BN, launch<BM, BN, BK, WMITER, ST, KV, MINB, SPLIT>,                                   \
     (const void *)async_tile_kernel<BM, BN, BK, WMITER, ST, KV, MINB, SPLIT>}
#define VARIANT(BM, BN, BK, WMITER, ST, KV, MINB) VARIANT_SPLIT(BM, BN, BK, WMITER, ST, KV, MINB, 1)

/* Static shared memory stays under 48 KiB per block. */
const variant VARIANTS[] = {
    VARIANT(128, 128, 8, 2, 2, 4, 2),  VARIANT(128, 128, 8, 2, 3, 4, 2),
    VARIANT(128, 128, 8, 2, 4, 4, 2),  VARIANT(128, 128, 8, 2, 3, 2, 2),
    VARIANT(128, 128, 8, 2, 3, 1, 2),  VARIANT(128, 128, 16, 2, 2, 4, 2),
    VARIANT(128, 128, 16, 2, 2, 4, 1), VARIANT(64, 64, 16, 1, 3, 4, 4),
    VARIANT(64, 64, 16, 1, 4, 4, 4),   VARIANT(64, 64, 8, 1, 4, 4, 4),
    VARIANT(64, 64, 32, 1, 2, 4, 4),   VARIANT(64, 128, 16, 1, 3, 4, 2),
    /* Split K for the sizes that leave SMs idle (256: 16 blocks of 64 x 64). */
    VARIANT_SPLIT(64, 64, 16, 1, 3, 4, 4, 2),  VARIANT_SPLIT(64, 64, 16, 1, 3, 4, 4, 4),
    VARIANT_SPLIT(64, 64, 16, 1, 3, 4, 4, 8),  VARIANT_SPLIT(64, 64, 32, 1, 2, 4, 4, 4),
    VARIANT(32, 32, 16, 1, 3, 4, 16),          VARIANT_SPLIT(32, 32, 16, 1, 3, 4, 16, 2),
    VARIANT_SPLIT(32, 32, 16, 1, 3, 4, 16, 4), VARIANT_SPLIT(32, 32, 8, 1, 4, 4, 16, 4),
};

} // namespace

int main(int argc, char **argv)
{
    const int runs = argc > 1 ? atoi(argv[1]) : 21;
    if (runs < 1 || runs > 1000) {
        fprintf(stderr, "usage: measure_lab7_async_copy [runs]\n");
        return 2;
    }
    if (!measure_start("lab 7: cp.async and split-K warp tiles against stage 4, the final stage, "
                       "lab 3 and cuBLAS", argc, argv))
        return MEASURE_NO_DEVICE;
    cudaDeviceProp prop;
    if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) {
        fprintf(stderr, "measure_lab7_async_copy: cannot read the GPU's properties\n");
        return 1;
    }
    printf("# %d SMs; median of %d runs each after 3 warm-ups, no L2 flush, interleaved: the "
           "variant, lab 7's stage 4 and final stage (sized), lab 3's tiled kernel, cuBLAS FP32 "
           "(pedantic)\n",
           prop.multiProcessorCount, runs);
    enum { VAR, STAGE4, SIZED, LAB3, CUBLAS, KINDS };
    const int sizes[] = {256, 512, 1024, 2048, 4096};
    for (int size : sizes) {
        const int s = size;
        const size_t count = (size_t)s * s;
        float *h_c = (float *)malloc(count * 4), *h_want = (float *)malloc(count * 4);
        float *a = measure_device_floats("measure_lab7_async_copy", count, 20261127u);
        float *b = measure_device_floats("measure_lab7_async_copy", count, 20261128u);
        float *c = nullptr, *other = nullptr, *want = nullptr;
        if (!h_c || !h_want || !a || !b || cudaMalloc((void **)&c, count * 4) != cudaSuccess ||
            cudaMalloc((void **)&other, count * 4) != cudaSuccess ||
            cudaMalloc((void **)&want, count * 4) != cudaSuccess) {
            printf("size %d: not enough host or GPU memory\n", s);
            return 1;
        }
        cudaEvent_t start, stop;
        cudaEventCreate(&start);
        cudaEventCreate(&stop);
        double *ms[KINDS];
        for (int w = 0; w < KINDS; ++w)
            ms[w] = (double *)malloc((size_t)runs * sizeof(double));
        const double flops = 2.0 * s * (double)s * s;
        for (const variant &v : VARIANTS) {
            if (s % v.bm || s % v.bn)
                continue;
            for (int r = -3; r < runs; ++r)
                for (int w = 0; w < KINDS; ++w) {
                    cudaEventRecord(start, 0);
                    if (w == VAR)
                        v.launch(s, a, b, c);
                    else if (w == STAGE4)
                        lab7_sgemm(LAB7_STAGE_WARP_TILE, s, s, s, 1.0f, a, b, 0.0f, other);
                    else if (w == SIZED)
                        lab7_sgemm(LAB7_STAGE_SIZED, s, s, s, 1.0f, a, b, 0.0f, other);
                    else if (w == LAB3)
                        lab3_matmul_tiled(a, b, other, s, s, s);
                    else
                        lab7_cublas_sgemm(s, s, s, 1.0f, a, b, 0.0f, want);
                    cudaEventRecord(stop, 0);
                    cudaError_t err = cudaEventSynchronize(stop);
                    if (err == cudaSuccess)
                        err = cudaGetLastError();
                    if (err != cudaSuccess) {
                        printf("%s size %d FAILED %s\n", v.name, s, cudaGetErrorString(err));
                        return 1;
                    }
                    float t = 0;
                    cudaEventElapsedTime(&t, start, stop);
                    if (r >= 0)
                        ms[w][r] = t;
                }
            cudaMemcpy(h_c, c, count * 4, cudaMemcpyDeviceToHost);
            cudaMemcpy(h_want, want, count * 4, cudaMemcpyDeviceToHost);
            size_t wrong = 0;
            const double atol = 2.0 * 8.0 * s / 16777216.0;
            for (size_t i = 0; i < count; ++i)
                wrong += !(fabs((double)h_c[i] - h_want[i]) <= atol + 2e-5 * fabs((double)h_want[i]));
            cudaFuncAttributes attr;
            cudaFuncGetAttributes(&attr, v.kernel);
            double m[KINDS];
            for (int w = 0; w < KINDS; ++w)
                m[w] = stats_median(ms[w], (size_t)runs);
            printf("%-44s size %4d regs=%d local=%zu smem=%zu ms=%.4f gflops=%.0f pct_cublas=%.1f "
                   "x_lab3=%.2f x_sized=%.2f | stage4 pct_cublas=%.1f sized x_lab3=%.2f "
                   "cublas_gflops=%.0f %s\n",
                   v.name, s, attr.numRegs, attr.localSizeBytes, attr.sharedSizeBytes, m[VAR],
                   flops / (m[VAR] * 1e6), 100.0 * m[CUBLAS] / m[VAR], m[LAB3] / m[VAR],
                   m[SIZED] / m[VAR], 100.0 * m[CUBLAS] / m[STAGE4], m[LAB3] / m[SIZED],
                   flops / (m[CUBLAS] * 1e6), wrong ? "WRONG" : "ok");
            fflush(stdout);
        }
        cudaFree(a);
        cudaFree(b);
        cudaFree(c);
        cudaFree(other);
        cudaFree(want);
        free(h_c);
        free(h_want);
    }
    return 0;
}
