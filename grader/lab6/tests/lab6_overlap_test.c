/* Lab 6's overlap judge on hand-made timelines: what it decides for a
 * serial pipeline, a depth-first and a breadth-first overlapped one,
 * everything in the default stream, pageable copies, a synchronised loop
 * and one copy engine must not depend on having a GPU to test it. */
#include <string.h>

#include "harness.h"
#include "lab6_overlap.h"
#include "lab6_rubric.h"

enum { DEFAULT_STREAM = 7, CHUNKS = 4 };

/* Times in microseconds (as ns, the unit does not matter). A copy of a
 * chunk takes 10, a kernel 8. */
static void add(activity_log *log, activity_kind kind, activity_copy_kind copy,
                unsigned long long start, unsigned long long length, unsigned stream,
                int pinned)
{
    activity_event e = {.kind = kind, .copy = copy, .bytes = kind == ACTIVITY_KERNEL ? 0 : 4096,
                        .start_ns = start, .end_ns = start + length, .stream_id = stream,
                        .pinned_host = pinned};
    if (kind == ACTIVITY_KERNEL)
        strcpy(e.name, "lab6_transform_kernel");
    GRADER_CHECK(activity_log_append(log, &e) == 0, "activity_log_append failed");
}

static void add_chunk(activity_log *log, unsigned long long h2d, unsigned long long kernel,
                      unsigned long long d2h, unsigned stream, int pinned)
{
    add(log, ACTIVITY_MEMCPY, COPY_HOST_TO_DEVICE, h2d, 10, stream, pinned);
    add(log, ACTIVITY_KERNEL, COPY_OTHER, kernel, 8, stream, 0);
    add(log, ACTIVITY_MEMCPY, COPY_DEVICE_TO_HOST, d2h, 10, stream, pinned);
}

/* Each chunk's stages one after another, nothing overlapping. */
static void serial_timeline(activity_log *log, int streams_differ, int pinned)
{
    for (unsigned c = 0; c < CHUNKS; ++c) {
        unsigned long long t = 28ULL * c;
        add_chunk(log, t, t + 10, t + 18, streams_differ ? 20 + c : DEFAULT_STREAM, pinned);
    }
}

/* Depth-first on a GPU with a copy engine each way: chunk c's H2D right
 * after chunk c-1's, its kernel after its H2D, its D2H after its kernel. */
static void depth_first_timeline(activity_log *log)
{
    for (unsigned c = 0; c < CHUNKS; ++c)
        add_chunk(log, 10ULL * c, 10ULL * c + 10, 10ULL * c + 18, 20 + c, 1);
}

/* Breadth-first: all H2D back to back, each kernel after its copy, the
 * D2Hs behind the kernels (and behind one another). */
static void breadth_first_timeline(activity_log *log)
{
    for (unsigned c = 0; c < CHUNKS; ++c)
        add_chunk(log, 10ULL * c, 10ULL * c + 10, 10ULL * c + 20, 20 + c, 1);
}

/* One copy engine (one queue): H2D and D2H never run together, though the
 * kernels still overlap copies. */
static void one_copy_engine_timeline(activity_log *log)
{
    unsigned long long t = 0;
    for (unsigned c = 0; c < CHUNKS; ++c, t += 20) {
        add(log, ACTIVITY_MEMCPY, COPY_HOST_TO_DEVICE, t, 10, 20 + c, 1);
        add(log, ACTIVITY_KERNEL, COPY_OTHER, t + 10, 8, 20 + c, 0);
        add(log, ACTIVITY_MEMCPY, COPY_DEVICE_TO_HOST, t + 10, 10, 30 + c, 1);
    }
}

static lab6_expected_work expected = {CHUNKS * 4096.0, 30.0};

static int judge(const activity_log *log, char *why, size_t size)
{
    lab6_overlap o;
    lab6_overlap_measure(log, DEFAULT_STREAM, 1, &o);
    /* Every chunk's copies move 4096 bytes; the kernels (8 each) are busy
     * 32 in all in the overlapped timelines. */
    return lab6_overlap_judge(&o, &expected, LAB6_MIN_COPY_KERNEL_OVERLAP,
                              LAB6_MIN_COPY_COPY_OVERLAP, why, size);
}

static void expect_rejected(activity_log *log, const char *what, const char *needle)
{
    char why[640] = "";
    activity_log_sort(log);
    GRADER_CHECK(!judge(log, why, sizeof why), "%s: judged as overlapped", what);
    GRADER_CHECK(strstr(why, needle) != NULL, "%s: the message \"%s\" does not say \"%s\"", what,
                 why, needle);
    activity_log_free(log);
}

static void expect_accepted(activity_log *log, const char *what)
{
    char why[640] = "";
    activity_log_sort(log);
    GRADER_CHECK(judge(log, why, sizeof why), "%s: rejected: %s", what, why);
    activity_log_free(log);
}

