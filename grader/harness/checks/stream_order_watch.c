/* CUPTI's callbacks into the stream-order model (stream_order_watch.h).
 *
 * Runtime calls are noted at the runtime (cudaMemcpyAsync names its stream
 * there); kernels at the driver launch the runtime makes for them, since a
 * <<<>>> launch's runtime entry shows no stream, and at the runtime launch
 * when no driver launch showed up inside it. Each call is noted on its
 * exit, and only when it succeeded: a failed call enqueued nothing. */
#include "stream_order_watch.h"

#include <pthread.h>
#include <stdio.h>

#include "driver_launch.h"
#include "stream_order.h"

#if ACTIVITY_RECORDER_HAVE_CUPTI
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cupti.h>
#endif

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static stream_order_watch_mode mode;
static const void *elapsed_start, *elapsed_stop;
static int elapsed_seen;

void stream_order_watch_arm(stream_order_watch_mode m)
{
    pthread_mutex_lock(&lock);
    if (m == STREAM_ORDER_WATCH_RUN) {
        stream_order_reset();
        elapsed_seen = 0;
        elapsed_start = elapsed_stop = NULL;
    }
    mode = m;
    pthread_mutex_unlock(&lock);
}

#if ACTIVITY_RECORDER_HAVE_CUPTI

static int blocking(const void *stream)
{
    unsigned flags = 0;
    if (cudaStreamGetFlags((cudaStream_t)stream, &flags) != cudaSuccess) {
        cudaGetLastError(); /* a destroyed stream: its error is not the student's */
        return 1;
    }
    return (flags & cudaStreamNonBlocking) == 0;
}

int stream_order_watch_judge(size_t gpu_work, char *why, size_t size)
{
    pthread_mutex_lock(&lock);
    int verdict;
    size_t seen = stream_order_work_count();
    if (!elapsed_seen) {
        snprintf(why, size, "the elapsed-time call read no pair of events "
                 "(cudaEventElapsedTime)");
        verdict = -1;
    } else if (seen != gpu_work) {
        snprintf(why, size, "the GPU ran %zu copies, memsets and kernels, of which the calls "
                 "it followed issued %zu", gpu_work, seen);
        verdict = -1;
    } else {
        verdict = stream_order_brackets(elapsed_start, elapsed_stop, blocking, why, size);
    }
    pthread_mutex_unlock(&lock);
    return verdict;
}

/* A runtime launch under way on this thread, and whether a driver launch
 * inside it was noted. */
static __thread int runtime_launch_open, runtime_launch_noted;

static const unsigned runtime_ids[] = {
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_ptds_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_ptsz_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemset_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemset_ptds_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_ptsz_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060,
    CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000,
    CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000,
    CUPTI_RUNTIME_TRACE_CBID_cudaEventRecord_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaEventRecord_ptsz_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaEventRecordWithFlags_v11010,
    CUPTI_RUNTIME_TRACE_CBID_cudaEventRecordWithFlags_ptsz_v11010,
    CUPTI_RUNTIME_TRACE_CBID_cudaStreamWaitEvent_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaStreamWaitEvent_ptsz_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_ptsz_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaEventSynchronize_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaFree_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaFreeHost_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaEventElapsedTime_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaEventElapsedTime_v12080,
    /* Calls that order work in ways the model does not follow: it gives up. */
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchHostFunc_v10000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchHostFunc_ptsz_v10000,
    CUPTI_RUNTIME_TRACE_CBID_cudaStreamAddCallback_v5000,
    CUPTI_RUNTIME_TRACE_CBID_cudaStreamAddCallback_ptsz_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaStreamQuery_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaStreamQuery_ptsz_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaEventQuery_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCapture_v10000,
    CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCapture_ptsz_v10000,
    CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCaptureToGraph_v12030,
    CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCaptureToGraph_ptsz_v12030,
    CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000,
    CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_ptsz_v10000};

static const unsigned driver_ids[] = {
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz};

