/* make time-lab7 [SIZE=MxNxK]: your four stages against lab 3's tiled
 * kernel (its reference), as the gpu_*_speed_vs_lab3 tests time them, and
 * cuBLAS FP32 on a line of its own; every C is then checked against lab 3's.
 * M and N multiples of 128, K of 16. Default 4096x4096x4096. */
#include <stdio.h>

#include "lab3.h"
#include "lab7.h"
#include "lab7_cublas.h"
#include "time_kernels.h"

/* lab7_sgemm as a plain product (alpha 1, beta 0) for one stage. */
typedef struct {
    lab7_stage stage;
    const float *a, *b;
    float *c;
    int m, n, k;
} stage_call;

static int launch_stage(void *ctx)
{
    const stage_call *s = ctx;
    return lab7_sgemm(s->stage, s->m, s->n, s->k, 1.0f, s->a, s->b, 0.0f, s->c);
}

int main(int argc, char **argv)
{
    const char *size = argc > 1 ? argv[1] : "4096x4096x4096";
    long d[3];
    if (!time_parse_size("lab7", size, 3, 16384, d, "4096x4096x4096"))
        return 2;
    if (d[0] % LAB7_SIZE_MULTIPLE || d[1] % LAB7_SIZE_MULTIPLE || d[2] % LAB7_K_MULTIPLE) {
        fprintf(stderr, "make time-lab7: SIZE=%s: M and N must be multiples of %d and K of %d "
                "(the stages' tiles), e.g. SIZE=2048x2048x2048\n", size, LAB7_SIZE_MULTIPLE,
                LAB7_K_MULTIPLE);
        return 2;
    }
    if (!time_require_gpu("lab7"))
        return 0;
    int m = (int)d[0], n = (int)d[1], k = (int)d[2];
    const float *a = time_device_floats("lab7", (size_t)m * k, 1);
    const float *b = time_device_floats("lab7", (size_t)k * n, 2);
    float *c = time_device_floats("lab7", (size_t)m * n, 3);
    float *c_base = time_device_floats("lab7", (size_t)m * n, 4);
    if (!a || !b || !c || !c_base)
        return 1;
    double flops = 2.0 * m * n * k;
    time_matmul lab3 = {lab3_matmul_tiled, a, b, c_base, m, n, k};
    static const char *const names[LAB7_STAGE_COUNT] = {
        "lab7_sgemm(block_tile_1d)", "lab7_sgemm(block_tile_2d)", "lab7_sgemm(vectorised)",
        "lab7_sgemm(warp_tile)"};
    time_check check = time_matmul_check("lab7", c, c_base, m, n, k);
    int failed = 0;
    for (int s = 0; s < LAB7_STAGE_COUNT; ++s) {
        stage_call call = {(lab7_stage)s, a, b, c, m, n, k};
        time_pair pair = {names[s], launch_stage, &call, "lab 3's tiles", time_matmul_launch,
                          &lab3, 0, flops, &check};
        failed |= time_pair_run(&pair, size) != TIME_OK;
    }
    /* The ceiling: cuBLAS against the same lab 3 kernel, for scale. */
    time_matmul cublas = {lab7_cublas_matmul, a, b, c, m, n, k};
    time_pair ceiling = {"cuBLAS SGEMM (FP32, the ceiling)", time_matmul_launch, &cublas,
                         "lab 3's tiles", time_matmul_launch, &lab3, 0, flops, &check};
    failed |= time_pair_run(&ceiling, size) != TIME_OK;
    return failed;
}
