#include "speed_check.h"

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

int speed_measure(timed_launch student, void *student_ctx, timed_launch baseline,
                  void *baseline_ctx, const timing_plan *plan, const speed_spec *spec,
                  timing_ab_result *result)
{
    int status = timing_interleaved(student, student_ctx, baseline, baseline_ctx, plan, result);
    if (status != 0)
        GRADER_FAIL("%s: a launch failed while timing (status %d: %s)", spec->description,
                    status, lab_last_error());
    return status;
}

double speed_check(timed_launch student, void *student_ctx, timed_launch baseline,
                   void *baseline_ctx, const timing_plan *plan, const speed_spec *spec)
{
    timing_ab_result r;
    speed_measure(student, student_ctx, baseline, baseline_ctx, plan, spec, &r);
    if (r.ratio < spec->threshold && r.ratio >= spec->threshold * (1.0 - SPEED_RECHECK_BAND)) {
        grader_note("%s: ratio %.3f is just below the threshold %.3f; measuring again",
                    spec->description, r.ratio, spec->threshold);
        timing_plan again = *plan;
        again.runs *= 2;
        speed_measure(student, student_ctx, baseline, baseline_ctx, &again, spec, &r);
    }
    speed_report(&r, spec);
    GRADER_CHECK(r.ratio >= spec->threshold,
                 "%s: speed ratio %.3f is below the threshold %.3f (student %.4f ms, baseline "
                 "%.4f ms per launch, median of %d). %s",
                 spec->description, r.ratio, spec->threshold, r.a_ms.median, r.b_ms.median,
                 (int)r.a_ms.count, spec->hint ? spec->hint : "");
    return r.ratio;
}
