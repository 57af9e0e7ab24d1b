/* FP16 for lab 8's grader (lab8_half.cu, compiled by nvcc: C has no
 * __half). The grader draws its inputs as floats, rounds them to FP16 (to
 * nearest, ties to even), and computes its references from the rounded
 * values, so a reference and the student's kernel multiply the same
 * numbers. Lab 7's FP32 kernel, timed beside lab 8's, gets the rounded
 * floats. */
#ifndef LAB8_HALF_H
#define LAB8_HALF_H

#include <stddef.h>

#include "lab8.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out[i] = in[i] rounded to FP16 (host arrays). */
void lab8_host_to_half(const float *in, lab8_half *out, size_t n);
/* values[i] rounded to FP16 and back (host array): what a kernel sees. */
void lab8_host_round_to_half(float *values, size_t n);
/* Device arrays: halves[i] = values[i] rounded to FP16, and values[i]
 * replaced by that FP16 value as a float. Asynchronous; returns 0, or 1
 * when the launch failed. */
int lab8_device_round_to_half(float *values, lab8_half *halves, size_t n);

#ifdef __cplusplus
}
#endif

#endif
