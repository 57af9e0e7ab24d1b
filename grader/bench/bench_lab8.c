/* make bench, lab 8: the two WMMA stages against lab 7's warp tile in FP32
 * (the grader's yardstick, on the same values as floats), with cuBLAS
 * GemmEx (FP16 in, FP32 compute) as the ceiling, on squares of 256 ..
 * 4096. The kernels, their inputs (FP16, and the floats lab 7's kernel
 * reads) and their work are lab 8's kernel table (lab8_kernels.c); the
 * problem is "matmul_fp16" and the ceiling "cublas_fp16", so that neither
 * is mistaken for lab 7's FP32 product and its cuBLAS FP32 ceiling. */
#include <stdio.h>

#include "bench_core.h"
#include "compare.h"
#include "lab8_kernels.h"
#include "lab8_tolerance.h"

int main(int argc, char **argv)
{
    bench_options o = bench_start(argc, argv, "bench_lab8");
    static const int sizes[] = {256, 512, 1024, 2048, 4096};
    enum { SIZES = sizeof sizes / sizeof sizes[0], KERNELS = 2 };
    const kernel_table *t = &lab_kernel_table;
    bench_plan(SIZES * (2 + KERNELS));
    int first_error = 0;
    for (int s = 0; s < SIZES; ++s) {
        const int n = sizes[s];
        const kernel_size size = {n, n, n};
        kernel_problem p = {0};
        if (!t->setup(KERNEL_TIME, size, &p))
            return 1;
        kernel_call base = {&t->rows[LAB8_ROW_LAB7_WARP_TILE], p.args};
        kernel_call ceiling = {&t->rows[LAB8_ROW_CUBLAS], p.args};
        kernel_call calls[KERNELS] = {{&t->rows[LAB8_ROW_WMMA_GLOBAL], p.args},
                                      {&t->rows[LAB8_ROW_WMMA_SHARED], p.args}};
        const bench_entry kernels[KERNELS] = {
            {"wmma_global", "WMMA from global memory (stage 1)", kernel_call_launch, &calls[0]},
            {"wmma_shared", "WMMA through shared memory (stage 2)", kernel_call_launch,
             &calls[1]},
        };
        char text[32];
        snprintf(text, sizeof text, "%d", n);
        /* Each within lab8_atol of the exact product, lab 7's FP32 result
         * within compare_dot_atol (lab8_kernels.c's time tolerance). */
        bench_problem problem = {
            .lab = 8, .problem = "matmul_fp16", .size = text, .x = n,
            .work = kernel_row_flops(base.row, size), .unit = "GFLOP/s",
            .baseline = {"lab7_warp_tile", "warp tile, FP32 (lab 7)", kernel_call_launch, &base},
            .kernels = kernels, .kernel_count = KERNELS,
            .ceiling = {"cublas_fp16", "cuBLAS GemmEx, FP16 in, FP32 compute",
                        kernel_call_launch, &ceiling},
            .ceiling_name = "cublas_fp16",
            .out = p.args.out, .out_count = p.checked,
            .atol = lab8_atol(n, 1.0, 0.0) + compare_dot_atol((size_t)n),
            .rtol = 2.0 * MATMUL_RTOL};
        int status = bench_run(&problem, &o);
        first_error = first_error ? first_error : status;
        if (t->teardown)
            t->teardown(&p);
    }
    return first_error != 0;
}
