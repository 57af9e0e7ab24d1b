/* Lab 6 GPU checks: what the pipeline holds, whether its copies overlapped
 * its kernels (recorded by CUPTI), its results, its events, its clean-up
 * and its validation. Speed: lab6_speed_checks.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "activity_recorder.h"
#include "compare.h"
#include "cuda_check.h"
#include "guard.h"
#include "harness.h"
#include "lab6_checks.h"
#include "lab6_overlap.h"
#include "lab6_pipeline_util.h"
#include "lab6_resource_counts.h"
#include "lab6_rubric.h"
#include "speed_check.h"
#include "stream_order_watch.h"

/* ------------------------------------------------ what it holds (6.3, 6.4) */

/* 1 when `host` is page-locked memory the CUDA driver knows about. */
static int is_pinned(void *host)
{
    unsigned flags = 0;
    cudaError_t err = cudaHostGetFlags(&flags, host);
    (void)cudaGetLastError(); /* an unpinned pointer leaves an error to clear */
    return err == cudaSuccess;
}

void gpu_pipeline_holds_pinned_streams(void **state)
{
    (void)state;
    grader_require_gpu();
    enum { STREAMS = 5, CAPACITY = 1 << 20 };
    lab6_resource_counts before = lab6_resources_now();
    lab6_pipeline *p = pipeline_open(CAPACITY, STREAMS);
    lab6_resource_counts after = lab6_resources_now();
    long long streams = after.streams_made - before.streams_made;
    long long events = after.events_made - before.events_made;
    grader_metric("streams_created", (double)streams, "streams");
    grader_metric("events_created", (double)events, "events");
    GRADER_CHECK(is_pinned(lab6_pipeline_host_input(p)) && is_pinned(lab6_pipeline_host_output(p)),
                 "TODO(6.2): after lab6_pipeline_create the host %s buffer is not page-locked "
                 "(cudaHostGetFlags does not know it): memory from malloc is pageable, so every "
                 "copy of it is staged by the driver and cannot overlap a kernel. Allocate it "
                 "with cudaMallocHost; %s section 2.",
                 is_pinned(lab6_pipeline_host_input(p)) ? "output" : "input", LAB6_HANDOUT);
    GRADER_CHECK(streams == STREAMS,
                 "TODO(6.3): lab6_pipeline_create(streams=%d) created %lld stream%s: one "
                 "non-default stream per requested stream, created once here and not per run "
                 "(%s section 3).",
                 STREAMS, streams, streams == 1 ? "" : "s", LAB6_HANDOUT);
    GRADER_CHECK(events >= 2,
                 "TODO(6.3): lab6_pipeline_create created %lld event%s; the pipeline times its "
                 "runs with two (start and stop), created once here (%s section 6).",
                 events, events == 1 ? "" : "s", LAB6_HANDOUT);
    pipeline_close(p, "the pinned-memory and stream check");
}

/* ------------------------------------------------------ overlap (6.4) */

enum { OVERLAP_N = 1 << 24, OVERLAP_STREAMS = 8, OVERLAP_CHUNKS = 32, OVERLAP_WORK = 1024 };

/* The id CUPTI gave the default stream: the grader's marker memset, issued
 * into stream 0 inside the recording. */
static int default_stream_id(const activity_log *log, unsigned long long marker_bytes,
                             unsigned *id)
{
    for (size_t i = 0; i < log->count; ++i)
        if (log->events[i].kind == ACTIVITY_MEMSET && log->events[i].bytes == marker_bytes) {
            *id = log->events[i].stream_id;
            return 1;
        }
    return 0;
}

