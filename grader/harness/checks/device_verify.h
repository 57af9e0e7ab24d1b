/* Checking timed calls on the device: fresh inputs for every run and a
 * comparison of whole outputs, fast enough to do after every timed call
 * (a round trip through the host would take longer than the kernels). */
#ifndef DEVICE_VERIFY_H
#define DEVICE_VERIFY_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* n floats uniform in [lo, hi), a pure function of (seed, index). */
void device_fill_uniform(float *out, size_t n, uint64_t seed, float lo, float hi);

/* out[i] = factor * in[i]: the grader's own reference for elementwise work. */
void device_scale(const float *in, float *out, float factor, size_t n);

/* How many of got[0..n) differ from want by more than atol + rtol*|want|;
 * NaN and Inf in got always count. Synchronises. */
size_t device_count_mismatches(const float *got, const float *want, size_t n, double atol,
                               double rtol);

/* How many of got[0..n) differ (beyond rtol) from factor times the array
 * device_fill_uniform(seed, lo, hi) writes, computed on the fly: an output
 * of gigabytes checked without a second array of its size. *first_bad gets
 * the lowest such index (SIZE_MAX when none). Synchronises. */
size_t device_count_scaled_uniform_mismatches(const float *got, size_t n, uint64_t seed, float lo,
                                              float hi, float factor, double rtol,
                                              size_t *first_bad);

#ifdef __cplusplus
}
#endif

#endif
