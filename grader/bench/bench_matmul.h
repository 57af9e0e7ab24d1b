/* Benches of C = A * B (labs 2, 3 and 7): square sizes, one baseline, a few
 * kernels of the grader/matmul signature, cuBLAS FP32 (pedantic: no TF32)
 * as the ceiling. */
#ifndef BENCH_MATMUL_H
#define BENCH_MATMUL_H

#include "bench_core.h"
#include "matmul_checks.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    const char *name, *label;
    matmul_fn fn;
} bench_matmul_kernel;

/* Times every kernel against `baseline` at each size (square M = N = K),
 * with cuBLAS as the ceiling; prints the plan line first. Returns 0 or the
 * first failure's status (the other points still run). */
int bench_matmul(int lab, const bench_matmul_kernel *baseline, const bench_matmul_kernel *kernels,
                 int kernel_count, const int *sizes, int size_count, const bench_options *o);

#ifdef __cplusplus
}
#endif

#endif