const unsigned *stream_order_watch_callbacks(unsigned domain, int *count)
{
    if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) {
        *count = (int)(sizeof runtime_ids / sizeof *runtime_ids);
        return runtime_ids;
    }
    if (domain == CUPTI_CB_DOMAIN_DRIVER_API) {
        *count = (int)(sizeof driver_ids / sizeof *driver_ids);
        return driver_ids;
    }
    *count = 0;
    return NULL;
}

static int listed(const unsigned *ids, size_t n, unsigned cbid)
{
    for (size_t i = 0; i < n; ++i)
        if (ids[i] == cbid)
            return 1;
    return 0;
}

/* The runtime's per-thread forms: _ptsz and _ptds in CUPTI's names. */
static int per_thread_runtime(unsigned cbid)
{
    switch (cbid) {
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_ptds_v7000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_ptsz_v7000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemset_ptds_v7000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_ptsz_v7000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060:
    case CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaEventRecord_ptsz_v7000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaEventRecordWithFlags_ptsz_v11010:
    case CUPTI_RUNTIME_TRACE_CBID_cudaStreamWaitEvent_ptsz_v7000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_ptsz_v7000:
        return 1;
    default:
        return 0;
    }
}

static int is_runtime_launch(unsigned cbid)
{
    switch (cbid) {
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060:
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060:
    case CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000:
    case CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000:
        return 1;
    default:
        return 0;
    }
}

/* A runtime launch no driver launch showed up inside: its own stream. */
static void note_runtime_launch(unsigned cbid, const CUpti_CallbackData *cb, int per_thread)
{
    switch (cbid) {
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060:
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060: {
        const cudaLaunchKernelExC_v11060_params *p = cb->functionParams;
        stream_order_work(p->config ? p->config->stream : NULL, per_thread);
        break;
    }
    case CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000:
    case CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000:
        stream_order_unknown("a kernel launch whose stream CUPTI does not show");
        break;
    default: {
        /* cudaLaunchKernel and the cooperative launch: the same parameters. */
        const cudaLaunchKernel_v7000_params *p = cb->functionParams;
        stream_order_work(p->stream, per_thread);
        break;
    }
    }
}