static void expect_overlap(lab6_pipeline *p, lab6_order order, void *marker,
                           size_t marker_bytes)
{
    char call[200], why[640];
    describe_run(call, sizeof call, OVERLAP_N, OVERLAP_CHUNKS, OVERLAP_WORK, order,
                 OVERLAP_STREAMS);
    if (activity_start(why, sizeof why) != 0)
        GRADER_FAIL("%s: the pipeline could not be observed, so its overlap cannot be checked: "
                    "%s. The grader watches the GPU through CUPTI (libcupti, part of the CUDA "
                    "toolkit); this is a problem of the grading machine, not of your code.",
                    call, why);
    CUDA_CHECK(cudaMemsetAsync(marker, 0, marker_bytes, 0));
    grader_watch(call, grader_call_limit_s(8.0 * OVERLAP_N, 2.0 * OVERLAP_N * OVERLAP_WORK));
    lab_status status = lab6_pipeline_run(p, OVERLAP_N, OVERLAP_CHUNKS, OVERLAP_WORK, order);
    cudaError_t err = cudaDeviceSynchronize();
    activity_log log;
    int stopped = activity_stop(&log);
    grader_unwatch();
    unsigned default_id = 0;
    int has_default = default_stream_id(&log, marker_bytes, &default_id);
    lab6_overlap o;
    lab6_overlap_measure(&log, default_id, has_default, &o);
    char seen[512];
    activity_describe(&log, seen, sizeof seen);
    activity_log_free(&log);
    /* lab6_element: `work` fused multiply-adds (2 FLOPs) per element. */
    const lab6_expected_work work = {
        (double)OVERLAP_N * sizeof(float),
        1e6 * speed_floor_ms(0.0, 2.0 * OVERLAP_N * (double)OVERLAP_WORK)};

    GRADER_CHECK(status == LAB_OK && err == cudaSuccess, "%s failed: %s. Check TODO(6.4), %s "
                 "section 4.", call, status != LAB_OK ? lab_last_error() : cudaGetErrorString(err),
                 LAB6_HANDOUT);
    GRADER_CHECK(stopped == 0,
                 "%s: CUPTI failed to hand over its records (it saw: %s); this is a problem of "
                 "the grading machine, not of your code.", call, seen);
    const char *prefix = order == LAB6_DEPTH_FIRST ? "depth_first_" : "breadth_first_";
    char name[64];
    snprintf(name, sizeof name, "%scopy_kernel_overlap", prefix);
    grader_metric(name, lab6_copy_kernel_fraction(&o), "fraction");
    snprintf(name, sizeof name, "%sh2d_d2h_overlap", prefix);
    grader_metric(name, lab6_copy_copy_fraction(&o), "fraction");
    snprintf(name, sizeof name, "%sstreams_used", prefix);
    grader_metric(name, (double)o.streams_used, "streams");
    /* How far above the FP32-peak floor the kernels were busy (the
     * reference's margin against the work check below). */
    snprintf(name, sizeof name, "%skernel_busy_over_floor", prefix);
    grader_metric(name, work.min_kernel_ns > 0 ? o.kernel_ns / work.min_kernel_ns : 0.0, "x");
    GRADER_CHECK(lab6_overlap_judge(&o, &work, LAB6_MIN_COPY_KERNEL_OVERLAP,
                                    LAB6_MIN_COPY_COPY_OVERLAP,
                                    why, sizeof why),
                 "%s did not overlap: %s. (The GPU saw: %s.)", call, why, seen);
}

void gpu_pipeline_overlaps(void **state)
{
    (void)state;
    grader_require_gpu();
    lab6_pipeline *p = pipeline_open(OVERLAP_N, OVERLAP_STREAMS);
    pipeline_fill_input(p, OVERLAP_N, grader_seed() + 600);
    /* An odd size no pipeline copy has: the marker is found by it. */
    enum { MARKER_BYTES = 1044 };
    void *marker = NULL;
    CUDA_CHECK(cudaMalloc(&marker, MARKER_BYTES));
    /* One untimed run first: module loading and first-touch costs must not
     * land in the recorded one. */
    pipeline_run_and_wait(p, OVERLAP_N, OVERLAP_CHUNKS, OVERLAP_WORK, LAB6_DEPTH_FIRST,
                          OVERLAP_STREAMS);
    expect_overlap(p, LAB6_DEPTH_FIRST, marker, MARKER_BYTES);
    expect_overlap(p, LAB6_BREADTH_FIRST, marker, MARKER_BYTES);
    CUDA_CHECK(cudaFree(marker));
    pipeline_close(p, "the overlap check");
}

/* --------------------------------------------------- correctness (6.1-6.5) */

typedef struct {
    int streams, capacity, n, chunks, work;
    const char *why; /* what the case is about, for messages */
} run_case;

static const run_case CASES[] = {
    {4, 8192, 4096, 4, 3, "chunks that divide n"},
    {4, 8192, 4099, 4, 3, "n not a multiple of the chunks"},
    {4, 8192, 4099, 7, 0, "more chunks than streams, n not a multiple"},
    {8, 64, 5, 8, 2, "n smaller than the chunks: empty chunks"},
    {3, 16, 1, 7, 1, "a single element"},
    {1, 10000, 10000, 1, 2, "one stream, one chunk"},
    {1, 10000, 9999, 3, 2, "one stream, three chunks"},
    {16, (1 << 22) + 64, (1 << 22) + 7, 16, 5, "a large array, 16 streams"},
};

