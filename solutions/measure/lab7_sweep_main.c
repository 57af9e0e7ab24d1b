/* The timing program of the warp-tile sweep (solutions/measure/lab7_tile_sweep.sh),
 * linked with the solution's warp_tiling.cu compiled with
 * -DLAB7_WARP_TILE_SWEEP and one set of -DLAB7_WT_* values.
 *
 *   lab7_sweep [size] [runs]      default 4096, 15
 *
 * Times stage 4 and cuBLAS FP32 (pedantic) on size^3, interleaved, median
 * of `runs` each after 3 warm-ups; checks stage 4's C against cuBLAS's on
 * the host; prints one line:
 *   BM BN BK WM WN WNITER TM TN MIN_BLOCKS A_PAD threads regs local_bytes smem_bytes ms gflops pct_of_cublas ok|WRONG
 * A launch or verification failure prints the same line with the reason. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "lab7.h"
#include "lab7_cublas.h"

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* The padding of the transposed A tile: the kernel's file reads the same
 * -D value (0, the lab's layout, when the sweep passes none). */
#ifndef LAB7_WT_A_PAD
#define LAB7_WT_A_PAD 0
#endif

static void print_params(void)
{
    printf("BM=%d BN=%d BK=%d WM=%d WN=%d WNITER=%d TM=%d TN=%d MIN_BLOCKS=%d A_PAD=%d threads=%d",
           LAB7_WT_BM, LAB7_WT_BN, LAB7_WT_BK, LAB7_WT_WM, LAB7_WT_WN, LAB7_WT_WNITER,
           LAB7_WT_TM, LAB7_WT_TN, LAB7_WT_MIN_BLOCKS, LAB7_WT_A_PAD, LAB7_WT_THREADS);
}

static int fail(const char *why)
{
    print_params();
    printf(" FAILED %s\n", why);
    return 1;
}

int main(int argc, char **argv)
{
    const int size = argc > 1 ? atoi(argv[1]) : 4096;
    const int runs = argc > 2 ? atoi(argv[2]) : 15;
    if (size <= 0 || runs <= 0 || runs > 1000)
        return fail("usage: lab7_sweep [size] [runs]");
    const size_t n = (size_t)size * size;
    float *h_a = malloc(n * sizeof *h_a), *h_b = malloc(n * sizeof *h_b);
    float *h_c = malloc(n * sizeof *h_c), *h_want = malloc(n * sizeof *h_want);
    if (!h_a || !h_b || !h_c || !h_want)
        return fail("out of host memory");
    unsigned long long x = 20261121ull;
    for (size_t i = 0; i < n; ++i) { /* a small LCG: inputs in [-1, 1) */
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        h_a[i] = (float)((double)(x >> 40) / 8388608.0 - 1.0);
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        h_b[i] = (float)((double)(x >> 40) / 8388608.0 - 1.0);
    }
    float *a, *b, *c, *want;
    if (cudaMalloc((void **)&a, n * 4) != cudaSuccess || cudaMalloc((void **)&b, n * 4) ||
        cudaMalloc((void **)&c, n * 4) || cudaMalloc((void **)&want, n * 4))
        return fail("cannot allocate on the GPU");
    cudaMemcpy(a, h_a, n * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(b, h_b, n * 4, cudaMemcpyHostToDevice);

    struct cudaFuncAttributes attr;
    if (lab7_kernel_attributes(LAB7_STAGE_WARP_TILE, &attr) != LAB_OK)
        return fail(lab_last_error());

    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    double *ms_tile = malloc((size_t)runs * sizeof *ms_tile);
    double *ms_cublas = malloc((size_t)runs * sizeof *ms_cublas);
    for (int r = -3; r < runs; ++r) {
        for (int which = 0; which < 2; ++which) {
            cudaEventRecord(start, 0);
            lab_status st = which == 0 ? lab7_sgemm(LAB7_STAGE_WARP_TILE, size, size, size, 1.0f,
                                                    a, b, 0.0f, c)
                                       : lab7_cublas_sgemm(size, size, size, 1.0f, a, b, 0.0f,
                                                           want);
            cudaEventRecord(stop, 0);
            if (st != LAB_OK)
                return fail(lab_last_error());
            cudaError_t err = cudaEventSynchronize(stop);
            if (err == cudaSuccess)
                err = cudaGetLastError();
            if (err != cudaSuccess)
                return fail(cudaGetErrorString(err));
            float ms = 0;
            cudaEventElapsedTime(&ms, start, stop);
            if (r >= 0)
                (which == 0 ? ms_tile : ms_cublas)[r] = ms;
        }
    }
    cudaMemcpy(h_c, c, n * 4, cudaMemcpyDeviceToHost);
    cudaMemcpy(h_want, want, n * 4, cudaMemcpyDeviceToHost);
    size_t wrong = 0;
    const double atol = 2.0 * 8.0 * size / 16777216.0; /* 2 x compare_dot_atol(K) */
    for (size_t i = 0; i < n; ++i)
        wrong += !(fabs((double)h_c[i] - h_want[i]) <= atol + 2e-5 * fabs((double)h_want[i]));
    const double tile = median(ms_tile, runs), blas = median(ms_cublas, runs);
    const double gflops = 2.0 * size * (double)size * size / (tile * 1e6);
    print_params();
    printf(" regs=%d local=%zu smem=%zu ms=%.4f gflops=%.0f cublas_gflops=%.0f pct=%.1f %s\n",
           attr.numRegs, attr.localSizeBytes, attr.sharedSizeBytes, tile, gflops,
           2.0 * size * (double)size * size / (blas * 1e6), 100.0 * blas / tile,
           wrong ? "WRONG" : "ok");
    return wrong ? 1 : 0;
}
