/* Lab 6 grader's own GPU work: the reference transform, and the serial
 * pipeline the streamed one is timed against. Neither is an answer: the
 * kernel is given code in the skeleton, and the serial pipeline is the
 * "before" picture of the lab (one copy in, one kernel, one copy out, all in
 * the default stream). */
#ifndef LAB6_BASELINES_H
#define LAB6_BASELINES_H

#include "lab_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out[i] = lab6_element(in[i], work) for i < n (DEVICE pointers), in the
 * default stream; returns without synchronising. */
lab_status lab6_reference_transform(const float *in, float *out, int n, int work);

/* The serial pipeline: host_in (pinned) -> dev_in, the transform into
 * dev_out, dev_out -> host_out (pinned), each a single operation in the
 * default stream, one after another; returns without synchronising. */
lab_status lab6_serial_pipeline(const float *host_in, float *host_out, float *dev_in,
                                float *dev_out, int n, int work);

/* The three stages alone, for T_bound (default stream, no synchronising). */
lab_status lab6_copy_in(const float *host_in, float *dev_in, int n);
lab_status lab6_copy_out(const float *dev_out, float *host_out, int n);

#ifdef __cplusplus
}
#endif

#endif