static void expect_case(const run_case *c, uint64_t seed)
{
    lab6_pipeline *p = pipeline_open(c->capacity, c->streams);
    float *in = lab6_pipeline_host_input(p), *out = lab6_pipeline_host_output(p);
    size_t n = (size_t)c->n;
    double *ref = grader_malloc(n * sizeof *ref);
    float *in_copy = grader_malloc(n * sizeof *in_copy);
    for (int o = 0; o < 2; ++o) {
        lab6_order order = o == 0 ? LAB6_DEPTH_FIRST : LAB6_BREADTH_FIRST;
        char call[200];
        describe_run(call, sizeof call, c->n, c->chunks, c->work, order, c->streams);
        pipeline_fill_input(p, c->n, seed + (uint64_t)o);
        memcpy(in_copy, in, n * sizeof *in);
        for (size_t i = 0; i < n; ++i)
            ref[i] = lab6_element(in[i], c->work);
        guard_fill_poison_floats(out, (size_t)c->capacity);
        pipeline_run_and_wait(p, c->n, c->chunks, c->work, order, c->streams);
        compare_spec spec = {1, n, 0.0, 1e-6, 0};
        compare_result result;
        GRADER_CHECK(compare_floats(out, ref, &spec, &result),
                     "%s (%s): %s. Check TODO(6.1) (the chunks), TODO(6.4) (offsets, counts and "
                     "the stream of each stage) and TODO(6.5) (the order); %s sections 4 and 5.",
                     call, c->why, result.report, LAB6_HANDOUT);
        size_t past = 0;
        for (size_t i = n; i < (size_t)c->capacity; ++i)
            past += !guard_is_poison(out[i]);
        GRADER_CHECK(past == 0,
                     "%s (%s): %zu element%s of the host output past n %s written: the last "
                     "chunk must end at n (TODO(6.1) and (6.4), %s section 4).",
                     call, c->why, past, past == 1 ? "" : "s", past == 1 ? "was" : "were",
                     LAB6_HANDOUT);
        GRADER_CHECK(memcmp(in_copy, in, n * sizeof *in) == 0,
                     "%s (%s): the host input was modified; the pipeline only reads it.", call,
                     c->why);
    }
    free(ref);
    free(in_copy);
    pipeline_close(p, "a correctness run");
}

void gpu_pipeline_correct(void **state)
{
    (void)state;
    grader_require_gpu();
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; ++i)
        expect_case(&CASES[i], grader_seed() + 700 + 10 * i);
}

/* ------------------------------------------------------------ events (6.6) */

/* The contract: lab6_pipeline_elapsed_ms waits for the second event itself.
 * The check above synchronised first, so it never asks; here the run is
 * only issued, and elapsed_ms comes right after it. The run (tens of MiB
 * each way) lasts milliseconds, far longer than issuing it, so its stop
 * event has not completed yet: cudaEventElapsedTime without a wait returns
 * cudaErrorNotReady. */
static void expect_elapsed_waits_for_the_run(lab6_pipeline *p, int n, int chunks, int work,
                                             const char *call, float grader_ms)
{
    CUDA_CHECK(cudaDeviceSynchronize());
    grader_watch(call, grader_call_limit_s(8.0 * n, 2.0 * n * (double)work));
    lab_status status = lab6_pipeline_run(p, n, chunks, work, LAB6_DEPTH_FIRST);
    GRADER_CHECK(status == LAB_OK, "%s returned %s: %s", call, lab_status_name(status),
                 lab_last_error());
    float student_ms = -1.0f;
    status = lab6_pipeline_elapsed_ms(p, &student_ms);
    grader_unwatch();
    cudaError_t err = cudaDeviceSynchronize();
    grader_metric("unsynchronised_event_ms", student_ms, "ms");
    GRADER_CHECK(status == LAB_OK,
                 "TODO(6.6): lab6_pipeline_elapsed_ms called right after %s, before the run "
                 "had finished, returned %s: %s. It must wait for the stop event itself "
                 "(cudaEventSynchronize) before reading the time (%s section 6).",
                 call, lab_status_name(status), lab_last_error(), LAB6_HANDOUT);
    GRADER_CHECK(err == cudaSuccess, "%s: the pipeline's work failed on the GPU: %s", call,
                 cudaGetErrorString(err));
    /* Another run than the grader's: only too short a time means the
     * events were read before the stop completed. */
    double ratio = grader_ms > 0 ? student_ms / grader_ms : 0.0;
    GRADER_CHECK(ratio >= LAB6_EVENT_RATIO_MIN,
                 "TODO(6.6): lab6_pipeline_elapsed_ms called right after %s, before the run "
                 "had finished, gave %.3f ms, but the same run takes %.3f ms: it must wait "
                 "for the stop event (cudaEventSynchronize) before reading the time (%s "
                 "section 6).",
                 call, student_ms, grader_ms, LAB6_HANDOUT);
}

