/* The activity log on hand-made events: what a host flow check decides and
 * what its messages say must not depend on having a GPU to test them. */
#include <string.h>

#include "activity_recorder.h"
#include "activity_tests.h"

/* A copy (kind ACTIVITY_MEMCPY), memset or kernel from start to end. */
static activity_event copy_event(activity_copy_kind copy, unsigned long long bytes,
                                 unsigned long long start, unsigned long long end)
{
    activity_event e = {.kind = ACTIVITY_MEMCPY, .copy = copy, .bytes = bytes,
                        .start_ns = start, .end_ns = end, .stream_id = 7};
    return e;
}

static activity_event kernel_event(const char *name, unsigned long long start,
                                   unsigned long long end)
{
    activity_event e = {.kind = ACTIVITY_KERNEL, .start_ns = start, .end_ns = end,
                        .stream_id = 7};
    strncpy(e.name, name, sizeof e.name - 1);
    return e;
}

static activity_event memset_event(unsigned long long bytes, unsigned long long start)
{
    activity_event e = {.kind = ACTIVITY_MEMSET, .bytes = bytes, .start_ns = start,
                        .end_ns = start + 5, .stream_id = 7};
    return e;
}

static void add(activity_log *log, activity_event e)
{
    GRADER_CHECK(activity_log_append(log, &e) == 0, "activity_log_append failed");
}

static void expect_text(const char *got, const char *want, const char *what)
{
    GRADER_CHECK(strcmp(got, want) == 0, "%s: got \"%s\", expected \"%s\"", what, got, want);
}

void cpu_kernel_short_names(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        {"_Z19naive_matmul_kernelPKfS0_Pfiii", "naive_matmul_kernel"},
        {"_ZN4labs6kernelEPf", "labs::kernel"},
        {"_ZN12_GLOBAL__N_16kernelEv", "kernel"},
        {"_ZL6hiddenPf", "hidden"},
        {"_Z6kernelILi32EEvPf", "kernel"},
        {"plain_c_kernel", "plain_c_kernel"},
        {"_Z99short", "_Z99short"},            /* length past the end: left alone */
        {"_ZN4labsS_6kernelEv", "_ZN4labsS_6kernelEv"}, /* substitution: left alone */
        {"_ZNE", "_ZNE"},                      /* an empty scope: nothing better to say */
    };
    char out[ACTIVITY_NAME_SIZE];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        activity_kernel_short_name(cases[i][0], out, sizeof out);
        expect_text(out, cases[i][1], cases[i][0]);
    }
    activity_kernel_short_name(NULL, out, sizeof out);
    expect_text(out, "", "NULL");
    char small[8];
    activity_kernel_short_name("_Z19naive_matmul_kernelPKfS0_Pfiii", small, sizeof small);
    expect_text(small, "naive_m", "truncated");
}

void cpu_log_sorts_counts_and_frees(void **state)
{
    (void)state;
    activity_log log = {0};
    add(&log, copy_event(COPY_DEVICE_TO_HOST, 12, 300, 310));
    add(&log, kernel_event("k", 200, 250));
    for (int i = 0; i < 100; ++i) /* past the first allocation */
        add(&log, copy_event(COPY_HOST_TO_DEVICE, 8, 100 - (unsigned)i, 101 - (unsigned)i));
    activity_log_sort(&log);
    for (size_t i = 1; i < log.count; ++i)
        GRADER_CHECK(log.events[i - 1].start_ns <= log.events[i].start_ns,
                     "not sorted at %zu", i);
    GRADER_CHECK(log.events[log.count - 1].copy == COPY_DEVICE_TO_HOST, "D2H should be last");
    GRADER_CHECK(activity_count(&log, ACTIVITY_MEMCPY, COPY_ANY, 0) == 101, "any copy");
    GRADER_CHECK(activity_count(&log, ACTIVITY_MEMCPY, COPY_HOST_TO_DEVICE, 8) == 100, "H2D 8 B");
    GRADER_CHECK(activity_count(&log, ACTIVITY_MEMCPY, COPY_HOST_TO_DEVICE, 12) == 0, "H2D 12 B");
    GRADER_CHECK(activity_count(&log, ACTIVITY_MEMCPY, COPY_DEVICE_TO_HOST, 12) == 1, "D2H");
    GRADER_CHECK(activity_count(&log, ACTIVITY_KERNEL, COPY_ANY, 0) == 1, "kernels");
    GRADER_CHECK(activity_count(&log, ACTIVITY_MEMSET, COPY_ANY, 0) == 0, "memsets");
    activity_log_free(&log);
    GRADER_CHECK(log.events == NULL && log.count == 0 && log.capacity == 0,
                 "activity_log_free must leave an empty log");
    activity_log_free(&log); /* twice is harmless */
}

