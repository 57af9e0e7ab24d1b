/* Lab 6 - overlapping copies and kernels with CUDA streams: the contract
 * between your code and the grader.
 *
 * Do not change this file: the grader is compiled against it.
 *
 * A pipeline over a large array of floats: copy it to the GPU (H2D), run a
 * kernel on it, copy the result back (D2H). Done in one piece, the three
 * stages run one after another. Cut into chunks, each chunk's three stages
 * issued into a stream of its own, the copy of one chunk overlaps the
 * kernel of another and the copy back of a third.
 *
 * The pipeline object owns everything the overlap needs: page-locked
 * (pinned) host buffers for input and output, device buffers, the streams
 * and two events for timing. The grader writes the input into the pinned
 * input buffer, runs the pipeline, and reads the pinned output buffer.
 *
 * Entry points validate their arguments (returning a lab_status, with
 * lab_last_error() saying why) and lab6_pipeline_run returns as soon as
 * everything is issued, without synchronising. Your parts are the TODOs in
 * streams_overlap.cu; the grader also runs the chunking and issue-order
 * helpers on the CPU. */
#ifndef LAB6_H
#define LAB6_H

#include <math.h>

#include "lab_dim3.h"
#include "lab_status.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
    LAB6_BLOCK = 256,          /* threads per block of the kernel */
    LAB6_MAX_STREAMS = 32,     /* streams per pipeline: 1 .. LAB6_MAX_STREAMS */
    LAB6_MAX_CHUNKS = 4096,    /* chunks per run: 1 .. LAB6_MAX_CHUNKS */
    LAB6_MAX_WORK = 1 << 20,   /* work per element: 0 .. LAB6_MAX_WORK */
    LAB6_STAGES = 3            /* H2D, kernel, D2H */
};

/* The three stages of a chunk, in the order each chunk needs them. */
typedef enum { LAB6_STAGE_H2D = 0, LAB6_STAGE_KERNEL = 1, LAB6_STAGE_D2H = 2 } lab6_stage;

/* The two loop orders for issuing the chunks' stages:
 *  - depth-first: chunk 0's H2D, kernel, D2H, then chunk 1's three, ...
 *  - breadth-first: every chunk's H2D, then every chunk's kernel, then
 *    every chunk's D2H. */
typedef enum { LAB6_DEPTH_FIRST = 0, LAB6_BREADTH_FIRST = 1 } lab6_order;

/* A chunk of the array: elements [offset, offset + count). count may be 0. */
typedef struct {
    int offset, count;
} lab6_range;

/* One step of the issue loop: this stage of this chunk. */
typedef struct {
    int chunk;
    lab6_stage stage;
} lab6_task;

/* The work per element (given, not a TODO): `work` rounds of a fused
 * multiply-add, so the kernel's cost per byte is a parameter. work = 0 is a
 * plain copy; a few rounds leave the kernel far shorter than the copies
 * (copy-bound); thousands make it as long as a copy (balanced) or longer
 * (compute-bound). fmaf rounds once, on the CPU and on the GPU alike, so
 * the grader's CPU reference matches bit for bit. */
static inline LAB_HOST_DEVICE float lab6_element(float x, int work)
{
    /* x -> x * (1 - 2^-10) + 2^-10: stays in [-1, 1] for inputs there. */
    for (int r = 0; r < work; ++r)
        x = fmaf(x, 0.9990234375f, 0.0009765625f);
    return x;
}

/* ---- helpers (TODOs; the grader also runs them on the CPU) ---- */

/* TODO(6.1) chunk `index` (0 <= index < chunks) of an array of n elements:
 * the chunks are consecutive, cover [0, n) exactly once, in order, and
 * their counts differ by at most one. When n < chunks some chunks are
 * empty. */
LAB_HOST_DEVICE lab6_range lab6_chunk_range(int n, int chunks, int index);

/* TODO(6.5) the stream (0 .. streams-1) that chunk `chunk` is issued into:
 * round robin. */
LAB_HOST_DEVICE int lab6_stream_of_chunk(int chunk, int streams);

/* TODO(6.5) step `step` (0 <= step < LAB6_STAGES * chunks) of the issue
 * loop in the given order: which chunk, which stage. */
LAB_HOST_DEVICE lab6_task lab6_issue_step(lab6_order order, int chunks, int step);

/* The kernel's grid for a chunk of `count` elements (given). */
LAB_HOST_DEVICE lab_dim3 lab6_grid_for(int count);

/* ---- the pipeline (entry points) ---- */

typedef struct lab6_pipeline lab6_pipeline; /* defined in streams_overlap.cu */

/* Allocates a pipeline for arrays of up to `capacity` floats with `streams`
 * non-default streams (1 .. LAB6_MAX_STREAMS): pinned host input and
 * output, device input and output, the streams, two events. *out is NULL
 * on failure (and everything allocated so far is released). */
lab_status lab6_pipeline_create(lab6_pipeline **out, int capacity, int streams);

/* The pinned host buffers (capacity floats each). The grader writes the
 * input into the first and reads the result from the second. */
float *lab6_pipeline_host_input(lab6_pipeline *p);
float *lab6_pipeline_host_output(lab6_pipeline *p);

/* Issues the pipeline over the first n elements: host output[i] =
 * lab6_element(host input[i], work) for i < n, in `chunks` chunks
 * (lab6_chunk_range), chunk c in stream lab6_stream_of_chunk(c, streams),
 * the stages in `order`, between the two events. Returns once everything
 * is issued, without synchronising: the output is ready when the device is
 * (cudaDeviceSynchronize, or lab6_pipeline_elapsed_ms). */
lab_status lab6_pipeline_run(lab6_pipeline *p, int n, int chunks, int work, lab6_order order);

/* Milliseconds between the two events of the last run (waits for the
 * second). LAB_ERR_UNSUPPORTED before the first run. */
lab_status lab6_pipeline_elapsed_ms(lab6_pipeline *p, float *ms);

/* Waits for the pipeline's work and releases everything it holds; NULL is
 * a no-op. */
lab_status lab6_pipeline_destroy(lab6_pipeline *p);

#ifdef __cplusplus
}
#endif

#endif
