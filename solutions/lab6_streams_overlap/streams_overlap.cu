/* Lab 6 - overlapping copies and kernels with CUDA streams: reference
 * solution.
 *
 * Read top to bottom: the chunking and issue-order helpers, the kernel, the
 * pipeline (create, run, events, destroy). handouts/lab6-streams-overlap.md
 * explains each step. */
#include <stdio.h>
#include <stdlib.h>

#include "lab6.h"

#include "cuda_check.h"

/* ------------------------------------------------------------ helpers */

LAB_HOST_DEVICE lab6_range lab6_chunk_range(int n, int chunks, int index)
{
    /* Chunk i starts at floor(n * i / chunks): consecutive, covering [0, n),
     * counts differing by at most one. The product needs 64 bits: n = 2^26
     * times index 32 is already past INT_MAX. */
    int begin = (int)((long long)n * index / chunks);
    int end = (int)((long long)n * (index + 1) / chunks);
    lab6_range r = {begin, end - begin};
    return r;
}

LAB_HOST_DEVICE int lab6_stream_of_chunk(int chunk, int streams) { return chunk % streams; }

LAB_HOST_DEVICE lab6_task lab6_issue_step(lab6_order order, int chunks, int step)
{
    lab6_task t;
    if (order == LAB6_DEPTH_FIRST) {
        /* All three stages of a chunk, then the next chunk. */
        t.chunk = step / LAB6_STAGES;
        t.stage = (lab6_stage)(step % LAB6_STAGES);
    } else {
        /* One stage for every chunk, then the next stage. */
        t.chunk = step % chunks;
        t.stage = (lab6_stage)(step / chunks);
    }
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

/* Frees what is there; keeps going after an error and returns the first. */
static lab_status release(lab6_pipeline *p)
{
    cudaError_t first = cudaSuccess, err;
#define KEEP(call) ((err = (call)) != cudaSuccess && first == cudaSuccess ? (first = err) : err)
    for (int s = 0; s < p->stream_count; ++s)
        if (p->streams[s])
            KEEP(cudaStreamDestroy(p->streams[s]));
    if (p->start)
        KEEP(cudaEventDestroy(p->start));
    if (p->stop)
        KEEP(cudaEventDestroy(p->stop));
    if (p->host_in)
        KEEP(cudaFreeHost(p->host_in));
    if (p->host_out)
        KEEP(cudaFreeHost(p->host_out));
    if (p->dev_in)
        KEEP(cudaFree(p->dev_in));
    if (p->dev_out)
        KEEP(cudaFree(p->dev_out));
#undef KEEP
    free(p);
    if (first != cudaSuccess)
        return lab_fail(LAB_ERR_CUDA, "lab6_pipeline_destroy: %s", cudaGetErrorString(first));
    return LAB_OK;
}

/* Everything the pipeline needs, allocated once: pinned memory is slow to
 * allocate (the pages are locked one by one), so it is never allocated per
 * run. */
static lab_status allocate(lab6_pipeline *p)
{
    size_t bytes = (size_t)p->capacity * sizeof(float);
    /* Page-locked host memory: the copy engines read and write it directly
     * (DMA), so cudaMemcpyAsync can return at once and run alongside kernels. */
    LAB_CUDA_TRY(cudaMallocHost((void **)&p->host_in, bytes));
    LAB_CUDA_TRY(cudaMallocHost((void **)&p->host_out, bytes));
    LAB_CUDA_TRY(cudaMalloc((void **)&p->dev_in, bytes));
    LAB_CUDA_TRY(cudaMalloc((void **)&p->dev_out, bytes));
    /* Plain (blocking) streams: work in them still orders with the legacy
     * default stream, which is what the events below rely on. */
    for (int s = 0; s < p->stream_count; ++s)
        LAB_CUDA_TRY(cudaStreamCreate(&p->streams[s]));
    LAB_CUDA_TRY(cudaEventCreate(&p->start));
    LAB_CUDA_TRY(cudaEventCreate(&p->stop));
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

/* One stage of one chunk, into that chunk's stream. Empty chunks (n smaller
 * than the chunk count) issue nothing: a kernel with 0 blocks is an invalid
 * launch. */
static lab_status issue(lab6_pipeline *p, lab6_task t, int n, int chunks, int work)
{
    lab6_range r = lab6_chunk_range(n, chunks, t.chunk);
    if (r.count == 0)
        return LAB_OK;
    cudaStream_t s = p->streams[lab6_stream_of_chunk(t.chunk, p->stream_count)];
    size_t bytes = (size_t)r.count * sizeof(float);
    switch (t.stage) {
    case LAB6_STAGE_H2D:
        LAB_CUDA_TRY(cudaMemcpyAsync(p->dev_in + r.offset, p->host_in + r.offset, bytes,
                                     cudaMemcpyHostToDevice, s));
        break;
    case LAB6_STAGE_KERNEL:
        lab6_transform_kernel<<<lab_to_dim3(lab6_grid_for(r.count)), LAB6_BLOCK, 0, s>>>(
            p->dev_in + r.offset, p->dev_out + r.offset, r.count, work);
        LAB_LAUNCH_CHECK();
        break;
    case LAB6_STAGE_D2H:
        LAB_CUDA_TRY(cudaMemcpyAsync(p->host_out + r.offset, p->dev_out + r.offset, bytes,
                                     cudaMemcpyDeviceToHost, s));
        break;
    }
    return LAB_OK;
}

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

    /* The events go into the legacy default stream (0): it waits for all
     * earlier work of every blocking stream, and their later work waits
     * for it, so start..stop brackets every chunk whatever stream it is in. */
    LAB_CUDA_TRY(cudaEventRecord(p->start, 0));
    for (int step = 0; step < LAB6_STAGES * chunks; ++step) {
        lab_status status = issue(p, lab6_issue_step(order, chunks, step), n, chunks, work);
        if (status != LAB_OK)
            return status;
    }
    LAB_CUDA_TRY(cudaEventRecord(p->stop, 0));
    p->ran = 1;
    return LAB_OK;
}

extern "C" lab_status lab6_pipeline_elapsed_ms(lab6_pipeline *p, float *ms)
{
    if (!p || !ms)
        return lab_fail(LAB_ERR_NULL_POINTER, "lab6_pipeline_elapsed_ms: NULL argument");
    if (!p->ran)
        return lab_fail(LAB_ERR_UNSUPPORTED, "lab6_pipeline_elapsed_ms: nothing has run yet");
    LAB_CUDA_TRY(cudaEventSynchronize(p->stop));
    LAB_CUDA_TRY(cudaEventElapsedTime(ms, p->start, p->stop));
    return LAB_OK;
}

extern "C" lab_status lab6_pipeline_destroy(lab6_pipeline *p)
{
    if (!p)
        return LAB_OK;
    /* Freeing pinned or device memory that a queued copy still uses would
     * be a use after free: wait for every stream first. */
    for (int s = 0; s < p->stream_count; ++s)
        if (p->streams[s])
            LAB_CUDA_TRY(cudaStreamSynchronize(p->streams[s]));
    return release(p);
}
