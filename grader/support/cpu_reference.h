/* CPU references, accumulated in double so that the reference's own
 * rounding is negligible next to the float32 kernel under test. */
#ifndef CPU_REFERENCE_H
#define CPU_REFERENCE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* C = A * B with A MxK, B KxN, C MxN, all row-major, on as many CPU cores
 * as the product's size is worth (the result does not depend on how many). */
void cpu_matmul_ref(const float *a, const float *b, double *c, int m, int n, int k);

/* The same on at most `threads` threads (1: one core, as a CPU timing
 * yardstick; at most CPU_REF_MAX_THREADS). */
#define CPU_REF_MAX_THREADS 64
void cpu_matmul_ref_threads(const float *a, const float *b, double *c, int m, int n, int k,
                            int threads);

/* Sum in double of n floats. */
double cpu_sum_ref(const float *x, size_t n);

#ifdef __cplusplus
}
#endif

#endif
