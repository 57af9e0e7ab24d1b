/* Lab 2 timing checks (TODO(2.10), (2.11), handout section 5.2): the
 * student times their own kernel with CUDA events. The grader checks the
 * rate arithmetic on the CPU, and on the GPU watches the same call through
 * CUPTI: how many kernels it launched (warm-ups + runs) and how long the
 * GPU itself says they took, which the student's median must agree with. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "activity_recorder.h"
#include "device_buffer.h"
#include "harness.h"
#include "lab2_checks.h"
#include "lab2_rubric.h"

#define TIMING_SECTION "5.2"

/* ---------------------------------------------------------------- CPU */

void cpu_gflops_worked_cases(void **state)
{
    (void)state;
    const struct {
        int m, n, k;
        double ms;
    } cases[] = {
        {1, 1, 1, 1.0},         /* 2 flops in a millisecond: 2e-6 GFLOP/s */
        {1000, 1000, 1000, 2.0}, /* 2e9 flops in 2 ms: 1000 GFLOP/s */
        {2048, 2048, 2048, 2.8},
        {4096, 4096, 4096, 22.5}, /* 2 m n k = 1.37e11: past any int */
        {1000, 999, 1001, 0.5},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        double want = 2.0 * cases[i].m * cases[i].n * cases[i].k / (cases[i].ms * 1e6);
        double got = lab2_gflops(cases[i].m, cases[i].n, cases[i].k, cases[i].ms);
        GRADER_CHECK(isfinite(got) && fabs(got - want) <= 1e-9 * want,
                     "TODO(2.10) lab2_gflops(m=%d, n=%d, k=%d, ms=%g) returned %.9g, expected "
                     "%.9g GFLOP/s: 2 m n k operations (one multiply and one add per term of "
                     "each dot product) over the time in seconds, over 1e9.%s See %s, section %s.",
                     cases[i].m, cases[i].n, cases[i].k, cases[i].ms, got, want,
                     (got < 0 || fabs(got) < 0.5 * want) && cases[i].m >= 2048
                         ? " Counted in int, 2 m n k overflows from 1024^3 on: use double."
                         : "",
                     LAB2_HANDOUT, TIMING_SECTION);
    }
}

/* ---------------------------------------------------------------- GPU */

typedef struct {
    device_buffer a, b, c;
    int m, n, k;
} timing_problem;

static void timing_problem_init(timing_problem *p, int m, int n, int k)
{
    p->m = m;
    p->n = n;
    p->k = k;
    dbuf_alloc(&p->a, "A", (size_t)m * k * sizeof(float));
    dbuf_alloc(&p->b, "B", (size_t)k * n * sizeof(float));
    dbuf_alloc(&p->c, "C", (size_t)m * n * sizeof(float));
    /* Values do not matter for timing; 1.0f keeps every sum finite. */
    device_fill_u32(p->a.data, 0x3f800000u, (size_t)m * k);
    device_fill_u32(p->b.data, 0x3f800000u, (size_t)k * n);
}

static void timing_problem_free(timing_problem *p)
{
    dbuf_free(&p->a);
    dbuf_free(&p->b);
    dbuf_free(&p->c);
}

static void start_recording(const char *call)
{
    char why[256];
    if (activity_start(why, sizeof why) != 0)
        GRADER_FAIL("%s: the GPU's activity could not be recorded (%s), so the timing cannot be "
                    "checked. This is a problem of the grading machine, not of your code.",
                    call, why);
}

static int compare_doubles(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* The median duration (ms) of the last `runs` kernels of the log, by the
 * GPU's own clock; -1 when CUPTI did not time them. */
static double device_median_ms(const activity_log *log, int runs)
{
    double *ms = grader_malloc(sizeof(double) * (size_t)runs);
    int found = 0;
    for (size_t i = log->count; i-- > 0 && found < runs;) {
        const activity_event *e = &log->events[i];
        if (e->kind != ACTIVITY_KERNEL)
            continue;
        if (e->end_ns <= e->start_ns) {
            free(ms);
            return -1.0;
        }
        ms[found++] = (double)(e->end_ns - e->start_ns) * 1e-6;
    }
    double median = -1.0;
    if (found == runs) {
        qsort(ms, (size_t)runs, sizeof(double), compare_doubles);
        median = runs % 2 ? ms[runs / 2] : 0.5 * (ms[runs / 2 - 1] + ms[runs / 2]);
    }
    free(ms);
    return median;
}

void gpu_timing_rejects_bad_input(void **state)
{
    (void)state;
    grader_require_gpu();
    timing_problem p;
    timing_problem_init(&p, 64, 64, 64);
    float median = -1.0f;
    grader_watch("lab2_time_naive on 64x64x64, 1 warm-up, 1 run",
                 grader_call_limit_s(3.0 * 64 * 64 * 4, 2.0 * 2 * 64 * 64 * 64));
    lab_status status = lab2_time_naive(p.a.data, p.b.data, p.c.data, 64, 64, 64, 1, 1, &median);
    grader_unwatch();
    GRADER_CHECK(status == LAB_OK && median > 0.0f,
                 "TODO(2.11) lab2_time_naive on 64x64x64 (1 warm-up, 1 run) returned %s with a "
                 "median of %g ms: a valid call must return LAB_OK and a positive time (%s). "
                 "See %s, section %s.",
                 lab_status_name(status), median, status == LAB_OK ? "ok" : lab_last_error(),
                 LAB2_HANDOUT, TIMING_SECTION);

    const float *a = p.a.data, *b = p.b.data;
    float *c = p.c.data;
    const struct {
        const char *what;
        const float *a;
        int m, warmups, runs;
        int null_median;
    } bad[] = {
        {"runs=0", a, 64, 1, 0, 0},
        {"runs=LAB2_MAX_TIMED_RUNS+1", a, 64, 1, LAB2_MAX_TIMED_RUNS + 1, 0},
        {"warmups=-1", a, 64, -1, 3, 0},
        {"median_ms=NULL", a, 64, 1, 3, 1},
        {"m=0", a, 0, 1, 3, 0},
        {"a=NULL", NULL, 64, 1, 3, 0},
    };
    start_recording("lab2_time_naive with bad input");
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        median = -1.0f;
        status = lab2_time_naive(bad[i].a, b, c, bad[i].m, 64, 64, bad[i].warmups, bad[i].runs,
                                 bad[i].null_median ? NULL : &median);
        if (status == LAB_OK || median != -1.0f) {
            activity_log log;
            activity_stop(&log);
            activity_log_free(&log);
            GRADER_FAIL("TODO(2.11) lab2_time_naive(%s) returned %s and %s; bad input must "
                        "return an error status before anything is launched, and leave "
                        "*median_ms alone. See %s, section %s.",
                        bad[i].what, lab_status_name(status),
                        median != -1.0f ? "wrote *median_ms" : "left *median_ms alone",
                        LAB2_HANDOUT, TIMING_SECTION);
        }
    }
    activity_log log;
    activity_stop(&log);
    size_t kernels = activity_count(&log, ACTIVITY_KERNEL, COPY_ANY, 0);
    activity_log_free(&log);
    timing_problem_free(&p);
    GRADER_CHECK(kernels == 0,
                 "TODO(2.11) lab2_time_naive launched %zu kernels on bad input; check the "
                 "arguments before the first launch. See %s, section %s.",
                 kernels, LAB2_HANDOUT, TIMING_SECTION);
}