/* The GPU's own count of the run's copies, memsets and kernels: every one
 * must be in the stream-order model for it to judge. */
static size_t work_recorded(const activity_log *log)
{
    return activity_count(log, ACTIVITY_KERNEL, COPY_ANY, 0) +
           activity_count(log, ACTIVITY_MEMCPY, COPY_ANY, 0) +
           activity_count(log, ACTIVITY_MEMSET, COPY_ANY, 0);
}

/* The order check: a run watched from inside and recorded by the GPU
 * (both slow it down, so it is not the run that is timed), then the
 * elapsed call, which names the events it reads. */
static void expect_events_bracket_the_run(lab6_pipeline *p, int n, int chunks, int work,
                                          int streams, const char *call)
{
    char why[320] = "";
    CUDA_CHECK(cudaDeviceSynchronize());
    int recording = activity_start(why, sizeof why) == 0;
    stream_order_watch_arm(STREAM_ORDER_WATCH_RUN);
    pipeline_run_and_wait(p, n, chunks, work, LAB6_DEPTH_FIRST, streams);
    stream_order_watch_arm(STREAM_ORDER_WATCH_OFF);
    activity_log log = {0};
    if (recording)
        activity_stop(&log);
    size_t gpu_work = work_recorded(&log);
    activity_log_free(&log);
    float ms = -1.0f;
    stream_order_watch_arm(STREAM_ORDER_WATCH_ELAPSED);
    grader_watch("lab6_pipeline_elapsed_ms", grader_call_limit_s(0.0, 0.0));
    lab_status status = lab6_pipeline_elapsed_ms(p, &ms);
    grader_unwatch();
    stream_order_watch_arm(STREAM_ORDER_WATCH_OFF);
    GRADER_CHECK(status == LAB_OK,
                 "TODO(6.6): lab6_pipeline_elapsed_ms after %s returned %s: %s (%s section 6).",
                 call, lab_status_name(status), lab_last_error(), LAB6_HANDOUT);
    int order = recording ? stream_order_watch_judge(gpu_work, why, sizeof why) : -1;
    grader_metric("events_order_verdict", order, "");
    if (order < 0)
        grader_note("the events' order was not judged (%s); their time is", why);
    GRADER_CHECK(order != 0,
                 "TODO(6.6): after %s your events do not bracket every chunk of every stream: "
                 "%s. Record the start before the first chunk is issued and the stop after the "
                 "last, in a stream that waits for all the others (the default stream 0, with "
                 "streams made by cudaStreamCreate) (%s section 6).",
                 call, why, LAB6_HANDOUT);
}

