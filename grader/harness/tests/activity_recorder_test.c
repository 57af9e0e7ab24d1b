/* The activity recorder on a real GPU: it must see exactly the copies and
 * kernels issued between start and stop, with their sizes, directions,
 * streams and order, and nothing from before or from an earlier recording.
 * Without a GPU these tests are skipped; the CPU tests of the log run. */
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "activity_recorder.h"
#include "activity_tests.h"
#include "cuda_check.h"

void activity_test_scale(float *x, int n, cudaStream_t stream);

/* 4096 bytes in, 1024 bytes out: different sizes, so each copy is known by
 * its size alone. */
enum { N_IN = 1024, N_OUT = 256 };

typedef struct {
    float *host_in;  /* pageable (malloc) */
    float *host_out; /* page-locked (cudaMallocHost) */
    float *device;
} buffers;

static void buffers_init(buffers *b)
{
    b->host_in = grader_malloc(N_IN * sizeof(float));
    for (int i = 0; i < N_IN; ++i)
        b->host_in[i] = (float)i;
    CUDA_CHECK(cudaMallocHost((void **)&b->host_out, N_OUT * sizeof(float)));
    CUDA_CHECK(cudaMalloc((void **)&b->device, N_IN * sizeof(float)));
}

static void buffers_free(buffers *b)
{
    free(b->host_in);
    CUDA_CHECK(cudaFreeHost(b->host_out));
    CUDA_CHECK(cudaFree(b->device));
}

/* A host flow in miniature, on the default stream. */
static void copy_kernel_copy(const buffers *b)
{
    CUDA_CHECK(cudaMemcpy(b->device, b->host_in, N_IN * sizeof(float), cudaMemcpyHostToDevice));
    activity_test_scale(b->device, N_IN, 0);
    CUDA_CHECK(cudaMemcpy(b->host_out, b->device, N_OUT * sizeof(float), cudaMemcpyDeviceToHost));
}

static void start_recording(void)
{
    char why[512];
    GRADER_CHECK(activity_start(why, sizeof why) == 0, "activity_start failed: %s", why);
}

static void stop_recording(activity_log *log, size_t expected_count, const char *what)
{
    GRADER_CHECK(activity_stop(log) == 0, "%s: activity_stop failed", what);
    char seen[512];
    activity_describe(log, seen, sizeof seen);
    GRADER_CHECK(log->count == expected_count && log->dropped == 0,
                 "%s: expected %zu events, recorded %zu: %s", what, expected_count, log->count,
                 seen);
}

/* The three events of copy_kernel_copy, in order, on one stream. */
static void expect_copy_kernel_copy(const activity_log *log, const buffers *b)
{
    const activity_event *in = &log->events[0], *k = &log->events[1], *out = &log->events[2];
    GRADER_CHECK(in->kind == ACTIVITY_MEMCPY && in->copy == COPY_HOST_TO_DEVICE &&
                     in->bytes == N_IN * sizeof(float) && !in->pinned_host,
                 "first event: expected a 4096 B H2D copy from pageable memory (kind %d, "
                 "direction %d, %llu B, pinned %d)",
                 (int)in->kind, (int)in->copy, in->bytes, in->pinned_host);
    GRADER_CHECK(k->kind == ACTIVITY_KERNEL && strcmp(k->name, "activity_test_scale_kernel") == 0,
                 "second event: expected the kernel activity_test_scale_kernel (kind %d, "
                 "name \"%s\")",
                 (int)k->kind, k->name);
    GRADER_CHECK(out->kind == ACTIVITY_MEMCPY && out->copy == COPY_DEVICE_TO_HOST &&
                     out->bytes == N_OUT * sizeof(float) && out->pinned_host,
                 "third event: expected a 1024 B D2H copy to pinned memory (kind %d, "
                 "direction %d, %llu B, pinned %d)",
                 (int)out->kind, (int)out->copy, out->bytes, out->pinned_host);
    GRADER_CHECK(in->stream_id == k->stream_id && k->stream_id == out->stream_id,
                 "all three ran on the default stream, but stream ids are %u, %u, %u",
                 in->stream_id, k->stream_id, out->stream_id);
    /* One stream runs its work in order, so the times must not overlap. */
    GRADER_CHECK(in->start_ns > 0 && in->start_ns <= in->end_ns && in->end_ns <= k->start_ns &&
                     k->start_ns <= k->end_ns && k->end_ns <= out->start_ns &&
                     out->start_ns <= out->end_ns,
                 "times out of order: H2D %llu-%llu, kernel %llu-%llu, D2H %llu-%llu ns",
                 in->start_ns, in->end_ns, k->start_ns, k->end_ns, out->start_ns, out->end_ns);
    const activity_buffer input = {"in", N_IN * sizeof(float)};
    const activity_buffer output = {"out", N_OUT * sizeof(float)};
    char why[256];
    GRADER_CHECK(activity_shows_host_flow(log, &input, 1, output, why, sizeof why),
                 "activity_shows_host_flow rejected a real host flow: missing %s", why);
    for (int i = 0; i < N_OUT; ++i)
        GRADER_CHECK(b->host_out[i] == 2.0f * (float)i, "out[%d] = %g, expected %g", i,
                     (double)b->host_out[i], 2.0 * i);
}