void cpu_describe_lists_each_kind(void **state)
{
    (void)state;
    activity_log log = {0};
    char text[512];
    add(&log, copy_event(COPY_HOST_TO_DEVICE, 20480, 10, 20));
    add(&log, copy_event(COPY_HOST_TO_DEVICE, 15360, 30, 40));
    add(&log, kernel_event("naive_matmul_kernel", 50, 60));
    add(&log, copy_event(COPY_DEVICE_TO_HOST, 12288, 70, 80));
    activity_describe(&log, text, sizeof text);
    expect_text(text,
                "2 H2D copies (20480 B, 15360 B), 1 kernel (naive_matmul_kernel), "
                "1 D2H copy (12288 B)",
                "a host flow");
    for (int i = 0; i < 3; ++i) /* the same kernel again: named once */
        add(&log, kernel_event("naive_matmul_kernel", 90 + 10 * (unsigned)i, 95));
    add(&log, kernel_event("other", 130, 140));
    add(&log, copy_event(COPY_DEVICE_TO_DEVICE, 64, 150, 160));
    add(&log, copy_event(COPY_OTHER, 32, 170, 180));
    for (int i = 0; i < 6; ++i)
        add(&log, memset_event(4 * (unsigned)(i + 1), 200 + 10 * (unsigned)i));
    activity_describe(&log, text, sizeof text);
    expect_text(text,
                "2 H2D copies (20480 B, 15360 B), 5 kernels (naive_matmul_kernel, other), "
                "1 D2H copy (12288 B), 1 D2D copy (64 B), 1 other copy (32 B), "
                "6 memsets (4 B, 8 B, 12 B, 16 B, ...)",
                "every kind");
    char tiny[16];
    activity_describe(&log, tiny, sizeof tiny);
    GRADER_CHECK(strlen(tiny) == sizeof tiny - 1, "a small buffer is filled, not overrun");
    activity_log_free(&log);
}

void cpu_describe_says_what_is_missing(void **state)
{
    (void)state;
    activity_log log = {0};
    char text[256];
    activity_describe(&log, text, sizeof text);
    expect_text(text, "no copies and no kernel", "empty");
    add(&log, memset_event(48, 1));
    activity_describe(&log, text, sizeof text);
    expect_text(text, "1 memset (48 B), no copies and no kernel", "a memset only");
    add(&log, kernel_event("k", 5, 6));
    activity_describe(&log, text, sizeof text);
    expect_text(text, "1 kernel (k), 1 memset (48 B), no copies", "no copies");
    activity_log_free(&log);
    add(&log, copy_event(COPY_HOST_TO_DEVICE, 4, 1, 2));
    log.dropped = 3;
    activity_describe(&log, text, sizeof text);
    expect_text(text, "1 H2D copy (4 B), no kernel (3 records lost)", "no kernel, dropped");
    activity_log_free(&log);
}

/* ------------------------------------------------------------ host flow */

static const activity_buffer A = {"A", 20480}, B = {"B", 15360}, C = {"C", 12288};

/* The right flow on one stream: A in, B in, kernel, C out. */
static void right_flow(activity_log *log)
{
    add(log, copy_event(COPY_HOST_TO_DEVICE, A.bytes, 10, 20));
    add(log, copy_event(COPY_HOST_TO_DEVICE, B.bytes, 30, 40));
    add(log, kernel_event("naive_matmul_kernel", 50, 60));
    add(log, copy_event(COPY_DEVICE_TO_HOST, C.bytes, 70, 80));
}

