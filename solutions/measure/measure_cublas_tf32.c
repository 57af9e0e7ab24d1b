/* cuBLAS SGEMM in FP32 and on the TF32 tensor cores, on the GPU lab 7 is
 * measured on: the figure the handouts' Tensor Core section quotes beside
 * lab 7's FP32 kernels.
 *
 *   measure_cublas_tf32 [size]          M = N = K = size, default 4096
 *
 * Four ways of asking for C = A B (row-major, through the column-major
 * view C^T = B^T A^T, as grader/lab7/lab7_cublas.c does):
 *  - cublasSgemm, CUBLAS_PEDANTIC_MATH: lab 7's yardstick itself
 *    (lab7_cublas_sgemm): FP32 whatever NVIDIA_TF32_OVERRIDE says;
 *  - cublasSgemm, CUBLAS_DEFAULT_MATH: FP32 too, unless the environment
 *    sets NVIDIA_TF32_OVERRIDE=1;
 *  - cublasSgemm, CUBLAS_TF32_TENSOR_OP_MATH: inputs rounded to TF32
 *    (10-bit mantissa), products on the tensor cores, FP32 accumulation;
 *  - cublasGemmEx, CUBLAS_COMPUTE_32F_FAST_TF32: the same asked per call.
 * The largest difference from the pedantic result shows which arithmetic
 * ran: about 1e-6 of max|C| for FP32, about 1e-3 for TF32. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include "device_info.h"
#include "lab7_cublas.h"
#include "measure_common.h"

#define PROGRAM "measure_cublas_tf32"

typedef enum { PEDANTIC, DEFAULT_MATH, TF32_MODE, GEMMEX_FAST_TF32 } way;

typedef struct {
    way how;
    cublasHandle_t handle; /* NULL for PEDANTIC: lab7_cublas.c owns that one */
    const float *a, *b;
    float *c;
    int size;
} gemm_call;

static int launch(void *ctx)
{
    const gemm_call *g = ctx;
    const float one = 1.0f, zero = 0.0f;
    const int s = g->size;
    cublasStatus_t status;
    if (g->how == PEDANTIC)
        return lab7_cublas_sgemm(s, s, s, 1.0f, g->a, g->b, 0.0f, g->c);
    if (g->how == GEMMEX_FAST_TF32)
        status = cublasGemmEx(g->handle, CUBLAS_OP_N, CUBLAS_OP_N, s, s, s, &one, g->b, CUDA_R_32F,
                              s, g->a, CUDA_R_32F, s, &zero, g->c, CUDA_R_32F, s,
                              CUBLAS_COMPUTE_32F_FAST_TF32, CUBLAS_GEMM_DEFAULT);
    else
        status = cublasSgemm(g->handle, CUBLAS_OP_N, CUBLAS_OP_N, s, s, s, &one, g->b, s, g->a, s,
                             &zero, g->c, s);
    if (status != CUBLAS_STATUS_SUCCESS)
        return lab_fail(LAB_ERR_CUDA, "cuBLAS failed: %s", cublasGetStatusString(status));
    return LAB_OK;
}

/* A handle with the math mode this way asks for; NULL after a message. */
static cublasHandle_t make_handle(way how)
{
    cublasHandle_t h = NULL;
    cublasMath_t mode = how == TF32_MODE ? CUBLAS_TF32_TENSOR_OP_MATH : CUBLAS_DEFAULT_MATH;
    if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS ||
        cublasSetMathMode(h, mode) != CUBLAS_STATUS_SUCCESS) {
        printf("%s: cannot create a cuBLAS handle\n", PROGRAM);
        return NULL;
    }
    return h;
}

/* max |got - want| over max |want|, read back from the GPU. */
static double relative_difference(const float *got, const float *want, size_t n)
{
    float *g = malloc(n * sizeof *g), *w = malloc(n * sizeof *w);
    double worst = NAN, largest = 0.0;
    if (g && w && cudaMemcpy(g, got, n * sizeof *g, cudaMemcpyDeviceToHost) == cudaSuccess &&
        cudaMemcpy(w, want, n * sizeof *w, cudaMemcpyDeviceToHost) == cudaSuccess) {
        worst = 0.0;
        for (size_t i = 0; i < n; ++i) {
            double d = fabs((double)g[i] - (double)w[i]);
            worst = d > worst || isnan(d) ? d : worst;
            largest = fabs((double)w[i]) > largest ? fabs((double)w[i]) : largest;
        }
    }
    free(g);
    free(w);
    return largest > 0 ? worst / largest : worst;
}

