/* Lab 6 - overlapping copies and kernels with CUDA streams.
 *
 * Fill in the TODOs in order; each names the section of
 * handouts/lab6-streams-overlap.md that explains it. Check your work with
 *     make check-lab6
 * The grader runs your chunking and issue-order helpers on the CPU and, on
 * a GPU machine, checks the pipeline's results, records what the GPU did
 * (which stream each copy and kernel ran in, and when) to see whether copies
 * overlapped kernels, checks your events and your clean-up, and times the
 * pipeline against a serial one.
 *
 * Given: the kernel, the argument checks, the issue loop and the pipeline's
 * struct. The placeholder return values only keep the file compiling:
 * replace them. */
#include <stdio.h>
#include <stdlib.h>

#include "lab6.h"

#include "cuda_check.h"

/* ------------------------------------------------------------ helpers */

LAB_HOST_DEVICE lab6_range lab6_chunk_range(int n, int chunks, int index)
{
    /* TODO(6.1): the elements of chunk `index` of `chunks`: consecutive
     * chunks that cover [0, n) exactly once, with counts that differ by at
     * most one, also when n is not a multiple of chunks and when n is
     * smaller than chunks (then some chunks are empty). One way: chunk i
     * starts where i/chunks of the array has gone by. For n = 2^26, 64
     * chunks and i = 40, work out by hand the product n * i and the start
     * n * i / chunks: which of the two fits in an int? (handout section 4) */
    lab6_range r = {0, n};
    return r;
}

LAB_HOST_DEVICE int lab6_stream_of_chunk(int chunk, int streams)
{
    /* TODO(6.5): which of the `streams` streams chunk `chunk` goes into, so
     * that consecutive chunks land in different streams and every stream
     * gets its turn (round robin). (handout section 5) */
    return 0;
}

LAB_HOST_DEVICE lab6_task lab6_issue_step(lab6_order order, int chunks, int step)
{
    /* TODO(6.5, continued): step `step` of the issue loop, which runs over
     * LAB6_STAGES * chunks steps. Depth-first: every stage of chunk 0 (H2D,
     * kernel, D2H), then every stage of chunk 1, ... Breadth-first: the H2D
     * of every chunk, then every kernel, then every D2H. Return the chunk
     * and the stage of this step. (handout section 5) */
    lab6_task t = {0, LAB6_STAGE_H2D};
    return t;
}

/* ------------------------------------------------------------- kernel */

LAB_HOST_DEVICE lab_dim3 lab6_grid_for(int count)
{
    /* One thread per element, at most 8192 blocks (a grid-stride loop does
     * the rest): plenty to fill any GPU, and a chunk of a few MB still gets
     * whole waves. */
    int blocks = count / LAB6_BLOCK + (count % LAB6_BLOCK != 0);
    lab_dim3 grid = {blocks < 8192 ? blocks : 8192, 1, 1};
    return grid;
}

__global__ void lab6_transform_kernel(const float *in, float *out, int count, int work)
{
    int stride = blockDim.x * gridDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride)
        out[i] = lab6_element(in[i], work);
}

/* ----------------------------------------------------------- pipeline */

struct lab6_pipeline {
    int capacity, stream_count;
    float *host_in, *host_out;   /* pinned host buffers, capacity floats each */
    float *dev_in, *dev_out;     /* device buffers, capacity floats each */
    cudaStream_t streams[LAB6_MAX_STREAMS]; /* stream_count of them */
    cudaEvent_t start, stop;
    int ran;                     /* a run has recorded the events */
};

extern "C" float *lab6_pipeline_host_input(lab6_pipeline *p) { return p ? p->host_in : NULL; }
extern "C" float *lab6_pipeline_host_output(lab6_pipeline *p) { return p ? p->host_out : NULL; }

/* Releases whatever is there (fields that are still NULL/0 were never
 * allocated), then the struct itself. Called by lab6_pipeline_destroy and
 * when lab6_pipeline_create fails half way. */
static lab_status release(lab6_pipeline *p)
{
    /* TODO(6.7): give back everything allocate() took: each stream, both
     * events, both pinned host buffers and both device buffers, each with
     * the call that matches the one that allocated it (pinned memory is not
     * freed with free() nor with cudaFree()). Keep going after an error so
     * that one failure does not leak the rest; return the first error as
     * LAB_ERR_CUDA. (handout section 7) */
    free(p);
    return LAB_OK;
}

/* Everything the pipeline needs, allocated once, here, never per run. */
static lab_status allocate(lab6_pipeline *p)
{
    /* TODO(6.2): the two host buffers, host_in and host_out, in page-locked
     * (pinned) memory, and the two device buffers, dev_in and dev_out, of
     * p->capacity floats each (compute the bytes in size_t). Why can a copy from memory that malloc() returned never
     * overlap a kernel, even with cudaMemcpyAsync in a stream of its own?
     * Use LAB_CUDA_TRY on every call. (handout section 2) */

    /* TODO(6.3): p->stream_count streams into p->streams, and the two
     * events p->start and p->stop. Which streams: what does the legacy
     * default stream do to work issued into other streams, and what does
     * that mean for the events of TODO(6.6)? (handout sections 3 and 6) */
    return LAB_OK;
}