static void expect_verdict(const activity_log *log, const activity_buffer *inputs, size_t n,
                           activity_buffer output, int want, const char *want_why,
                           const char *what)
{
    char why[256] = "";
    int got = activity_shows_host_flow(log, inputs, n, output, why, sizeof why);
    GRADER_CHECK(got == want, "%s: verdict %d, expected %d (why: %s)", what, got, want, why);
    if (!want)
        expect_text(why, want_why, what);
}

void cpu_host_flow_accepted(void **state)
{
    (void)state;
    const activity_buffer ab[] = {A, B}, ba[] = {B, A};
    activity_log log = {0};
    right_flow(&log);
    expect_verdict(&log, ab, 2, C, 1, NULL, "the right flow");
    expect_verdict(&log, ba, 2, C, 1, NULL, "inputs named in the other order");
    /* Extra work around it does not matter; the D2H copy is judged against
     * the last kernel. */
    add(&log, memset_event(C.bytes, 45));
    add(&log, kernel_event("second", 62, 68));
    add(&log, copy_event(COPY_DEVICE_TO_HOST, 4, 90, 95));
    activity_log_sort(&log);
    expect_verdict(&log, ab, 2, C, 1, NULL, "with extra work");
    activity_log_free(&log);
    /* A square problem: A and B have the same size, two copies of it. */
    const activity_buffer a2 = {"A", 4096}, b2 = {"B", 4096}, c2 = {"C", 4096};
    const activity_buffer square[] = {a2, b2};
    add(&log, copy_event(COPY_HOST_TO_DEVICE, 4096, 10, 20));
    add(&log, copy_event(COPY_HOST_TO_DEVICE, 4096, 30, 40));
    add(&log, kernel_event("k", 50, 60));
    add(&log, copy_event(COPY_DEVICE_TO_HOST, 4096, 60, 80)); /* starts as the kernel ends */
    expect_verdict(&log, square, 2, c2, 1, NULL, "a square problem");
    activity_log_free(&log);
}

void cpu_host_flow_rejections_name_what_is_missing(void **state)
{
    (void)state;
    const activity_buffer ab[] = {A, B};
    activity_log log = {0};
    /* A host flow that computes C on the CPU: the GPU sees nothing. */
    expect_verdict(&log, ab, 2, C, 0, "a kernel", "nothing on the GPU");

    add(&log, kernel_event("k", 50, 60));
    expect_verdict(&log, ab, 2, C, 0, "a host-to-device copy of A (20480 B)", "kernel only");

    add(&log, copy_event(COPY_HOST_TO_DEVICE, A.bytes, 10, 20));
    add(&log, copy_event(COPY_HOST_TO_DEVICE, B.bytes, 70, 80)); /* after the kernel */
    expect_verdict(&log, ab, 2, C, 0,
                   "a host-to-device copy of B (15360 B) before the last kernel finished",
                   "B copied in too late");
    activity_log_free(&log);

    right_flow(&log);
    log.events[3].bytes = 4; /* C copied out with the wrong size */
    expect_verdict(&log, ab, 2, C, 0, "a device-to-host copy of C (12288 B)", "wrong D2H size");
    log.events[3].bytes = C.bytes;
    log.events[3].start_ns = 55; /* copied out while the kernel still ran */
    expect_verdict(&log, ab, 2, C, 0,
                   "a device-to-host copy of C (12288 B) after the last kernel ended",
                   "D2H too early");
    log.events[3].start_ns = 70;
    log.events[2].start_ns = log.events[2].end_ns = 0;
    expect_verdict(&log, ab, 2, C, 0,
                   "kernel times (CUPTI could not time a kernel, so the order is unknown)",
                   "untimed kernel");
    activity_log_free(&log);

    /* Equal sizes need a copy each. */
    const activity_buffer a2 = {"A", 4096}, b2 = {"B", 4096}, c2 = {"C", 64};
    const activity_buffer square[] = {a2, b2};
    add(&log, copy_event(COPY_HOST_TO_DEVICE, 4096, 10, 20));
    add(&log, kernel_event("k", 50, 60));
    add(&log, copy_event(COPY_DEVICE_TO_HOST, 64, 70, 80));
    expect_verdict(&log, square, 2, c2, 0, "a host-to-device copy of B (4096 B) of its own",
                   "one copy for two inputs");
    activity_log_free(&log);
}
