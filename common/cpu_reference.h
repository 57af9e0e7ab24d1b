/* CPU references, accumulated in double so that the reference's own
 * rounding is negligible next to the float32 kernel under test. */
#ifndef CPU_REFERENCE_H
#define CPU_REFERENCE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* C = A * B with A MxK, B KxN, C MxN, all row-major. */
void cpu_matmul_ref(const float *a, const float *b, double *c, int m, int n, int k);

/* Sum in double of n floats. */
double cpu_sum_ref(const float *x, size_t n);

#ifdef __cplusplus
}
#endif

#endif
