/* Timing a reported rate by the clock rules (bench_rules.h): warm up until
 * the time has settled, measure again while the runs spread too much (the
 * steadiest measurement kept), and hold a row against its ceiling.
 *
 * For the graders' reported tables (lab 4's gpu_bandwidth_table, lab 7's
 * gpu_sgemm_table), which time each kernel alone, one after the other: a
 * GPU whose clocks are still rising, or that idled between two rows, would
 * otherwise print what the clocks did. make bench's runners apply the same
 * rules (grader/driver/kernel_bench.c, which also settles with timing_settle).
 * The graded speed checks do not use this: they time A B A B interleaved,
 * so drift hits both sides of their ratio alike. */
#ifndef STEADY_TIMING_H
#define STEADY_TIMING_H

#include "bench_rules.h"
#include "timing.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The caller's watchdog (the graders': grader_watch / grader_unwatch; this
 * module does not link the harness). Armed around each phase with a limit
 * derived from one run's `run_limit_s`; arm NULL: none. */
typedef struct {
    void (*arm)(const char *what, double limit_s);
    void (*disarm)(void);
    const char *what;   /* the call named in a hung message */
    double run_limit_s; /* the longest one run may take */
} steady_watch;

/* A kernel of the table: its launch, the guard of its timed runs (may be
 * NULL) and the watchdog around it. */
typedef struct {
    timed_launch launch;
    void *ctx;
    const timing_guard *guard;
    steady_watch watch;
} steady_entry;

/* How one row was measured: the kept measurement, the warm-up runs it took
 * to settle, how many measurements were made, whether the kept one was
 * within the spread limit, and whether the row was measured again with its
 * ceiling (timing_row_steadily), so that a table's note can say so. */
typedef struct {
    stats_summary ms;
    int settle_runs, tries, steady, rechecked;
} steady_measurement;

/* A table's spread column: "1.004", and how it came about when it took
 * more than one measurement: "1.004 (3 tries, unsteady, rechecked with
 * the ceiling)". Returns `text`. */
const char *steady_describe(const steady_measurement *m, char *text, size_t size);

/* Runs `launch` (untimed by the caller, timed here by events) until its
 * time has settled (bench_settled), or BENCH_SETTLE_MAX_RUNS runs or
 * BENCH_SETTLE_MAX_MS of them; the runs it took in *runs. Returns 0 or the
 * failing launch's status (whatever its sign: a student's code returns it). */
int timing_settle(timed_launch launch, void *ctx, int *runs);

/* max/min of a measurement's runs (a huge number when min is not > 0). */
double steady_spread(const stats_summary *ms);

/* Settled, then timed with timing_measure; while the runs spread more than
 * bench_spread_limit, settled and timed again, up to BENCH_REMEASURE_TRIES
 * more times; the steadiest measurement is kept. Returns 0 or the failing
 * launch's status (or TIMING_WRONG_RESULT). */
int timing_measure_steadily(const steady_entry *e, const timing_plan *plan,
                            steady_measurement *out);

/* A row measured steadily and held against its ceiling (NULL: none), which
 * the caller measured first, into *ceiling_ms, with
 * timing_measure_steadily. A row above its ceiling (bench_row_fate_of) is
 * measured again, the ceiling first: the faster ceiling is kept in
 * *ceiling_ms (one timed while the clocks were down is the likelier
 * error). *fate says what became of the row. Returns 0 or the failing
 * launch's status. */
int timing_row_steadily(const steady_entry *row, const steady_entry *ceiling,
                        const timing_plan *plan, steady_measurement *ceiling_ms,
                        steady_measurement *out, bench_row_fate *fate);

#ifdef __cplusplus
}
#endif

#endif