/* Given: validation, then allocate(); on failure everything is released. */
extern "C" lab_status lab6_pipeline_create(lab6_pipeline **out, int capacity, int streams)
{
    if (!out)
        return lab_fail(LAB_ERR_NULL_POINTER, "lab6_pipeline_create: out is NULL");
    *out = NULL;
    lab_status status = lab_check_extents("lab6_pipeline_create", capacity, 1, 1);
    if (status != LAB_OK)
        return status;
    if (streams < 1 || streams > LAB6_MAX_STREAMS)
        return lab_fail(LAB_ERR_INVALID_SIZE, "lab6_pipeline_create: streams=%d must be 1..%d",
                        streams, LAB6_MAX_STREAMS);
    lab6_pipeline *p = (lab6_pipeline *)calloc(1, sizeof *p);
    if (!p)
        return lab_fail(LAB_ERR_CUDA, "lab6_pipeline_create: out of host memory");
    p->capacity = capacity;
    p->stream_count = streams;
    status = allocate(p);
    if (status != LAB_OK) {
        char why[256];
        snprintf(why, sizeof why, "%s", lab_last_error());
        release(p);
        return lab_fail(status, "%s", why);
    }
    *out = p;
    return LAB_OK;
}

/* One stage of one chunk. */
static lab_status issue(lab6_pipeline *p, lab6_task t, int n, int chunks, int work)
{
    lab6_range r = lab6_chunk_range(n, chunks, t.chunk);
    /* TODO(6.4): issue stage t.stage of chunk t.chunk (elements r.offset ..
     * r.offset + r.count - 1) into the chunk's stream
     * (lab6_stream_of_chunk), without waiting for anything:
     *   - LAB6_STAGE_H2D: copy the chunk of host_in to the same place in
     *     dev_in (cudaMemcpyAsync);
     *   - LAB6_STAGE_KERNEL: lab6_transform_kernel on the chunk of dev_in
     *     into dev_out, grid lab6_grid_for(r.count), LAB6_BLOCK threads,
     *     then LAB_LAUNCH_CHECK();
     *   - LAB6_STAGE_D2H: copy the chunk of dev_out to host_out.
     * What must happen for a chunk with no elements (n smaller than the
     * number of chunks)? Why does each chunk's kernel wait for its own
     * copy in without any call that waits? (handout sections 3-5) */
    (void)r;
    return LAB_OK;
}

/* Given: validation and the issue loop (its order is your TODO(6.5)). */
extern "C" lab_status lab6_pipeline_run(lab6_pipeline *p, int n, int chunks, int work,
                                        lab6_order order)
{
    if (!p)
        return lab_fail(LAB_ERR_NULL_POINTER, "lab6_pipeline_run: the pipeline is NULL");
    if (n < 1 || n > p->capacity)
        return lab_fail(LAB_ERR_INVALID_SIZE, "lab6_pipeline_run: n=%d must be 1..%d (the "
                        "capacity)", n, p->capacity);
    if (chunks < 1 || chunks > LAB6_MAX_CHUNKS || work < 0 || work > LAB6_MAX_WORK)
        return lab_fail(LAB_ERR_INVALID_SIZE, "lab6_pipeline_run: chunks=%d must be 1..%d and "
                        "work=%d 0..%d", chunks, LAB6_MAX_CHUNKS, work, LAB6_MAX_WORK);
    if (order != LAB6_DEPTH_FIRST && order != LAB6_BREADTH_FIRST)
        return lab_fail(LAB_ERR_UNSUPPORTED, "lab6_pipeline_run: unknown order %d", (int)order);

    /* TODO(6.6): record p->start before the loop and p->stop after it, so
     * that the two bracket the work of every chunk in every stream. Which
     * stream do you record them in, and why does that work with the streams
     * you created in TODO(6.3)? Set p->ran. (handout section 6) */
    for (int step = 0; step < LAB6_STAGES * chunks; ++step) {
        lab_status status = issue(p, lab6_issue_step(order, chunks, step), n, chunks, work);
        if (status != LAB_OK)
            return status;
    }
    return LAB_OK;
}

extern "C" lab_status lab6_pipeline_elapsed_ms(lab6_pipeline *p, float *ms)
{
    if (!p || !ms)
        return lab_fail(LAB_ERR_NULL_POINTER, "lab6_pipeline_elapsed_ms: NULL argument");
    if (!p->ran)
        return lab_fail(LAB_ERR_UNSUPPORTED, "lab6_pipeline_elapsed_ms: nothing has run yet");
    /* TODO(6.6, continued): wait for p->stop, then the milliseconds between
     * the two events into *ms. (handout section 6) */
    *ms = 0.0f;
    return LAB_OK;
}

extern "C" lab_status lab6_pipeline_destroy(lab6_pipeline *p)
{
    if (!p)
        return LAB_OK;
    /* TODO(6.7, continued): the run may still be in flight. What happens if
     * the buffers are freed under a copy that is still queued? Wait for
     * every stream first. (handout section 7) */
    return release(p);
}