void gpu_records_copy_kernel_copy(void **state)
{
    (void)state;
    grader_require_gpu();
    buffers b;
    buffers_init(&b);
    /* Once unrecorded first: the context and the kernel's module are
     * loaded then, so the recording holds only the work itself. */
    copy_kernel_copy(&b);
    start_recording();
    copy_kernel_copy(&b);
    activity_log log;
    stop_recording(&log, 3, "copy, kernel, copy");
    expect_copy_kernel_copy(&log, &b);
    activity_log_free(&log);
    buffers_free(&b);
}

void gpu_recorder_restarts_cleanly(void **state)
{
    (void)state;
    grader_require_gpu();
    buffers b;
    buffers_init(&b);
    copy_kernel_copy(&b);
    activity_log log;
    char why[512] = "";
    GRADER_CHECK(activity_stop(&log) == -1 && log.count == 0 && log.events == NULL,
                 "activity_stop without activity_start must fail with an empty log");

    start_recording();
    GRADER_CHECK(activity_start(why, sizeof why) == -1 && strstr(why, "already recording"),
                 "a second activity_start must fail saying so (it said: \"%s\")", why);
    stop_recording(&log, 0, "nothing between start and stop");
    activity_log_free(&log);

    unsigned default_stream = 0;
    for (int round = 0; round < 3; ++round) {
        start_recording();
        copy_kernel_copy(&b);
        stop_recording(&log, 3, "copy, kernel, copy (again)");
        expect_copy_kernel_copy(&log, &b);
        default_stream = log.events[0].stream_id;
        activity_log_free(&log);
    }

    /* Another stream: a memset and a device-to-device copy, nothing else. */
    cudaStream_t stream;
    CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    enum { HALF = N_IN / 2 };
    start_recording();
    CUDA_CHECK(cudaMemsetAsync(b.device, 0, HALF * sizeof(float), stream));
    CUDA_CHECK(cudaMemcpyAsync(b.device + HALF, b.device, HALF * sizeof(float),
                               cudaMemcpyDeviceToDevice, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    stop_recording(&log, 2, "memset and D2D copy on a stream");
    const activity_event *set = &log.events[0], *copy = &log.events[1];
    GRADER_CHECK(set->kind == ACTIVITY_MEMSET && set->bytes == HALF * sizeof(float) &&
                     copy->kind == ACTIVITY_MEMCPY && copy->copy == COPY_DEVICE_TO_DEVICE &&
                     copy->bytes == HALF * sizeof(float),
                 "expected a 2048 B memset then a 2048 B D2D copy");
    GRADER_CHECK(set->stream_id == copy->stream_id && set->stream_id != default_stream,
                 "stream ids: memset %u, copy %u, default stream %u (expected the first two "
                 "equal and different from the third)",
                 set->stream_id, copy->stream_id, default_stream);
    activity_log_free(&log);
    CUDA_CHECK(cudaStreamDestroy(stream));
    buffers_free(&b);
}

#define TEST(fn, group) GRADER_TEST(fn, group, 0)

static const grader_test tests[] = {
    TEST(cpu_kernel_short_names, GROUP_CPU),
    TEST(cpu_log_sorts_counts_and_frees, GROUP_CPU),
    TEST(cpu_describe_lists_each_kind, GROUP_CPU),
    TEST(cpu_describe_says_what_is_missing, GROUP_CPU),
    TEST(cpu_host_flow_accepted, GROUP_CPU),
    TEST(cpu_host_flow_rejections_name_what_is_missing, GROUP_CPU),
    TEST(gpu_records_copy_kernel_copy, GROUP_GPU),
    TEST(gpu_recorder_restarts_cleanly, GROUP_GPU),
};

int main(int argc, char **argv)
{
    grader_suite suite = {"activity", "activity recorder",
                          "grader/harness/checks/activity_recorder.h", GRADER_IMPLEMENTATION,
                          tests, sizeof tests / sizeof tests[0],
                          .concurrent_streams = 0};
    return grader_main(&suite, argc, argv);
}
