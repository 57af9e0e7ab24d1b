#include "speed_check.h"
#include "launch_watch.h"

#include <stdio.h>

#include "device_info.h"
#include "harness.h"
#include "lab_status.h"

void speed_report(const timing_ab_result *r, const speed_spec *spec)
{
    grader_metric("student_ms", r->a_ms.median, "ms");
    grader_metric("baseline_ms", r->b_ms.median, "ms");
    if (spec->bytes_per_launch > 0) {
        grader_metric("student_GBps", spec->bytes_per_launch / (r->a_ms.median * 1e6), "GB/s");
        grader_metric("baseline_GBps", spec->bytes_per_launch / (r->b_ms.median * 1e6), "GB/s");
    }
    if (spec->flops_per_launch > 0) {
        grader_metric("student_GFLOPs", spec->flops_per_launch / (r->a_ms.median * 1e6), "GFLOP/s");
        grader_metric("baseline_GFLOPs", spec->flops_per_launch / (r->b_ms.median * 1e6), "GFLOP/s");
    }
    grader_metric(spec->ratio_name, r->ratio, "x");
    grader_metric("pair_ratio_min", r->pair_ratio.min, "x");
    grader_metric("pair_ratio_max", r->pair_ratio.max, "x");
    grader_metric("threshold", spec->threshold, "x");
}

double speed_floor_ms(double bytes, double flops)
{
    double dram = device_dram_peak_bytes_per_s(), peak = device_fp32_peak_flops();
    double by_bytes = dram > 0 ? bytes / dram : 0.0;
    double by_flops = peak > 0 ? flops / peak : 0.0;
    return 1e3 * (by_bytes > by_flops ? by_bytes : by_flops);
}

/* The caller's guard, with a watchdog around each run (student + baseline). */
typedef struct {
    const timing_guard *inner;
    const speed_spec *spec;
    double limit_s;
} watched_guard;

static int watched_prepare(void *ctx, int run)
{
    watched_guard *w = ctx;
    char call[320];
    snprintf(call, sizeof call, "timed run %d of %s", run, w->spec->description);
    grader_watch(call, w->limit_s);
    return w->inner && w->inner->prepare ? w->inner->prepare(w->inner->ctx, run) : 0;
}

static int watched_verify(void *ctx, int run)
{
    watched_guard *w = ctx;
    int status = w->inner && w->inner->verify ? w->inner->verify(w->inner->ctx, run) : 0;
    grader_unwatch();
    return status;
}

/* The student's timed launch, as a student call: each timed run must run
 * the student's own kernels (launch_watch.h), checked on the timed calls
 * themselves rather than on a separate traced call a submission could tell
 * apart. */
typedef struct {
    timed_launch inner;
    void *ctx;
    const char *description;
    const launch_shape *shape;
    char off_shape[1536]; /* the first timed call that left the shape ("": none) */
} student_launch;

static int student_timed_launch(void *ctx)
{
    student_launch *s = ctx;
    char call[320];
    snprintf(call, sizeof call, "the timed run of %s", s->description);
    launch_watch_begin(call);
    int status = s->inner(s->ctx);
    launch_watch_end();
    /* Failed after the measurement (a failure here would end it half
     * done); only the first departure is kept. A few comparisons on the
     * host, like launch_watch_end's own, while the kernel runs. */
    int count = 0;
    const launch_record *launches = s->shape ? launch_watch_last(&count) : NULL;
    if (launches && !s->off_shape[0])
        launch_shape_followed(s->shape, launches, count, call, s->off_shape,
                              sizeof s->off_shape);
    return status;
}