void gpu_pipeline_events_time_the_run(void **state)
{
    (void)state;
    grader_require_gpu();
    /* Judged by order (stream_order.h): the events the elapsed call reads
     * must bracket every copy and kernel of the run, whatever the timings;
     * on any GPU, events in one stream of several do not. And by time,
     * against the grader's events around the same run: the order model
     * gives no verdict for calls it cannot follow, and no order shows
     * events read before they completed. */
    enum { N = 1 << 24, STREAMS = 16, CHUNKS = 16, WORK = 256 };
    lab6_pipeline *p = pipeline_open(N, STREAMS);
    pipeline_fill_input(p, N, grader_seed() + 800);
    pipeline_run_and_wait(p, N, CHUNKS, WORK, LAB6_DEPTH_FIRST, STREAMS); /* warm-up */
    char call[200];
    describe_run(call, sizeof call, N, CHUNKS, WORK, LAB6_DEPTH_FIRST, STREAMS);
    expect_events_bracket_the_run(p, N, CHUNKS, WORK, STREAMS, call);
    grader_gpu_exclusive(); /* the student's events and ours time the same run */
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaEventRecord(start, 0));
    pipeline_run_and_wait(p, N, CHUNKS, WORK, LAB6_DEPTH_FIRST, STREAMS);
    CUDA_CHECK(cudaEventRecord(stop, 0));
    CUDA_CHECK(cudaEventSynchronize(stop));
    float grader_ms = 0.0f, student_ms = -1.0f;
    CUDA_CHECK(cudaEventElapsedTime(&grader_ms, start, stop));
    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    grader_watch("lab6_pipeline_elapsed_ms", grader_call_limit_s(0.0, 0.0));
    lab_status status = lab6_pipeline_elapsed_ms(p, &student_ms);
    grader_unwatch();
    grader_metric("student_event_ms", student_ms, "ms");
    grader_metric("grader_ms", grader_ms, "ms");
    GRADER_CHECK(status == LAB_OK,
                 "TODO(6.6): lab6_pipeline_elapsed_ms after %s returned %s: %s (%s section 6).",
                 call, lab_status_name(status), lab_last_error(), LAB6_HANDOUT);
    double ratio = grader_ms > 0 ? student_ms / grader_ms : 0.0;
    grader_metric("event_ratio", ratio, "x");
    GRADER_CHECK(ratio >= LAB6_EVENT_RATIO_MIN && ratio <= LAB6_EVENT_RATIO_MAX,
                 "TODO(6.6): after %s your events measured %.3f ms, but the run took %.3f ms "
                 "(the grader's events around it): %s (%s section 6).",
                 call, student_ms, grader_ms,
                 ratio < LAB6_EVENT_RATIO_MIN
                     ? "the events do not bracket every chunk of every stream. Are they "
                       "recorded before the first and after the last issue, in a stream that "
                       "waits for all the others?"
                     : "more than the whole run: are they recorded around something else?",
                 LAB6_HANDOUT);
    expect_elapsed_waits_for_the_run(p, N, CHUNKS, WORK, call, grader_ms);
    pipeline_close(p, "the events check");
}

/* -------------------------------------------------------- clean-up (6.7) */

void gpu_pipeline_releases_everything(void **state)
{
    (void)state;
    grader_require_gpu();
    enum { CALLS = 4, STREAMS = 6, CAPACITY = 1 << 22 };
    grader_gpu_exclusive(); /* free memory is the whole GPU's */
    CUDA_CHECK(cudaDeviceSynchronize());
    size_t free_before = 0, total = 0, free_after = 0;
    lab6_resource_counts before = lab6_resources_now();
    CUDA_CHECK(cudaMemGetInfo(&free_before, &total));
    for (int i = 0; i < CALLS; ++i) {
        lab6_pipeline *p = pipeline_open(CAPACITY, STREAMS);
        pipeline_fill_input(p, CAPACITY, grader_seed() + 900 + (uint64_t)i);
        /* Destroyed right after the run is issued, without waiting:
         * destroy must wait for the work itself. */
        char call[200];
        describe_run(call, sizeof call, CAPACITY, 12, 64, LAB6_DEPTH_FIRST, STREAMS);
        grader_watch(call, grader_call_limit_s(8.0 * CAPACITY, 128.0 * CAPACITY));
        lab_status status = lab6_pipeline_run(p, CAPACITY, 12, 64, LAB6_DEPTH_FIRST);
        grader_unwatch();
        GRADER_CHECK(status == LAB_OK, "%s returned %s: %s", call, lab_status_name(status),
                     lab_last_error());
        pipeline_close(p, "a run still in flight");
    }
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemGetInfo(&free_after, &total));
    lab6_resource_counts after = lab6_resources_now();
    long long streams = after.streams - before.streams, events = after.events - before.events;
    long long pinned = after.pinned - before.pinned;
    long long lost = (long long)free_before - (long long)free_after;
    grader_metric("streams_left", (double)streams, "streams");
    grader_metric("events_left", (double)events, "events");
    grader_metric("pinned_buffers_left", (double)pinned, "buffers");
    grader_metric("device_bytes_lost", (double)lost, "bytes");
    GRADER_CHECK(streams == 0 && events == 0 && pinned == 0,
                 "TODO(6.7): after %d pipelines were created and destroyed, %lld stream%s, %lld "
                 "event%s and %lld pinned buffer%s were never released: each cudaStreamCreate "
                 "needs its cudaStreamDestroy, each cudaEventCreate its cudaEventDestroy, each "
                 "cudaMallocHost its cudaFreeHost (%s section 7).",
                 CALLS, streams, streams == 1 ? "" : "s", events, events == 1 ? "" : "s", pinned,
                 pinned == 1 ? "" : "s", LAB6_HANDOUT);
    /* One lost pair of device buffers per call is 32 MiB: far above what the
     * driver's own bookkeeping moves. */
    long long limit = CALLS * 2LL * CAPACITY * (long long)sizeof(float) / 2;
    GRADER_CHECK(lost < limit,
                 "TODO(6.7): after %d pipelines were created and destroyed, %.0f MiB more device "
                 "memory is in use than before: each cudaMalloc needs its cudaFree (%s section "
                 "7).",
                 CALLS, lost / 1048576.0, LAB6_HANDOUT);
}

