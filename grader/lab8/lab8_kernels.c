/* Lab 8's kernel table: the student's two stages and cuBLAS (FP16 inputs,
 * FP32 compute) against lab 7's warp tile in FP32 (lab 7's reference,
 * lab7_reference), the yardstick of the speed checks; every timed C is
 * checked against lab 7's. A and B are FP16 (args.in[0] and in[1] point at
 * halves); lab 7's kernel gets the same values as floats (args.lab). The
 * race rows are the two stages on 256 x 256 x 64 (two block tiles each
 * way, two K steps of stage 2), whose small integer inputs are exact in
 * FP16 and every sum exact in FP32. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "compare.h"
#include "cpu_reference.h"
#include "lab7.h"
#include "lab8.h"
#include "lab8_cublas.h"
#include "lab8_half.h"
#include "lab8_kernels.h"
#include "lab8_rubric.h"
#include "lab8_tolerance.h"
#include "time_kernels.h"

/* What lab 7's row multiplies: A and B as floats (the FP16 values). */
typedef struct {
    const float *a, *b;
} fp32_inputs;

#define M(a) ((int)(a)->size[0])
#define N(a) ((int)(a)->size[1])
#define K(a) ((int)(a)->size[2])
#define HALVES(p) ((const lab8_half *)(const void *)(p))

static int lab7_warp_tile(const kernel_args *a)
{
    const fp32_inputs *in = a->lab;
    return lab7_sgemm(LAB7_STAGE_WARP_TILE, M(a), N(a), K(a), 1.0f, in->a, in->b, 0.0f, a->out);
}

static int wmma_global(const kernel_args *a)
{
    return lab8_wmma_global(M(a), N(a), K(a), 1.0f, HALVES(a->in[0]), HALVES(a->in[1]), 0.0f,
                            a->out);
}

static int wmma_shared(const kernel_args *a)
{
    return lab8_wmma_shared(M(a), N(a), K(a), 1.0f, HALVES(a->in[0]), HALVES(a->in[1]), 0.0f,
                            a->out);
}

static int cublas(const kernel_args *a)
{
    return lab8_cublas_gemm(M(a), N(a), K(a), 1.0f, HALVES(a->in[0]), HALVES(a->in[1]), 0.0f,
                            a->out);
}

static double flops(const kernel_size size)
{
    return 2.0 * (double)size[0] * (double)size[1] * (double)size[2];
}

/* A timed C against lab 7's: both are within lab8_atol of the exact
 * product (lab 7's within the smaller compare_dot_atol), so twice apart. */
static kernel_tolerance against_lab7(const kernel_size size)
{
    int k = (int)size[2];
    return (kernel_tolerance){lab8_atol(k, 1.0, 0.0) + compare_dot_atol((size_t)k),
                              2.0 * MATMUL_RTOL};
}

#define AGAINST_LAB7 .yardstick = LAB8_ROW_LAB7_WARP_TILE, .flops = flops, \
    .want = KERNEL_WANT_YARDSTICK, .tolerance = against_lab7
#define STAGE (KERNEL_TIME | KERNEL_PROFILE | KERNEL_RACE)
/* The cube the speed checks time the stages on (lab8_rubric.h). */
#define GRADED .graded_size = {LAB8_SPEED_SIZE, LAB8_SPEED_SIZE, LAB8_SPEED_SIZE}

/* make bench: the two stages against lab 7's warp tile in FP32, with
 * cuBLAS GemmEx as the ceiling, on squares of 256 .. 4096. The problem is
 * "matmul_fp16" and the ceiling "cublas_fp16", so that neither is mistaken
 * for lab 7's FP32 product and its cuBLAS FP32 ceiling. */
#define MATMUL_FP16 KERNEL_BENCH_IN(0)
#define BENCH(role, key, label) .bench = {MATMUL_FP16, KERNEL_BENCH_##role, key, label}

