/* Lab 5 - parallel reduction: the contract between your code and the grader.
 *
 * Do not change this file: the grader is compiled against it.
 *
 * Every entry point computes the sum of the n floats in[0..n) into *out, in
 * six stages of increasing speed:
 *   (1) divergent:    interleaved pairs, active threads t % (2*stride) == 0
 *   (2) strided:      interleaved pairs, active threads contiguous
 *                     (index 2*stride*t): no divergence, bank conflicts
 *   (3) sequential:   pairs blockDim/2, ..., 1 apart, active threads
 *                     t < stride: convergent and conflict-free
 *   (4) first add:    (3), each thread adding two elements while loading
 *   (5) warp shuffle: (4), the last 64 partial sums finished by one warp
 *                     with __shfl_down_sync
 *   (6) grid stride:  a fixed grid sized from the SM count, each thread
 *                     summing many elements with 16-byte loads
 * (1)-(3) are the lab; (4)-(6) the extension (bonus points).
 *
 * The whole sum, for any n >= 1: each block adds its partial sum into *out
 * with one atomicAdd. So the entry point itself sets *out to zero first
 * (stream-ordered, before the launch): every call OVERWRITES *out, it never
 * adds to what was there. in may start at any float address (4-byte
 * aligned, not necessarily 16-byte aligned) and is never written. (The
 * no-atomic experiment, lab5_set_partials below, ends the blocks another
 * way; it is off unless set, and nothing graded sets it.)
 *
 * Entry points take DEVICE pointers, validate (n >= 1, no NULL), launch on
 * the default stream and return without synchronising. The predicate and
 * index helpers are yours (TODOs in reduction.cu); the grader also runs them
 * on the CPU for every thread of a 256- and a 1024-thread block. */
#ifndef LAB5_H
#define LAB5_H

#include <stddef.h>

#include "lab_dim3.h"
#include "lab_status.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
    LAB5_BLOCK = 256,      /* threads per block of every stage (a power of two) */
    LAB5_WARP = 32,
    LAB5_MAX_BLOCK = 1024  /* the helpers must be right for every power-of-two block up to this */
};

/* ---- the helpers (TODOs) ----
 * A block first stores its elements in a shared array s[0..blockDim.x);
 * then, step by step, threads add one element of s into another, with a
 * barrier between steps, until s[0] holds the block's sum. thread_idx is
 * threadIdx (only .x is used). */

/* TODO(5.1) stage (1): in the step where pairs are `stride` apart (stride =
 * 1, 2, 4, ... while stride < blockDim.x), does thread t add s[t + stride]
 * into s[t]? Non-zero when it does. */
LAB_HOST_DEVICE int lab5_divergent_active(lab_dim3 thread_idx, int stride);

/* TODO(5.4) stage (2): in the same steps as (1), the index i such that
 * thread t adds s[i + stride] into s[i]; the thread does nothing in this
 * step when i + stride >= blockDim.x. */
LAB_HOST_DEVICE int lab5_strided_index(lab_dim3 thread_idx, int stride);

/* TODO(5.6) stage (3): in the step where pairs are `stride` apart (stride =
 * blockDim.x / 2, ..., 2, 1), does thread t add s[t + stride] into s[t]? */
LAB_HOST_DEVICE int lab5_sequential_active(lab_dim3 thread_idx, int stride);

/* ---- entry points (device pointers; *out is overwritten) ---- */

lab_status lab5_sum_divergent(const float *in, float *out, int n);    /* (1) */
lab_status lab5_sum_strided(const float *in, float *out, int n);      /* (2) */
lab_status lab5_sum_sequential(const float *in, float *out, int n);   /* (3) */
lab_status lab5_sum_first_add(const float *in, float *out, int n);    /* (4) extension */
lab_status lab5_sum_warp_shuffle(const float *in, float *out, int n); /* (5) extension */
lab_status lab5_sum_grid_stride(const float *in, float *out, int n);  /* (6) extension */

/* ---- the no-atomic experiment (handout section 9; written for you) ----
 * Every block's atomicAdd into the one *out queues at one address, a floor
 * under stages (1)-(5) that hides what their steps cost. After
 * lab5_set_partials(partials, count), with partials a device array of count
 * floats, every entry point instead stores block b's sum in partials[b],
 * for each block b of its launch, and leaves *out and the other slots as
 * they were; a launch of more than count blocks is refused
 * (LAB_ERR_INVALID_SIZE) before it runs. Summing the slots is the caller's
 * second pass. lab5_set_partials(NULL, 0) restores the atomic ending, the
 * graded one. Giving only one of the two is LAB_ERR_INVALID_SIZE. */
lab_status lab5_set_partials(float *partials, size_t count);

#ifdef __cplusplus
}
#endif

#endif