static void on_runtime(unsigned cbid, const CUpti_CallbackData *cb)
{
    int enter = cb->callbackSite == CUPTI_API_ENTER;
    if (is_runtime_launch(cbid)) {
        if (enter) {
            runtime_launch_open = 1;
            runtime_launch_noted = 0;
            return;
        }
        runtime_launch_open = 0;
    }
    if (enter || *(const cudaError_t *)cb->functionReturnValue != cudaSuccess)
        return;
    int per_thread = per_thread_runtime(cbid);
    if (cbid == CUPTI_RUNTIME_TRACE_CBID_cudaEventElapsedTime_v3020 ||
        cbid == CUPTI_RUNTIME_TRACE_CBID_cudaEventElapsedTime_v12080) {
        if (mode == STREAM_ORDER_WATCH_ELAPSED) {
            /* Both forms take (ms, start, end); CUDA 13 declares the newer's. */
            const cudaEventElapsedTime_v12080_params *p = cb->functionParams;
            elapsed_start = p->start;
            elapsed_stop = p->end;
            elapsed_seen = 1;
        }
        return;
    }
    if (mode != STREAM_ORDER_WATCH_RUN)
        return;
    if (is_runtime_launch(cbid)) {
        if (!runtime_launch_noted)
            note_runtime_launch(cbid, cb, per_thread);
        return;
    }
    switch (cbid) {
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020:
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_ptds_v7000:
        stream_order_work(NULL, per_thread);
        stream_order_sync_stream(NULL, per_thread);
        break;
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020:
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_ptsz_v7000: {
        const cudaMemcpyAsync_v3020_params *p = cb->functionParams;
        stream_order_work(p->stream, per_thread);
        break;
    }
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemset_v3020:
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemset_ptds_v7000:
        stream_order_work(NULL, per_thread);
        break;
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_v3020:
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_ptsz_v7000: {
        const cudaMemsetAsync_v3020_params *p = cb->functionParams;
        stream_order_work(p->stream, per_thread);
        break;
    }
    case CUPTI_RUNTIME_TRACE_CBID_cudaEventRecord_v3020:
    case CUPTI_RUNTIME_TRACE_CBID_cudaEventRecord_ptsz_v7000: {
        const cudaEventRecord_v3020_params *p = cb->functionParams;
        stream_order_record(p->event, p->stream, per_thread);
        break;
    }
    case CUPTI_RUNTIME_TRACE_CBID_cudaEventRecordWithFlags_v11010:
    case CUPTI_RUNTIME_TRACE_CBID_cudaEventRecordWithFlags_ptsz_v11010: {
        const cudaEventRecordWithFlags_v11010_params *p = cb->functionParams;
        stream_order_record(p->event, p->stream, per_thread);
        break;
    }
    case CUPTI_RUNTIME_TRACE_CBID_cudaStreamWaitEvent_v3020:
    case CUPTI_RUNTIME_TRACE_CBID_cudaStreamWaitEvent_ptsz_v7000: {
        const cudaStreamWaitEvent_v3020_params *p = cb->functionParams;
        stream_order_wait(p->stream, p->event, per_thread);
        break;
    }
    case CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020:
    case CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_ptsz_v7000: {
        const cudaStreamSynchronize_v3020_params *p = cb->functionParams;
        stream_order_sync_stream(p->stream, per_thread);
        break;
    }
    case CUPTI_RUNTIME_TRACE_CBID_cudaEventSynchronize_v3020: {
        const cudaEventSynchronize_v3020_params *p = cb->functionParams;
        stream_order_sync_event(p->event);
        break;
    }
    case CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020:
    case CUPTI_RUNTIME_TRACE_CBID_cudaFree_v3020: /* both wait for the whole device */
    case CUPTI_RUNTIME_TRACE_CBID_cudaFreeHost_v3020:
        stream_order_sync_device();
        break;
    default:
        stream_order_unknown(cb->functionName);
        break;
    }
}

static void on_driver(unsigned cbid, const CUpti_CallbackData *cb)
{
    if (cb->callbackSite != CUPTI_API_EXIT || mode != STREAM_ORDER_WATCH_RUN ||
        *(const CUresult *)cb->functionReturnValue != CUDA_SUCCESS)
        return;
    driver_launch d;
    if (!driver_launch_decode(cbid, cb->functionParams, &d))
        return;
    if (runtime_launch_open)
        runtime_launch_noted = 1;
    stream_order_work(d.stream, d.per_thread);
}

void stream_order_watch_on_api(unsigned domain, unsigned cbid, const void *data)
{
    if (domain == CUPTI_CB_DOMAIN_RUNTIME_API &&
        listed(runtime_ids, sizeof runtime_ids / sizeof *runtime_ids, cbid)) {
        pthread_mutex_lock(&lock);
        if (mode != STREAM_ORDER_WATCH_OFF || is_runtime_launch(cbid))
            on_runtime(cbid, data);
        pthread_mutex_unlock(&lock);
    } else if (domain == CUPTI_CB_DOMAIN_DRIVER_API &&
               listed(driver_ids, sizeof driver_ids / sizeof *driver_ids, cbid)) {
        pthread_mutex_lock(&lock);
        on_driver(cbid, data);
        pthread_mutex_unlock(&lock);
    }
}

#else

int stream_order_watch_judge(size_t gpu_work, char *why, size_t size)
{
    (void)gpu_work;
    snprintf(why, size, "this grader was built without CUPTI");
    return -1;
}

void stream_order_watch_on_api(unsigned domain, unsigned cbid, const void *data)
{
    (void)domain;
    (void)cbid;
    (void)data;
}

const unsigned *stream_order_watch_callbacks(unsigned domain, int *count)
{
    (void)domain;
    *count = 0;
    return NULL;
}

#endif
