/* bench_rules.h on synthetic times: a clock ramp, flat and noisy runs, the
 * spread limits, the ceiling rule and a table row's fate. No GPU needed;
 * ctest bench_rules_test.*. */
#include <math.h>

#include "bench_rules.h"
#include "harness.h"

/* A GPU whose clocks rise while it works: each run faster than the one
 * before, towards 1 ms (runs 0..n-1). */
static double ramp_ms(int run) { return 1.0 + 1.5 * exp(-run / 4.0); }

/* The first run count at which bench_settled says yes, or -1. */
static int first_settled(const double *ms, int n)
{
    for (int k = 1; k <= n; ++k)
        if (bench_settled(ms, k))
            return k;
    return -1;
}

static void settle_waits_for_a_clock_ramp(void **state)
{
    (void)state;
    double ms[BENCH_SETTLE_MAX_RUNS];
    for (int i = 0; i < BENCH_SETTLE_MAX_RUNS; ++i)
        ms[i] = ramp_ms(i);
    int n = first_settled(ms, BENCH_SETTLE_MAX_RUNS);
    assert_true(n > 0);
    /* Not while the runs still get faster by more than the tolerance per
     * window, and then close to where the clocks end: the last run within
     * 3% of the settled 1 ms. */
    assert_true(ms[n - 1] <= 1.0 * (1.0 + BENCH_SETTLE_TOLERANCE));
    assert_true(n > 2 * BENCH_SETTLE_WINDOW);
}

static void settle_at_once_on_flat_and_noisy_runs(void **state)
{
    (void)state;
    double flat[12], noisy[12];
    for (int i = 0; i < 12; ++i) {
        flat[i] = 2.0;
        noisy[i] = 2.0 * (1.0 + 0.01 * ((i * 7) % 3 - 1)); /* +-1% */
    }
    assert_int_equal(first_settled(flat, 12), 2 * BENCH_SETTLE_WINDOW);
    assert_int_equal(first_settled(noisy, 12), 2 * BENCH_SETTLE_WINDOW);
}

static void settle_never_on_jumping_runs(void **state)
{
    (void)state;
    double ms[BENCH_SETTLE_MAX_RUNS];
    for (int i = 0; i < BENCH_SETTLE_MAX_RUNS; ++i)
        ms[i] = i % 2 ? 1.2 : 1.0; /* another process's work, say */
    assert_int_equal(first_settled(ms, BENCH_SETTLE_MAX_RUNS), -1);
    assert_false(bench_settled(ms, 0));
}

static void spread_limits_long_and_short_rows(void **state)
{
    (void)state;
    assert_false(bench_too_spread(1.0, 1.02, 1.09));
    assert_true(bench_too_spread(1.0, 1.05, 1.2));
    /* Under 0.1 ms the launch's own jitter is allowed. */
    assert_false(bench_too_spread(0.010, 0.011, 0.013));
    assert_true(bench_too_spread(0.010, 0.011, 0.016));
    /* The cuBLAS row at 1024: 0.097 to 0.227 ms. */
    assert_true(bench_too_spread(0.097, 0.155, 0.227));
    assert_true(bench_too_spread(0.0, 1.0, 1.0));
}

/* bench_above_ceiling for a ceiling of `ms` timed on the GPU alone. */
static int above_gpu_ceiling(double rate, double ceiling_rate, double ms)
{
    return bench_above_ceiling(rate, ceiling_rate, bench_ceiling_slack(ms, 0));
}

/* The H100's warp-shuffle sum of 2026-11-26: spread within the limit, but
 * most runs 6% slower than the fastest: measured again. */
static void median_drift_is_measured_again(void **state)
{
    (void)state;
    assert_false(bench_too_spread(0.5306, 0.5639, 0.5679));
    assert_true(bench_drifted(0.5306, 0.5639));
    assert_int_equal(bench_row_fate_of(0.5306, 0.5639, 0.5679, 0.0, 1), BENCH_ROW_UNSTEADY);
    assert_true(bench_unsteady(0.5306, 0.5639, 0.5679, 0));
    /* Across the PCIe bus the drift is the bus's: the spread alone counts. */
    assert_false(bench_unsteady(0.5306, 0.5639, 0.5679, 1));
    assert_true(bench_unsteady(1.0, 1.05, 1.2, 1));
    /* Its run before: median 0.3% above the fastest. */
    assert_false(bench_drifted(0.5300, 0.5321));
    assert_int_equal(bench_row_fate_of(0.5300, 0.5321, 0.5359, 0.0, 1), BENCH_ROW_KEPT);
    /* Just within and just past 3%. */
    assert_false(bench_drifted(1.0, 1.0299));
    assert_true(bench_drifted(1.0, 1.0301));
    /* A short row carries the launch's jitter: no drift rule under 0.1 ms. */
    assert_false(bench_drifted(0.010, 0.012));
    assert_false(bench_drifted(0.0, 1.0)); /* no measurement */
}