/* One call of the student's timing under the recorder: the launches it
 * made and its median against the GPU's own record of the timed kernels. */
static void expect_timing_matches(timing_problem *p, int warmups, int runs)
{
    char call[128];
    snprintf(call, sizeof call, "lab2_time_naive on %dx%dx%d, %d warm-ups, %d runs", p->m, p->n,
             p->k, warmups, runs);
    double flops = 2.0 * p->m * p->n * p->k;
    float student_ms = -1.0f;
    start_recording(call);
    grader_watch(call, grader_call_limit_s(0.0, flops * (warmups + runs)));
    lab_status status = lab2_time_naive(p->a.data, p->b.data, p->c.data, p->m, p->n, p->k,
                                        warmups, runs, &student_ms);
    grader_unwatch();
    activity_log log;
    int stopped = activity_stop(&log);
    size_t kernels = activity_count(&log, ACTIVITY_KERNEL, COPY_ANY, 0);
    double device_ms = device_median_ms(&log, runs);
    activity_log_free(&log);

    GRADER_CHECK(status == LAB_OK, "TODO(2.11) %s returned %s: %s. See %s, section %s.", call,
                 lab_status_name(status), lab_last_error(), LAB2_HANDOUT, TIMING_SECTION);
    GRADER_CHECK(stopped == 0 && device_ms > 0.0,
                 "%s: CUPTI did not time the kernels, so the timing cannot be checked. This is "
                 "a problem of the grading machine, not of your code.",
                 call);
    GRADER_CHECK(kernels == (size_t)(warmups + runs),
                 "TODO(2.11) %s launched %zu kernels; expected %d (%d untimed warm-ups, then %d "
                 "timed runs, one lab2_matmul_naive each). See %s, section %s.",
                 call, kernels, warmups + runs, warmups, runs, LAB2_HANDOUT, TIMING_SECTION);
    double ratio = student_ms / device_ms;
    grader_metric("student_median_ms", student_ms, "ms");
    grader_metric("device_median_ms", device_ms, "ms");
    grader_metric("student_over_device", ratio, "ratio");
    grader_metric("student_GFLOPs", flops / (student_ms * 1e6), "GFLOP/s");
    grader_note("%s: your median %.4f ms (%.1f GFLOP/s by lab2_gflops), the GPU's own record "
                "%.4f ms: ratio %.3f",
                call, student_ms, lab2_gflops(p->m, p->n, p->k, student_ms), device_ms, ratio);
    GRADER_CHECK(isfinite(ratio) && ratio >= LAB2_TIMING_RATIO_MIN &&
                     ratio <= LAB2_TIMING_RATIO_MAX,
                 "TODO(2.11) %s: your median is %.4f ms, but the GPU's own record of the same %d "
                 "timed kernels has a median of %.4f ms (ratio %.3f; %.2f to %.2f passes). %s "
                 "See %s, section %s.",
                 call, student_ms, runs, device_ms, ratio, LAB2_TIMING_RATIO_MIN,
                 LAB2_TIMING_RATIO_MAX,
                 ratio > runs * 0.8  ? "That is about all the runs together: time each run "
                                       "with its own pair of events, and take the median."
                 : ratio < 0.5       ? "Far too short: wait for the stop event "
                                       "(cudaEventSynchronize) before cudaEventElapsedTime, and "
                                       "keep the kernel between the two events."
                                     : "Time one launch per pair of events, nothing else.",
                 LAB2_HANDOUT, TIMING_SECTION);
}

void gpu_timing_matches_device(void **state)
{
    (void)state;
    grader_require_gpu();
    timing_problem p;
    /* About 3 ms per launch on an H100: launch overheads of a few
     * microseconds are well inside the tolerance (lab2_rubric.h). */
    timing_problem_init(&p, 2048, 2048, 2048);
    /* Two different plans, so that a loop with fixed counts cannot pass. */
    expect_timing_matches(&p, 2, 7);
    expect_timing_matches(&p, 0, 4);
    timing_problem_free(&p);
}