void cpu_depth_and_breadth_first_overlap(void **state)
{
    (void)state;
    activity_log log = {0};
    depth_first_timeline(&log);
    lab6_overlap o;
    lab6_overlap_measure(&log, DEFAULT_STREAM, 1, &o);
    GRADER_CHECK(o.h2d == CHUNKS && o.kernels == CHUNKS && o.d2h == CHUNKS &&
                     o.streams_used == CHUNKS && o.on_default == 0 && o.pageable == 0,
                 "depth-first: counted %zu H2D, %zu kernels, %zu D2H in %zu streams (%zu on the "
                 "default stream, %zu pageable)",
                 o.h2d, o.kernels, o.d2h, o.streams_used, o.on_default, o.pageable);
    /* H2D busy 0..40, four kernels of 8 in 10..48, D2H 18..58: copies busy
     * 0..58, every kernel beside a copy, H2D and D2H together in 18..40. */
    GRADER_CHECK(o.h2d_ns == 40 && o.kernel_ns == 32 && o.d2h_ns == 40 && o.copy_ns == 58,
                 "depth-first busy times: H2D %.0f, kernel %.0f, D2H %.0f, copies %.0f",
                 o.h2d_ns, o.kernel_ns, o.d2h_ns, o.copy_ns);
    GRADER_CHECK(o.copy_kernel_ns == 32 && o.h2d_d2h_ns == 22,
                 "depth-first overlaps: copy/kernel %.0f (expected 32), H2D/D2H %.0f (22)",
                 o.copy_kernel_ns, o.h2d_d2h_ns);
    expect_accepted(&log, "depth-first");
    breadth_first_timeline(&log);
    expect_accepted(&log, "breadth-first");
}

void cpu_serial_pipelines_rejected(void **state)
{
    (void)state;
    activity_log log = {0};
    serial_timeline(&log, 0, 1);
    expect_rejected(&log, "everything in the default stream", "default stream");
    serial_timeline(&log, 1, 1);
    expect_rejected(&log, "one stream per chunk, but a wait after each chunk", "serialised");
    serial_timeline(&log, 1, 0);
    expect_rejected(&log, "pageable host memory", "pageable");
    /* One non-default stream for everything. */
    serial_timeline(&log, 0, 1);
    for (size_t i = 0; i < log.count; ++i)
        log.events[i].stream_id = 21;
    expect_rejected(&log, "a single non-default stream", "one stream");
}

void cpu_partial_overlaps_rejected(void **state)
{
    (void)state;
    activity_log log = {0};
    one_copy_engine_timeline(&log);
    expect_rejected(&log, "one copy engine", "host-to-device and device-to-host");
    /* Overlapped, but the kernels in the default stream. */
    depth_first_timeline(&log);
    for (size_t i = 0; i < log.count; ++i)
        if (log.events[i].kind == ACTIVITY_KERNEL)
            log.events[i].stream_id = DEFAULT_STREAM;
    expect_rejected(&log, "kernels in the default stream", "in the default stream");
    /* No D2H at all. */
    for (unsigned c = 0; c < CHUNKS; ++c) {
        add(&log, ACTIVITY_MEMCPY, COPY_HOST_TO_DEVICE, 10ULL * c, 10, 20 + c, 1);
        add(&log, ACTIVITY_KERNEL, COPY_OTHER, 10ULL * c + 10, 8, 20 + c, 0);
    }
    expect_rejected(&log, "no copy back", "0 D2H copies");
    /* Untimed records cannot be judged. */
    depth_first_timeline(&log);
    log.events[0].start_ns = log.events[0].end_ns = 0;
    expect_rejected(&log, "an untimed record", "could not time");
}

/* Copies and kernels that overlap well, but the kernels too short for the
 * work (they skipped it), or a chunk that never came back. */
void cpu_work_not_done_rejected(void **state)
{
    (void)state;
    activity_log log = {0};
    depth_first_timeline(&log);
    expected.min_kernel_ns = 33.0;
    expect_rejected(&log, "kernels shorter than the work needs", "the kernels did not do the work");
    expected.min_kernel_ns = 30.0;
    depth_first_timeline(&log);
    log.events[log.count - 1].bytes = 1024;
    expect_rejected(&log, "a short last copy back", "device-to-host copies 0.0 MiB");
}

static const grader_test tests[] = {
    GRADER_TEST(cpu_depth_and_breadth_first_overlap, GROUP_CPU, 1),
    GRADER_TEST(cpu_serial_pipelines_rejected, GROUP_CPU, 1),
    GRADER_TEST(cpu_partial_overlaps_rejected, GROUP_CPU, 1),
    GRADER_TEST(cpu_work_not_done_rejected, GROUP_CPU, 1),
};

int main(int argc, char **argv)
{
    grader_suite suite = {"lab6_overlap_test", "Lab 6's overlap judge on hand-made timelines",
                          "grader/lab6/lab6_overlap.h", GRADER_IMPLEMENTATION, tests,
                          sizeof tests / sizeof tests[0], .concurrent_streams = 0};
    return grader_main(&suite, argc, argv);
}
