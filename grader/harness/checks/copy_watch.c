/* Copies of a student call and the caller's output after them. See
 * copy_watch.h. */
#include "copy_watch.h"
#include "fnv_hash.h"

#include <stdio.h>
#include <string.h>

#if ACTIVITY_RECORDER_HAVE_CUPTI
#include <cuda_runtime_api.h>
#include <cupti.h>
#endif

enum { COPY_KEEP = 32 };

typedef struct {
    const void *dst, *src;
    size_t bytes;
} copy_record;

static copy_record copies[COPY_KEEP];
static int copy_count;
static unsigned char *output;
static size_t output_bytes;
static int output_pending;  /* an asynchronous copy into it, not yet synchronised */
static int output_hashed;   /* output_hash holds the output after the last copy */
static uint64_t output_hash;

void copy_watch_output(void *host, size_t bytes)
{
    output = host;
    output_bytes = bytes;
}

void copy_watch_reset(void)
{
    copy_count = 0;
    output_pending = output_hashed = 0;
}

int copy_watch_read(const void *host, size_t bytes)
{
    for (int i = 0; i < copy_count; ++i)
        if (copies[i].src == host && copies[i].bytes == bytes)
            return 1;
    return 0;
}

static int into_output(const copy_record *c)
{
    return output && c->dst == output && c->bytes == output_bytes;
}

int copy_watch_wrote_output(void)
{
    for (int i = 0; i < copy_count; ++i)
        if (into_output(&copies[i]))
            return 1;
    return 0;
}

int copy_watch_output_kept(void)
{
    if (output_pending) /* never synchronised inside the call: the call's end is the moment */
        return -1;
    return output_hashed ? fnv_hash(FNV_HASH_OFFSET, output, output_bytes) == output_hash : -1;
}

static void note_output(void)
{
    output_hash = fnv_hash(FNV_HASH_OFFSET, output, output_bytes);
    output_hashed = 1;
    output_pending = 0;
}

#if ACTIVITY_RECORDER_HAVE_CUPTI
static const unsigned callbacks[] = {
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_ptds_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_ptsz_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_ptsz_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaEventSynchronize_v3020};

const unsigned *copy_watch_callbacks(int *count)
{
    *count = (int)(sizeof callbacks / sizeof callbacks[0]);
    return callbacks;
}

void copy_watch_on_runtime(unsigned cbid, int at_exit, const void *params)
{
    const void *dst = NULL, *src = NULL;
    size_t bytes = 0;
    int async = 0;
    switch (cbid) {
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020: {
        const cudaMemcpy_v3020_params *p = params;
        dst = p->dst, src = p->src, bytes = p->count;
        break;
    }
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_ptds_v7000: {
        const cudaMemcpy_ptds_v7000_params *p = params;
        dst = p->dst, src = p->src, bytes = p->count;
        break;
    }
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020: {
        const cudaMemcpyAsync_v3020_params *p = params;
        dst = p->dst, src = p->src, bytes = p->count, async = 1;
        break;
    }
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_ptsz_v7000: {
        const cudaMemcpyAsync_ptsz_v7000_params *p = params;
        dst = p->dst, src = p->src, bytes = p->count, async = 1;
        break;
    }
    default: /* a synchronising call */
        if (at_exit && output_pending)
            note_output();
        return;
    }
    if (!at_exit) {
        if (copy_count < COPY_KEEP)
            copies[copy_count++] = (copy_record){dst, src, bytes};
        return;
    }
    copy_record c = {dst, src, bytes};
    if (!into_output(&c)) {
        /* A synchronous copy also completes every earlier copy on its stream. */
        if (!async && output_pending)
            note_output();
        return;
    }
    if (async)
        output_pending = 1;
    else
        note_output();
}
#else
const unsigned *copy_watch_callbacks(int *count)
{
    *count = 0;
    return NULL;
}

void copy_watch_on_runtime(unsigned cbid, int at_exit, const void *params)
{
    (void)cbid, (void)at_exit, (void)params;
}
#endif