static void rate_above_ceiling_is_an_error(void **state)
{
    (void)state;
    /* A ceiling of 0.1 ms or more is the hardware's: nothing passes it. */
    assert_false(above_gpu_ceiling(100.0, 100.0, 1.0));
    assert_true(above_gpu_ceiling(100.5, 100.0, 1.0));
    assert_true(above_gpu_ceiling(117.7, 100.0, 2.9)); /* the thread tile */
    assert_true(above_gpu_ceiling(100.5, 100.0, BENCH_SHORT_MS));
    /* A shorter one is passed by up to its slack: lab 1's copy kernel at
     * 103-104.7% of a cudaMemcpy of 0.018 ms, lab 4's float4 tile at
     * 107.6% of one of 0.0159 ms; 115.1% is an error. */
    assert_false(above_gpu_ceiling(104.7, 100.0, 0.018));
    assert_false(above_gpu_ceiling(107.6, 100.0, 0.0159));
    assert_true(above_gpu_ceiling(115.1, 100.0, 0.0159));
    assert_false(above_gpu_ceiling(117.7, 0.0, 1.0)); /* no ceiling measured */
}

static void ceiling_over_the_bus_is_no_limit(void **state)
{
    (void)state;
    assert_true(bench_ceiling_is_limit(5.83, 0));
    assert_false(bench_ceiling_is_limit(5.83, 1));
    assert_false(bench_ceiling_is_limit(0.05, 0));
    /* Lab 6's pipeline at 2^26 floats, 100.9% of its longest stage (a PCIe
     * copy of 5.8 ms) on the H100, is a measurement; past the slack it is
     * an error all the same. */
    double slack = bench_ceiling_slack(5.83, 1);
    assert_false(bench_above_ceiling(100.9, 100.0, slack));
    assert_true(bench_above_ceiling(105.1, 100.0, slack));
}

/* A ceiling timed on the way up a clock ramp, a kernel timed once it is at
 * the top: the ratio of the two is the clock's, and the rules catch it
 * both ways, by the ceiling's spread and by the kernel above it. */
static void clock_ramp_between_ceiling_and_kernel_is_caught(void **state)
{
    (void)state;
    double ceiling[11], fastest = 1e9, slowest = 0.0;
    for (int i = 0; i < 11; ++i) {
        ceiling[i] = ramp_ms(i); /* 2.5 ms down to 1.2 ms */
        fastest = fmin(fastest, ceiling[i]);
        slowest = fmax(slowest, ceiling[i]);
    }
    double ceiling_median = ramp_ms(5), kernel_ms = 1.0 / 0.92; /* 92% of the settled ceiling */
    assert_true(bench_too_spread(fastest, ceiling_median, slowest));
    assert_true(above_gpu_ceiling(1.0 / kernel_ms, 1.0 / ceiling_median, ceiling_median));
    /* Settled first, the same kernel is below its ceiling. */
    assert_false(above_gpu_ceiling(1.0 / kernel_ms, 1.0 / 1.0, 1.0));
}

/* A table row (lab 4's, lab 7's) after its steady measurement: kept,
 * kept but unsteady, or held against its ceiling by inverse times. */
static void row_fate_kept_or_unsteady_below_the_ceiling(void **state)
{
    (void)state;
    /* lab 4's multirow at 93.6% of memcpy, steady: kept. */
    assert_int_equal(bench_row_fate_of(0.99, 1.0, 1.05, 0.936, 1), BENCH_ROW_KEPT);
    /* Too spread after every try: kept, but marked. */
    assert_int_equal(bench_row_fate_of(1.0, 1.1, 1.3, 0.936, 1), BENCH_ROW_UNSTEADY);
    /* No ceiling measured (<= 0): only the spread counts. */
    assert_int_equal(bench_row_fate_of(0.5, 0.5, 0.52, 0.0, 1), BENCH_ROW_KEPT);
    assert_int_equal(bench_row_fate_of(0.5, 0.5, 0.52, -1.0, 2), BENCH_ROW_KEPT);
    /* The ceiling itself, and a kernel 2% slower. */
    assert_int_equal(bench_row_fate_of(1.0, 1.0, 1.0, 1.0, 1), BENCH_ROW_KEPT);
    assert_int_equal(bench_row_fate_of(1.01, 1.02, 1.03, 1.0, 2), BENCH_ROW_KEPT);
    /* A failed measurement (zero times) is unsteady, never above a ceiling. */
    assert_int_equal(bench_row_fate_of(0.0, 0.0, 0.0, 1.0, 1), BENCH_ROW_UNSTEADY);
}

