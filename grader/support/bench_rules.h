/* The rules that keep a reported rate from being what the GPU's clocks did
 * rather than what a kernel does. `make bench` applies them
 * (grader/driver/kernel_bench.c), and so do the graders' reported tables
 * (lab 4's gpu_bandwidth_table, lab 7's gpu_sgemm_table) through
 * steady_timing.h; tests/bench_rules_test.c checks them on synthetic
 * times, no GPU needed.
 *
 * Why: a GPU that idled, or whose clocks are still rising, makes a kernel
 * look faster than its ceiling (an H100 printed a thread tile at 117.7% of
 * cuBLAS). The runs behind each number: docs/notes/measure-bench-rules.md. */
#ifndef BENCH_RULES_H
#define BENCH_RULES_H

#ifdef __cplusplus
extern "C" {
#endif

/* Warm-up: a kernel's time has settled when its last BENCH_SETTLE_WINDOW
 * runs lie within BENCH_SETTLE_TOLERANCE of their fastest, and on average
 * are no faster than the BENCH_SETTLE_WINDOW before them by more than that:
 * the clocks have stopped rising. kernel_bench.c stops warming up there, or
 * after BENCH_SETTLE_MAX_RUNS runs or BENCH_SETTLE_MAX_MS of them. */
enum { BENCH_SETTLE_WINDOW = 3, BENCH_SETTLE_MAX_RUNS = 60 };
#define BENCH_SETTLE_TOLERANCE 0.03
#define BENCH_SETTLE_MAX_MS 500.0
int bench_settled(const double *ms, int n);

/* A row's spread is max/min of its timed runs. Above the limit it is
 * measured again, up to BENCH_REMEASURE_TRIES more times, and the steadiest
 * measurement is kept (and marked "steady": false if none was). Runs of
 * 0.1 ms or more should agree within 10%; shorter ones carry the launch's
 * own jitter and may spread up to 1.5x. */
enum { BENCH_REMEASURE_TRIES = 2 };
#define BENCH_SPREAD_MAX 1.10
#define BENCH_SPREAD_MAX_SHORT 1.5
#define BENCH_SHORT_MS 0.1
double bench_spread_limit(double median_ms);
int bench_too_spread(double min_ms, double median_ms, double max_ms);

/* A row of BENCH_SHORT_MS or more whose median lies more than
 * BENCH_DRIFT_MAX above its fastest run changed speed while it was timed,
 * though its spread may stay within the limit. It is measured again, as a
 * spread row is. 3% is what two `make bench` runs must agree within
 * (compare_runs.py): a row that drifts more inside one measurement cannot
 * be expected to. Rows that cross the bus (lab 6) drift with it and are
 * left out, as compare_runs.py leaves them out. */
#define BENCH_DRIFT_MAX 1.03
int bench_drifted(double min_ms, double median_ms);

/* Whether a measurement must be made again: too spread, or drifted
 * (`over_bus`: a row whose data crosses the PCIe bus, whose drift is the
 * bus's, is held to its spread alone). */
int bench_unsteady(double min_ms, double median_ms, double max_ms, int over_bus);

/* A rate above its ceiling's cannot be (the ceiling is the hardware's
 * copy, or cuBLAS, on the same work): the ceiling was timed while the
 * clocks were down, or the kernel skipped work. Measured again; if it stays
 * above, an error, never a printed result.
 * Only a ceiling that the GPU alone sets, timed for BENCH_SHORT_MS or
 * more, is a hard limit (bench_ceiling_is_limit). Below that time the
 * ceiling's own start is a large share of it, and small problems fit in L2,
 * where cudaMemcpy is not the fastest copy there is: a row may be up to
 * BENCH_SHORT_CEILING_SLACK faster (twice the most seen), while 117.7% of a
 * ceiling of 0.1 ms or more stays an error at once. A ceiling that moves
 * data over the host's bus (lab 6's longest stage alone) is none at any
 * length: the bus's rate moves by about a percent from one moment to the
 * next; a row may be up to BENCH_BUS_CEILING_SLACK faster.
 * A row faster than a ceiling that is no limit gets no share of it in the
 * tables (results_file.py). bench_ceiling_slack: 0 for a hard limit. */
#define BENCH_SHORT_CEILING_SLACK 0.15
#define BENCH_BUS_CEILING_SLACK 0.05
double bench_ceiling_slack(double ceiling_ms, int over_bus);
int bench_ceiling_is_limit(double ceiling_ms, int over_bus);
int bench_above_ceiling(double rate, double ceiling_rate, double slack);

/* What a table does with a row once it has been measured as steadily as it
 * can be (the spread rule already applied): KEPT, or kept but UNSTEADY
 * (its spread is reported), or, above its ceiling, measured again with the
 * ceiling (RECHECK) and, still above on that second look, ABOVE_CEILING:
 * an error, left out of the table. The row and its ceiling do the same
 * work (the same bytes, the same flops), so their rates compare as inverse
 * times; ceiling_median_ms <= 0: no ceiling. `ceiling_checks`: how many
 * times the row has been held against its ceiling, this time included.
 * The graders' ceilings (cudaMemcpy, cuBLAS) never cross the bus. */
typedef enum {
    BENCH_ROW_KEPT,
    BENCH_ROW_UNSTEADY,
    BENCH_ROW_RECHECK,
    BENCH_ROW_ABOVE_CEILING
} bench_row_fate;
bench_row_fate bench_row_fate_of(double min_ms, double median_ms, double max_ms,
                                 double ceiling_median_ms, int ceiling_checks);

#ifdef __cplusplus
}
#endif

#endif
