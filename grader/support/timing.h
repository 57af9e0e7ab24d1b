/* Timing kernels the way the graders compare them.
 *
 * Each run: flush L2 (so no run inherits a warm cache from the one before),
 * record an event, launch `launches_per_run` times, record an event. After
 * `warmup` untimed runs, `runs` timed runs; we keep the median, which one
 * late interrupt cannot move. timing_interleaved alternates A B A B so that
 * clock or thermal drift hits both kernels alike, and returns the ratio of
 * the medians (B / A: how many times faster A is than B). */
#ifndef TIMING_H
#define TIMING_H

#include "stats.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Launches the work once; returns 0 (LAB_OK) or a non-zero status, which
 * stops the measurement and is returned to the caller. */
typedef int (*timed_launch)(void *ctx);

typedef struct {
    int warmup;            /* untimed runs first (module load, clocks up) */
    int runs;              /* timed runs per kernel */
    int launches_per_run;  /* >1 when one launch is too short to time well */
    int flush_l2;          /* write a buffer twice the L2 size before each run */
} timing_plan;

/* Work done outside the timed region of every run (warm-up runs too), so
 * that each timed call is shown to have done its work: `prepare` before the
 * run (fresh inputs, poisoned outputs), `verify` after it (the outputs
 * checked). Each returns 0, or non-zero to stop: from verify that means the
 * run's output was wrong. With a guard, every run is one launch, so no call
 * can lean on the one before it. */
typedef int (*timing_hook)(void *ctx, int run);
typedef struct {
    timing_hook prepare, verify;
    void *ctx;
} timing_guard;

/* timing_ab_result.status when guard->verify rejected a run. */
enum { TIMING_WRONG_RESULT = -1000 };

typedef struct {
    stats_summary a_ms, b_ms;  /* per-launch milliseconds */
    stats_summary pair_ratio;  /* b/a of each adjacent A,B pair: the spread */
    double ratio;              /* median(b) / median(a) */
    int status;                /* 0, the failing launch's status, or TIMING_WRONG_RESULT */
    int failed_run;            /* which run failed (warm-up runs count from 0 too) */
} timing_ab_result;

/* Times one kernel. Returns 0 or the failing launch's status. */
int timing_measure(timed_launch launch, void *ctx, const timing_plan *plan,
                   const timing_guard *guard, stats_summary *ms_per_launch);

/* `guard` may be NULL (no verification: the grader's own kernels only). */
int timing_interleaved(timed_launch a, void *ctx_a, timed_launch b, void *ctx_b,
                       const timing_plan *plan, const timing_guard *guard,
                       timing_ab_result *result);

/* Frees the L2-flush buffer (optional; freed at process exit anyway). */
void timing_release(void);

#ifdef __cplusplus
}
#endif

#endif