static void row_fate_above_the_ceiling_is_rechecked_then_an_error(void **state)
{
    (void)state;
    /* The 117.7% of cuBLAS: first look, measured again with the
     * ceiling; still above on the second look, an error. */
    double ceiling_ms = 1.0, row_ms = 1.0 / 1.177;
    assert_int_equal(bench_row_fate_of(row_ms, row_ms, row_ms, ceiling_ms, 1), BENCH_ROW_RECHECK);
    assert_int_equal(bench_row_fate_of(row_ms, row_ms, row_ms, ceiling_ms, 2),
                     BENCH_ROW_ABOVE_CEILING);
    /* Above the ceiling counts before the spread: an unsteady row above
     * it is no result either. */
    assert_int_equal(bench_row_fate_of(row_ms, row_ms, 2.0 * row_ms, ceiling_ms, 2),
                     BENCH_ROW_ABOVE_CEILING);
    /* A ceiling of 1 ms: just past it is sent back. */
    double just_past = 1.0 / 1.001;
    assert_int_equal(bench_row_fate_of(just_past, just_past, just_past, 1.0, 1),
                     BENCH_ROW_RECHECK);
    /* A ceiling of 0.018 ms: just past the slack, and just within it. */
    double short_ms = 0.018;
    double past = short_ms / (1.0 + BENCH_SHORT_CEILING_SLACK + 0.001);
    double within = short_ms / (1.0 + BENCH_SHORT_CEILING_SLACK - 0.001);
    assert_int_equal(bench_row_fate_of(past, past, past, short_ms, 1), BENCH_ROW_RECHECK);
    assert_int_equal(bench_row_fate_of(within, within, within, short_ms, 1), BENCH_ROW_KEPT);
}

/* The clock ramp, as a table meets it: the ceiling timed on the way
 * up, the row at the top. The first look sends the row back; measured
 * again once settled, the ceiling is faster and the row below it. */
static void row_fate_clock_ramp_recheck_clears_the_row(void **state)
{
    (void)state;
    double ceiling_cold = ramp_ms(5), ceiling_settled = ramp_ms(40); /* ~1.43, ~1.0 ms */
    double row_ms = 1.0 / 0.92; /* 92% of the settled ceiling */
    assert_int_equal(bench_row_fate_of(row_ms, row_ms, row_ms, ceiling_cold, 1),
                     BENCH_ROW_RECHECK);
    double kept = fmin(ceiling_cold, ceiling_settled); /* the faster ceiling is kept */
    assert_int_equal(bench_row_fate_of(row_ms, row_ms, row_ms, kept, 2), BENCH_ROW_KEPT);
}

#define CPU_TEST(fn) GRADER_TEST(fn, GROUP_CPU, 0)

static const grader_test tests[] = {
    CPU_TEST(settle_waits_for_a_clock_ramp),
    CPU_TEST(settle_at_once_on_flat_and_noisy_runs),
    CPU_TEST(settle_never_on_jumping_runs),
    CPU_TEST(spread_limits_long_and_short_rows),
    CPU_TEST(median_drift_is_measured_again),
    CPU_TEST(rate_above_ceiling_is_an_error),
    CPU_TEST(ceiling_over_the_bus_is_no_limit),
    CPU_TEST(clock_ramp_between_ceiling_and_kernel_is_caught),
    CPU_TEST(row_fate_kept_or_unsteady_below_the_ceiling),
    CPU_TEST(row_fate_above_the_ceiling_is_rechecked_then_an_error),
    CPU_TEST(row_fate_clock_ramp_recheck_clears_the_row),
};

int main(int argc, char **argv)
{
    grader_suite suite = {"bench_rules", "the timing rules of make bench and the graders' tables",
                          "grader/support/",
                          GRADER_IMPLEMENTATION, tests, sizeof tests / sizeof tests[0],
                          .concurrent_streams = 0};
    return grader_main(&suite, argc, argv);
}