static const kernel_row ROWS[LAB8_ROW_COUNT] = {
    [LAB8_ROW_LAB7_WARP_TILE] = {.name = "lab 7's warp tile (FP32)", .launch = lab7_warp_tile,
                                 .modes = KERNEL_PROFILE, .yardstick = LAB8_ROW_LAB7_WARP_TILE,
                                 .flops = flops,
                                 BENCH(BASELINE, "lab7_warp_tile", "warp tile, FP32 (lab 7)")},
    [LAB8_ROW_WMMA_GLOBAL] = {.name = "lab8_wmma_global", .launch = wmma_global, .modes = STAGE,
                              AGAINST_LAB7, GRADED, .stage = 1,
                              BENCH(KERNEL, "wmma_global", "WMMA from global memory (stage 1)")},
    [LAB8_ROW_WMMA_SHARED] = {.name = "lab8_wmma_shared", .launch = wmma_shared, .modes = STAGE,
                              AGAINST_LAB7, GRADED, .stage = 1,
                              BENCH(KERNEL, "wmma_shared",
                                    "WMMA through shared memory (stage 2)")},
    [LAB8_ROW_CUBLAS] = {.name = "cuBLAS GemmEx (FP16 in, FP32 compute; the ceiling)",
                         .launch = cublas, .modes = KERNEL_TIME | KERNEL_PROFILE, AGAINST_LAB7,
                         .bench = {MATMUL_FP16, KERNEL_BENCH_CEILING, "cublas_fp16",
                                   "cuBLAS GemmEx, FP16 in, FP32 compute",
                                   .ceiling = "cublas_fp16"}},
};

/* Both stages' multiples: M and N of 128, K of 32 (stage 2's; stage 1's
 * 16 divides them). */
static const char *size_problem(kernel_mode mode, const kernel_size size)
{
    static char why[160];
    if (mode == KERNEL_RACE)
        return NULL;
    long n = mode == KERNEL_PROFILE ? size[0] : size[1];
    long k = mode == KERNEL_PROFILE ? size[0] : size[2];
    if (size[0] % LAB8_S_BM || n % LAB8_S_BN || k % LAB8_S_BK) {
        snprintf(why, sizeof why, "M and N must be multiples of %d and K of %d (stage 2's "
                 "tiles), e.g. SIZE=4096x4096x4096", LAB8_S_BM, LAB8_S_BK);
        return why;
    }
    return NULL;
}

/* n halves on the GPU from host halves (NULL: zeros), in a float array of
 * the same bytes (cudaMalloc'd: 256-byte aligned). */
static lab8_half *device_halves(const char *program, const lab8_half *host, size_t n)
{
    size_t floats = (n + 1) / 2;
    float *staging = NULL;
    if (host) {
        staging = calloc(floats, sizeof *staging);
        if (!staging) {
            fprintf(stderr, "%s: out of host memory\n", program);
            return NULL;
        }
        memcpy(staging, host, n * sizeof *host);
    }
    float *device = kernel_device_array(program, staging, floats);
    free(staging);
    return (lab8_half *)(void *)device;
}

static int setup_time(int m, int n, int k, kernel_problem *p, fp32_inputs *in)
{
    size_t na = (size_t)m * k, nb = (size_t)k * n, nc = (size_t)m * n;
    float *a = time_device_floats("lab8", na, 1), *b = time_device_floats("lab8", nb, 2);
    lab8_half *a16 = device_halves("lab8", NULL, na), *b16 = device_halves("lab8", NULL, nb);
    if (!a || !b || !a16 || !b16)
        return 0;
    /* lab 7's floats become the FP16 values too: both sides multiply the same numbers. */
    if (lab8_device_round_to_half(a, a16, na) || lab8_device_round_to_half(b, b16, nb) ||
        cudaDeviceSynchronize() != cudaSuccess) {
        fprintf(stderr, "lab8: rounding the inputs to FP16 failed\n");
        return 0;
    }
    in->a = a;
    in->b = b;
    p->args.in[0] = (const float *)(const void *)a16;
    p->args.in[1] = (const float *)(const void *)b16;
    p->args.out = time_device_floats("lab8", nc, 3);
    p->yardstick_out = time_device_floats("lab8", nc, 4);
    p->checked = nc;
    return p->args.out && p->yardstick_out;
}