int speed_measure(timed_launch student, void *student_ctx, timed_launch baseline,
                  void *baseline_ctx, const timing_plan *plan, const timing_guard *guard,
                  const speed_spec *spec, timing_ab_result *result)
{
    grader_gpu_exclusive();
    /* A guarded run is one launch each (timing.h). The limit covers student
     * and baseline, and a baseline may run far below the rates of
     * grader_call_limit_s (an uncoalesced one: 10x). */
    double limit = 2.0 * grader_call_limit_s(10.0 * spec->bytes_per_launch,
                                             10.0 * spec->flops_per_launch);
    watched_guard w = {guard, spec, limit};
    timing_guard watched = {watched_prepare, watched_verify, &w};
    student_launch own = {student, student_ctx, spec->description, spec->shape, ""};
    int status = timing_interleaved(student_timed_launch, &own, baseline, baseline_ctx, plan,
                                    &watched,
                                    result);
    grader_unwatch();
    grader_gpu_share_again();
    GRADER_CHECK(!own.off_shape[0],
                 "%s. The graded calls are held to the same shape: a kernel must launch it at "
                 "the timed size too, not another one chosen for that size.",
                 own.off_shape);
    /* Run 0 is the first call of the measurement: a wrong result there is a
     * wrong kernel. A wrong result after right ones is a call that skipped
     * its work (e.g. it remembered its last arguments). */
    if (status == TIMING_WRONG_RESULT && result->failed_run == 0)
        GRADER_FAIL("%s: the output of the first timed call was wrong (the correctness "
                    "tests above show how). %s",
                    spec->description, spec->verify_hint ? spec->verify_hint : "");
    if (status == TIMING_WRONG_RESULT)
        GRADER_FAIL("%s: the output of timed call %d was wrong although earlier calls were "
                    "right, so the timed calls did not do the work (each gets fresh inputs and "
                    "a poisoned output, and must compute the whole result every time). %s",
                    spec->description, result->failed_run,
                    spec->verify_hint ? spec->verify_hint : "");
    if (status != 0)
        GRADER_FAIL("%s: a launch failed while timing (status %d: %s)", spec->description,
                    status, lab_last_error());
    double floor_ms = speed_floor_ms(spec->bytes_per_launch, spec->flops_per_launch);
    /* 10% under the floor: the peaks come from the device's attributes. */
    GRADER_CHECK(result->a_ms.min >= 0.9 * floor_ms,
                 "%s: %.4f ms per call is faster than the hardware allows (at least %.4f ms for "
                 "this work at the device's peak): the timed calls did not do the work.",
                 spec->description, result->a_ms.min, floor_ms);
    return status;
}

double speed_check(timed_launch student, void *student_ctx, timed_launch baseline,
                   void *baseline_ctx, const timing_plan *plan, const timing_guard *guard,
                   const speed_spec *spec)
{
    timing_ab_result r;
    speed_measure(student, student_ctx, baseline, baseline_ctx, plan, guard, spec, &r);
    if (r.ratio < spec->threshold && r.ratio >= spec->threshold * (1.0 - SPEED_RECHECK_BAND)) {
        grader_note("%s: ratio %.3f is just below the threshold %.3f; measuring again",
                    spec->description, r.ratio, spec->threshold);
        timing_plan again = *plan;
        again.runs *= 2;
        speed_measure(student, student_ctx, baseline, baseline_ctx, &again, guard, spec, &r);
    }
    speed_report(&r, spec);
    GRADER_CHECK(r.ratio >= spec->threshold,
                 "%s: speed ratio %.3f is below the threshold %.3f (student %.4f ms, baseline "
                 "%.4f ms per launch, median of %d). %s",
                 spec->description, r.ratio, spec->threshold, r.a_ms.median, r.b_ms.median,
                 (int)r.a_ms.count, spec->hint ? spec->hint : "");
    return r.ratio;
}

int selftest_stays_below(baseline_measure measure, void *ctx, double threshold,
                         timing_ab_result *result)
{
    measure(ctx, result);
    if (result->ratio < threshold && result->pair_ratio.max >= threshold) {
        grader_note("its best single pair, %.3f, reaches the threshold %.3f while its ratio is "
                    "%.3f: one pair may be a delayed launch; measuring again",
                    result->pair_ratio.max, threshold, result->ratio);
        measure(ctx, result);
    }
    return result->ratio < threshold && result->pair_ratio.max < threshold;
}
