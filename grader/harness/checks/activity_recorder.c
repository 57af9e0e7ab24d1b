/* The recorder: CUPTI's Activity API turned into an activity_log.
 *
 * CUPTI asks for empty buffers (buffer_requested) and hands them back full
 * (buffer_completed), from its own thread or cuptiActivityFlushAll's.
 * Records delivered while a recording is open go into `current`; late ones
 * are dropped, so a log holds only its own start..stop. The activities come
 * from the driver, so static and dynamic cudart both work. */
#include "activity_recorder.h"
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if ACTIVITY_RECORDER_HAVE_CUPTI

#include <pthread.h>
#include <stdint.h>

#include <cuda_runtime_api.h>
#include <cupti.h>

/* Records are read through old layouts that every supported toolkit (CUDA
 * 12 and 13) still declares, so this compiles with either. The fields read
 * here sit at the same offsets in every later version (Kernel4..10,
 * Memcpy..6, Memset..4 in the CUDA 13.0 headers); with CUDA 13 headers the
 * build checks them against the versions that library writes. */
typedef CUpti_ActivityKernel4 kernel_record;
typedef CUpti_ActivityMemcpy memcpy_record;
typedef CUpti_ActivityMemset memset_record;

#if CUPTI_API_VERSION >= 130000
#define SAME_OFFSET(old, now, field) \
    _Static_assert(offsetof(old, field) == offsetof(now, field), #now "." #field " moved")
SAME_OFFSET(kernel_record, CUpti_ActivityKernel10, start);
SAME_OFFSET(kernel_record, CUpti_ActivityKernel10, end);
SAME_OFFSET(kernel_record, CUpti_ActivityKernel10, streamId);
SAME_OFFSET(kernel_record, CUpti_ActivityKernel10, name);
SAME_OFFSET(memcpy_record, CUpti_ActivityMemcpy6, copyKind);
SAME_OFFSET(memcpy_record, CUpti_ActivityMemcpy6, srcKind);
SAME_OFFSET(memcpy_record, CUpti_ActivityMemcpy6, dstKind);
SAME_OFFSET(memcpy_record, CUpti_ActivityMemcpy6, bytes);
SAME_OFFSET(memcpy_record, CUpti_ActivityMemcpy6, start);
SAME_OFFSET(memcpy_record, CUpti_ActivityMemcpy6, end);
SAME_OFFSET(memcpy_record, CUpti_ActivityMemcpy6, streamId);
SAME_OFFSET(memset_record, CUpti_ActivityMemset4, bytes);
SAME_OFFSET(memset_record, CUpti_ActivityMemset4, start);
SAME_OFFSET(memset_record, CUpti_ActivityMemset4, end);
SAME_OFFSET(memset_record, CUpti_ActivityMemset4, streamId);
#endif

/* CUPTI requires 8-byte aligned buffers; 1 MiB holds thousands of records. */
enum { BUFFER_BYTES = 1 << 20, BUFFER_ALIGN = 8 };

/* CONCURRENT_KERNEL, not KERNEL: KERNEL serialises kernels, which would
 * hide the overlap that lab 6 wants to see. */
static const CUpti_ActivityKind KINDS[] = {CUPTI_ACTIVITY_KIND_MEMCPY, CUPTI_ACTIVITY_KIND_MEMSET,
                                           CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL};
enum { KIND_COUNT = sizeof KINDS / sizeof KINDS[0] };

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int registered; /* CUPTI keeps the callbacks for the process's life */
static int recording;  /* under lock, like current */
static activity_log current;

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
    *buffer = aligned_alloc(BUFFER_ALIGN, BUFFER_BYTES);
    *size = *buffer != NULL ? BUFFER_BYTES : 0; /* NULL: CUPTI drops and counts */
    *max_records = 0;                           /* as many as fit */
}

static activity_copy_kind copy_kind_of(uint8_t kind)
{
    switch (kind) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD:
        return COPY_HOST_TO_DEVICE;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH:
        return COPY_DEVICE_TO_HOST;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD:
        return COPY_DEVICE_TO_DEVICE;
    default:
        return COPY_OTHER;
    }
}