/* --------------------------------------------------------- bad input */

static void expect_create_rejected(int capacity, int streams, int null_out, lab_status expected)
{
    char call[160];
    snprintf(call, sizeof call, "lab6_pipeline_create(%scapacity=%d, streams=%d)",
             null_out ? "out=NULL, " : "", capacity, streams);
    lab6_pipeline *p = (lab6_pipeline *)(void *)call; /* must become NULL */
    grader_watch(call, grader_call_limit_s(0.0, 0.0));
    lab_status status = lab6_pipeline_create(null_out ? NULL : &p, capacity, streams);
    grader_unwatch();
    GRADER_CHECK(status == expected, "%s returned %s, expected %s (the validation given in "
                 "streams_overlap.cu)", call, lab_status_name(status), lab_status_name(expected));
    GRADER_CHECK(null_out || p == NULL, "%s was rejected but *out is not NULL", call);
}

void gpu_rejects_bad_input(void **state)
{
    (void)state;
    grader_require_gpu();
    expect_create_rejected(0, 4, 0, LAB_ERR_INVALID_SIZE);
    expect_create_rejected(-5, 4, 0, LAB_ERR_INVALID_SIZE);
    expect_create_rejected(1024, 0, 0, LAB_ERR_INVALID_SIZE);
    expect_create_rejected(1024, LAB6_MAX_STREAMS + 1, 0, LAB_ERR_INVALID_SIZE);
    expect_create_rejected(1024, 4, 1, LAB_ERR_NULL_POINTER);

    enum { CAPACITY = 1024 };
    lab6_pipeline *p = pipeline_open(CAPACITY, 2);
    float *out = lab6_pipeline_host_output(p);
    const struct {
        int n, chunks, work, order;
        lab_status expected;
    } bad[] = {
        {0, 2, 1, LAB6_DEPTH_FIRST, LAB_ERR_INVALID_SIZE},
        {-1, 2, 1, LAB6_DEPTH_FIRST, LAB_ERR_INVALID_SIZE},
        {CAPACITY + 1, 2, 1, LAB6_DEPTH_FIRST, LAB_ERR_INVALID_SIZE},
        {CAPACITY, 0, 1, LAB6_DEPTH_FIRST, LAB_ERR_INVALID_SIZE},
        {CAPACITY, LAB6_MAX_CHUNKS + 1, 1, LAB6_DEPTH_FIRST, LAB_ERR_INVALID_SIZE},
        {CAPACITY, 2, -1, LAB6_DEPTH_FIRST, LAB_ERR_INVALID_SIZE},
        {CAPACITY, 2, 1, 7, LAB_ERR_UNSUPPORTED},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        char call[200];
        snprintf(call, sizeof call, "lab6_pipeline_run(n=%d, chunks=%d, work=%d, order=%d) on a "
                 "pipeline of capacity %d", bad[i].n, bad[i].chunks, bad[i].work, bad[i].order,
                 CAPACITY);
        guard_fill_poison_floats(out, CAPACITY);
        grader_watch(call, grader_call_limit_s(0.0, 0.0));
        lab_status status = lab6_pipeline_run(p, bad[i].n, bad[i].chunks, bad[i].work,
                                              (lab6_order)bad[i].order);
        CUDA_CHECK(cudaDeviceSynchronize());
        grader_unwatch();
        GRADER_CHECK(status == bad[i].expected, "%s returned %s, expected %s", call,
                     lab_status_name(status), lab_status_name(bad[i].expected));
        size_t written = 0;
        for (int j = 0; j < CAPACITY; ++j)
            written += !guard_is_poison(out[j]);
        GRADER_CHECK(written == 0, "%s: rejected, but %zu element%s of the output %s written",
                     call, written, written == 1 ? "" : "s", written == 1 ? "was" : "were");
    }
    GRADER_CHECK(lab6_pipeline_run(NULL, 1, 1, 1, LAB6_DEPTH_FIRST) == LAB_ERR_NULL_POINTER,
                 "lab6_pipeline_run(NULL, ...) must return LAB_ERR_NULL_POINTER");
    pipeline_close(p, "the bad-input check");
}
