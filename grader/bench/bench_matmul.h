/* Benches of C = A * B (labs 2, 3 and 7): square sizes, one baseline, a few
 * kernels, all rows of the lab's kernel table (grader/labN/labN_kernels.c,
 * matmul_kernels.h: A and B in, C out), and cuBLAS FP32 (pedantic: no
 * TF32) as the ceiling. */
#ifndef BENCH_MATMUL_H
#define BENCH_MATMUL_H

#include "bench_core.h"
#include "kernel_table.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A row of the table, with the result file's key and label. */
typedef struct {
    const char *name, *label;
    int row;
} bench_matmul_kernel;

/* Times every kernel against `baseline` at each size (square M = N = K),
 * with cuBLAS as the ceiling; prints the plan line first. Returns 0 or the
 * first failure's status (the other points still run). `optional_kernels`:
 * bench_problem's. */
int bench_matmul(int lab, const kernel_table *table, const bench_matmul_kernel *baseline,
                 const bench_matmul_kernel *kernels, int kernel_count,
                 unsigned optional_kernels, const int *sizes, int size_count,
                 const bench_options *o);

#ifdef __cplusplus
}
#endif

#endif