/* One CUPTI record as an event; 0 for kinds we do not keep. */
static int event_from_record(const CUpti_Activity *record, activity_event *e)
{
    memset(e, 0, sizeof *e);
    switch (record->kind) {
    case CUPTI_ACTIVITY_KIND_MEMCPY: {
        const memcpy_record *r = (const memcpy_record *)record;
        e->kind = ACTIVITY_MEMCPY;
        e->copy = copy_kind_of(r->copyKind);
        e->bytes = r->bytes;
        e->start_ns = r->start;
        e->end_ns = r->end;
        e->stream_id = r->streamId;
        /* The host side is the source going in and the destination coming out. */
        uint8_t host = e->copy == COPY_HOST_TO_DEVICE   ? r->srcKind
                       : e->copy == COPY_DEVICE_TO_HOST ? r->dstKind
                                                        : CUPTI_ACTIVITY_MEMORY_KIND_UNKNOWN;
        e->pinned_host = host == CUPTI_ACTIVITY_MEMORY_KIND_PINNED;
        return 1;
    }
    case CUPTI_ACTIVITY_KIND_MEMSET: {
        const memset_record *r = (const memset_record *)record;
        e->kind = ACTIVITY_MEMSET;
        e->bytes = r->bytes;
        e->start_ns = r->start;
        e->end_ns = r->end;
        e->stream_id = r->streamId;
        return 1;
    }
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
        const kernel_record *r = (const kernel_record *)record;
        e->kind = ACTIVITY_KERNEL;
        e->start_ns = r->start;
        e->end_ns = r->end;
        e->stream_id = r->streamId;
        activity_kernel_short_name(r->name, e->name, sizeof e->name);
        return 1;
    }
    default:
        return 0;
    }
}

static void CUPTIAPI buffer_completed(CUcontext context, uint32_t stream, uint8_t *buffer,
                                      size_t size, size_t valid)
{
    (void)context;
    (void)stream;
    (void)size;
    pthread_mutex_lock(&lock);
    if (recording) {
        CUpti_Activity *record = NULL;
        activity_event e;
        /* Stops at the end, or at an incomplete record (a forced flush can
         * hand over a buffer with one). */
        while (cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS)
            if (event_from_record(record, &e))
                activity_log_append(&current, &e);
    }
    pthread_mutex_unlock(&lock);
    free(buffer);
}

static void explain(char *why, size_t size, const char *call, CUptiResult result)
{
    const char *text = NULL;
    if (cuptiGetResultString(result, &text) != CUPTI_SUCCESS || text == NULL)
        text = "unknown error";
    snprintf(why, size, "%s failed: %s (CUPTI error %d)%s", call, text, (int)result,
             result == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED
                 ? "; another tool (nsys, ncu, compute-sanitizer) is already using CUPTI in "
                   "this process"
                 : "");
}

int activity_start(char *why, size_t why_size)
{
    /* What tests read in a recording are times (overlap, durations):
     * nothing else may run on the GPU meanwhile (gpu_share.h). */
    grader_gpu_exclusive();
    pthread_mutex_lock(&lock);
    int busy = recording;
    pthread_mutex_unlock(&lock);
    if (busy) {
        snprintf(why, why_size, "activity_start: already recording (call activity_stop first)");
        return -1;
    }
    if (!registered) {
        CUptiResult r = cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed);
        if (r != CUPTI_SUCCESS) {
            explain(why, why_size, "cuptiActivityRegisterCallbacks", r);
            return -1;
        }
        registered = 1;
    }
    pthread_mutex_lock(&lock);
    activity_log_free(&current);
    recording = 1;
    pthread_mutex_unlock(&lock);
    for (int i = 0; i < KIND_COUNT; ++i) {
        CUptiResult r = cuptiActivityEnable(KINDS[i]);
        if (r != CUPTI_SUCCESS) {
            explain(why, why_size, "cuptiActivityEnable", r);
            for (int j = 0; j < i; ++j)
                cuptiActivityDisable(KINDS[j]);
            pthread_mutex_lock(&lock);
            recording = 0;
            pthread_mutex_unlock(&lock);
            return -1;
        }
    }
    return 0;
}

int activity_stop(activity_log *log)
{
    memset(log, 0, sizeof *log);
    pthread_mutex_lock(&lock);
    int was_recording = recording;
    pthread_mutex_unlock(&lock);
    if (!was_recording)
        return -1;
    /* CUPTI's flush does not wait for the GPU: a copy or kernel still
     * running would come back without its end time. The work is expected to
     * be finished; this makes sure (its error, if any, is the caller's to
     * find, so it is not cleared here). */
    (void)cudaDeviceSynchronize();
    for (int i = 0; i < KIND_COUNT; ++i)
        cuptiActivityDisable(KINDS[i]);
    /* Forced: hand over every buffer, full or not. Blocking: the records
     * are in `current` when it returns. */
    CUptiResult flushed = cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    size_t dropped = 0;
    if (cuptiActivityGetNumDroppedRecords(NULL, 0, &dropped) != CUPTI_SUCCESS)
        dropped = 0;
    pthread_mutex_lock(&lock);
    *log = current;
    memset(&current, 0, sizeof current);
    recording = 0;
    pthread_mutex_unlock(&lock);
    log->dropped += dropped;
    activity_log_sort(log);
    grader_gpu_share_again(); /* the times are in the log */
    return flushed == CUPTI_SUCCESS ? 0 : -1;
}

#else /* built without CUPTI */

int activity_start(char *why, size_t why_size)
{
    snprintf(why, why_size,
             "this grader was built without CUPTI (libcupti was not found in the CUDA "
             "toolkit at configure time), so GPU activity cannot be recorded");
    return -1;
}

int activity_stop(activity_log *log)
{
    memset(log, 0, sizeof *log);
    return -1;
}

#endif