int main(int argc, char **argv)
{
    int size = argc > 1 ? atoi(argv[1]) : 4096;
    if (argc > 2 || size < 1 || size > 16384) {
        fprintf(stderr, "usage: %s [size]   (M = N = K, 1 .. 16384; default 4096)\n", argv[0]);
        return 2;
    }
    if (!measure_start("cuBLAS SGEMM: FP32 against TF32 tensor cores", argc, argv))
        return MEASURE_NO_DEVICE;
    const timing_plan plan = {.warmup = 5, .runs = 30, .launches_per_run = 1, .flush_l2 = 1};
    int major = 0, minor = 0, patch = 0;
    cublasGetProperty(MAJOR_VERSION, &major);
    cublasGetProperty(MINOR_VERSION, &minor);
    cublasGetProperty(PATCH_LEVEL, &patch);
    const char *tf32_override = getenv("NVIDIA_TF32_OVERRIDE");
    printf("cublas:  %d.%d.%d; NVIDIA_TF32_OVERRIDE=%s\n", major, minor, patch,
           tf32_override ? tf32_override : "(unset)");
    printf("size:    M = N = K = %d, row-major C = A B, A and B uniform in [-1, 1), "
           "2*M*N*K = %.1f GFLOP per call\n", size, 2.0 * size * size * size / 1e9);
    measure_print_plan(&plan);
    double peak = device_fp32_peak_flops();
    printf("fp32:    %.1f TFLOP/s upper bound (SMs x 128 lanes x 2 x boost clock)\n\n",
           peak / 1e12);

    size_t n = (size_t)size * (size_t)size;
    const float *a = measure_device_floats(PROGRAM, n, 20261121);
    const float *b = measure_device_floats(PROGRAM, n, 20261122);
    float *c = measure_device_floats(PROGRAM, n, 3), *c_fp32 = measure_device_floats(PROGRAM, n, 4);
    if (!a || !b || !c || !c_fp32)
        return 1;

    static const struct {
        way how;
        const char *label;
    } WAYS[] = {
        {PEDANTIC, "cublasSgemm, CUBLAS_PEDANTIC_MATH (lab 7's yardstick)"},
        {DEFAULT_MATH, "cublasSgemm, CUBLAS_DEFAULT_MATH"},
        {TF32_MODE, "cublasSgemm, CUBLAS_TF32_TENSOR_OP_MATH"},
        {GEMMEX_FAST_TF32, "cublasGemmEx, CUBLAS_COMPUTE_32F_FAST_TF32"},
    };
    printf("%-54s %10s %26s %8s %14s\n", "call", "median ms", "TFLOP/s (min .. max)", "% fp32",
           "max|diff|/max|C|");
    int failed = 0;
    for (size_t i = 0; i < sizeof WAYS / sizeof WAYS[0]; ++i) {
        gemm_call g = {WAYS[i].how, NULL, a, b, i == 0 ? c_fp32 : c, size};
        if (g.how != PEDANTIC && !(g.handle = make_handle(g.how))) {
            failed = 1;
            continue;
        }
        if (i > 0)
            measure_poison(c, n);
        stats_summary ms;
        int status = timing_measure(launch, &g, &plan, NULL, &ms);
        if (status == 0 && cudaDeviceSynchronize() != cudaSuccess)
            status = lab_fail(LAB_ERR_CUDA, "the GEMM failed on the GPU");
        if (status != 0) {
            printf("%-54s not timed: %s (%s)\n", WAYS[i].label,
                   lab_status_name((lab_status)status), lab_last_error());
            failed = 1;
        } else {
            stats_summary tflops = measure_rate(&ms, 2.0 * size * (double)size * size, 1e12);
            char rate[64];
            snprintf(rate, sizeof rate, "%.1f (%.1f .. %.1f)", tflops.median, tflops.min,
                     tflops.max);
            double diff = i == 0 ? 0.0 : relative_difference(c, c_fp32, n);
            printf("%-54s %10.4f %26s %8.1f %14.2e\n", WAYS[i].label, ms.median, rate,
                   peak > 0 ? 100.0 * tflops.median * 1e12 / peak : 0.0, diff);
            fflush(stdout);
        }
        if (g.handle)
            cublasDestroy(g.handle);
    }
    printf("\n%% fp32: of the FP32 upper bound above (the TF32 rows may exceed 100: tensor "
           "cores are not FP32 lanes).\nmax|diff|/max|C|: against the pedantic FP32 result; "
           "~1e-6 means FP32 arithmetic, ~1e-3 TF32.\n");
    return failed;
}