static int setup_race(int m, int n, int k, kernel_problem *p)
{
    size_t na = (size_t)m * k, nb = (size_t)k * n, nc = (size_t)m * n;
    float *a = kernel_host_integers(na, 7, -2, 2), *b = kernel_host_integers(nb, 8, -2, 2);
    lab8_half *a16 = malloc(na * sizeof *a16), *b16 = malloc(nb * sizeof *b16);
    double *exact = malloc(nc * sizeof *exact);
    float *want = malloc(nc * sizeof *want);
    if (!a || !b || !a16 || !b16 || !exact || !want) {
        fprintf(stderr, "race runner: out of host memory\n");
        return 0;
    }
    /* Small integers: exact in FP16, and every product and sum exact in FP32. */
    cpu_matmul_ref(a, b, exact, m, n, k);
    for (size_t i = 0; i < nc; ++i)
        want[i] = (float)exact[i];
    lab8_host_to_half(a, a16, na);
    lab8_host_to_half(b, b16, nb);
    p->args.in[0] = (const float *)(const void *)device_halves("race runner", a16, na);
    p->args.in[1] = (const float *)(const void *)device_halves("race runner", b16, nb);
    p->args.out = kernel_device_array("race runner", NULL, nc);
    p->reference[0] = want;
    p->checked = nc;
    free(exact);
    free(a);
    free(b);
    free(a16);
    free(b16);
    return p->args.in[0] && p->args.in[1] && p->args.out;
}

static int setup(kernel_mode mode, const kernel_size size, kernel_problem *p)
{
    int m = (int)size[0], n = (int)size[1], k = (int)size[2];
    if (mode == KERNEL_PROFILE)
        n = k = m;
    p->args.size[0] = m;
    p->args.size[1] = n;
    p->args.size[2] = k;
    fp32_inputs *in = calloc(1, sizeof *in);
    if (!in) {
        fprintf(stderr, "lab8: out of host memory\n");
        return 0;
    }
    p->args.lab = in;
    p->owned = in;
    if (mode == KERNEL_TIME || mode == KERNEL_BENCH) /* the bench times as make time-lab8 */
        return setup_time(m, n, k, p, in);
    if (mode == KERNEL_RACE)
        return setup_race(m, n, k, p);
    /* Profile: zeroed square matrices (no NaN or denormal to slow a kernel). */
    size_t elements = (size_t)m * (size_t)m;
    in->a = kernel_device_array("lab8_profile", NULL, elements);
    in->b = kernel_device_array("lab8_profile", NULL, elements);
    p->args.in[0] = (const float *)(const void *)device_halves("lab8_profile", NULL, elements);
    p->args.in[1] = (const float *)(const void *)device_halves("lab8_profile", NULL, elements);
    p->args.out = kernel_device_array("lab8_profile", NULL, elements);
    return in->a && in->b && p->args.in[0] && p->args.in[1] && p->args.out;
}

static void teardown(kernel_problem *p)
{
    free(p->owned);
    p->owned = NULL;
}

const kernel_table lab_kernel_table = {
    .lab = "lab8",
    .rows = ROWS,
    .count = LAB8_ROW_COUNT,
    .time = {3, 16384, "4096x4096x4096"},
    .profile = {1, 16384, "4096"}, /* square matrices of this size */
    .race = {3, 16384, "256x256x64"},
    .size_problem = size_problem,
    .setup = setup,
    .teardown = teardown,
    /* Each stage within lab8_atol of the exact product, lab 7's FP32 result
     * within compare_dot_atol: the time mode's tolerance. */
    .bench = {{"matmul_fp16", {{"256", {256, 256, 256}}, {"512", {512, 512, 512}},
                               {"1024", {1024, 1024, 1024}}, {"2048", {2048, 2048, 2048}},
                               {"4096", {4096, 4096, 4096}}},
               .compared = 1, .tolerance = against_lab7}},
    .bench_count = 1,
};
