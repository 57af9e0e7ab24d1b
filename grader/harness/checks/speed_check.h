/* A speed check: the student's kernel against a baseline in the same process,
 * interleaved, as a ratio against a threshold from the lab's rubric.
 *
 * Every timed call must have done its work: the guard refreshes inputs and
 * poisons outputs before each run and checks them after it, outside the
 * timed region, so every timed run is one launch (the plan's
 * launches_per_run does not apply). A time below the work's physical floor
 * (bytes at DRAM peak, FLOPs at FP32 peak) fails as "faster than the
 * hardware allows"; a watchdog stops a run that never ends. Each timed
 * call's kernels must be the student's (launch_watch.h), in the lab's
 * launch shape (spec->shape), like the graded calls.
 *
 * ratio = median(baseline time) / median(student time): "2.0" is twice as
 * fast; against a copy kernel of the same bytes, the fraction of copy
 * bandwidth. A ratio within RECHECK_BAND below its threshold is measured
 * again with twice the runs before it fails: one noisy run must not cost
 * points. */
#ifndef SPEED_CHECK_H
#define SPEED_CHECK_H

#include "launch_shape.h"
#include "timing.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    const char *ratio_name;   /* metric name, e.g. "fraction_of_copy_bandwidth" */
    const char *description;  /* e.g. "2D kernel vs copy kernel, 8192x8192" */
    double threshold;         /* pass when ratio >= threshold */
    double bytes_per_launch;  /* for GB/s in the report (0: not reported) */
    double flops_per_launch;  /* for GFLOP/s in the report (0: not reported) */
    const char *hint;         /* printed on failure: what usually causes it, where to read */
    const char *verify_hint;  /* printed when a timed run's output is wrong */
    /* The launch shape the lab fixes at the timed size (launch_shape.h), the
     * rule graded calls are held to; NULL where the lab fixes none. Every
     * timed call is judged by it: a kernel that runs the lesson's shape on
     * the graded sizes and another one at the timed size fails. */
    const launch_shape *shape;
} speed_spec;

/* Relative band below the threshold that triggers one re-measurement. */
#define SPEED_RECHECK_BAND 0.15

/* Measures, records metrics (times, rates, ratio, spread, threshold) and
 * returns the ratio; fails the test (GRADER_FAIL) when it stays below the
 * threshold or a launch returns an error. */
double speed_check(timed_launch student, void *student_ctx, timed_launch baseline,
                   void *baseline_ctx, const timing_plan *plan, const timing_guard *guard,
                   const speed_spec *spec);

/* Records a measurement as metrics: median times, GB/s and GFLOP/s where the
 * spec gives bytes or flops, the ratio, the per-pair spread, the threshold.
 * speed_check calls it; measure-only tests call it after speed_measure. */
void speed_report(const timing_ab_result *result, const speed_spec *spec);

/* The same measurement without judging the ratio (calibration, self-tests);
 * the verification, the floor and the watchdog still apply. */
int speed_measure(timed_launch student, void *student_ctx, timed_launch baseline,
                  void *baseline_ctx, const timing_plan *plan, const timing_guard *guard,
                  const speed_spec *spec, timing_ab_result *result);

/* A self-test's verdict on a baseline graded as if it were the student's
 * kernel: `measure` times it (and reports the metrics) into *result. It
 * stays below when its ratio and its best single pair are both below the
 * threshold. A best pair at or above it while the ratio stays below is
 * measured once more and judged on that: a launch the system delayed makes
 * one outlier pair, while a threshold within the baseline's own spread is
 * reached again. Returns 1 when it stays below. */
typedef void (*baseline_measure)(void *ctx, timing_ab_result *result);
int selftest_stays_below(baseline_measure measure, void *ctx, double threshold,
                         timing_ab_result *result);

/* Milliseconds below which `bytes` and `flops` cannot be done on this
 * device (0 when unknown). */
double speed_floor_ms(double bytes, double flops);

#ifdef __cplusplus
}
#endif

#endif
