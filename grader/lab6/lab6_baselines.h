/* Lab 6 grader's own GPU work: the reference transform, and the serial
 * pipeline the streamed one is timed against. Neither is an answer: the
 * kernel is given code in the skeleton, and the serial pipeline is the
 * "before" picture of the lab (one copy in, one kernel, one copy out, all in
 * the default stream). */
#ifndef LAB6_BASELINES_H
#define LAB6_BASELINES_H

#include "lab6.h"
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
/* Both copies at once, each in a blocking stream of its own (made on first
 * use, kept for the process), so that an event in the default stream before
 * them is waited for and one after them waits for both: on a host whose
 * PCIe link cannot carry both directions at full speed together, this, not
 * the longest copy alone, bounds every pipeline. */
lab_status lab6_copies_together(const float *host_in, float *dev_in, const float *dev_out,
                                float *host_out, int n);

/* One call of either pipeline as the timing loops make it (timed_launch of
 * timing.h: the grader's speed checks, make time-lab6, make bench). */
typedef struct {
    lab6_pipeline *p; /* the streamed pipeline: run over n in `chunks`, `order` */
    int n, chunks, work;
    lab6_order order;
    const float *host_in; /* the serial pipeline: host_in -> dev_in -> dev_out -> host_out */
    float *host_out, *dev_in, *dev_out;
} lab6_timed_call;

/* Each waits for the whole run (lab6_wait_for) and returns its status. */
int lab6_timed_streamed(void *call);
int lab6_timed_serial(void *call);

/* Waits for the GPU, so that an event recorded next follows all the work
 * whatever streams it used; `status`, or LAB_ERR_CUDA (with a message)
 * when the work failed on the GPU. */
int lab6_wait_for(int status);

#ifdef __cplusplus
}
#endif

#endif
