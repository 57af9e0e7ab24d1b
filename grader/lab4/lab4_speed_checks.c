/* Lab 4 speed checks at LAB4_SPEED_SIZE^2 floats, each a ratio measured in
 * one run against a yardstick of the grader's: the naive transpose, the
 * unpadded tile (lab4_baselines.h), or a device-to-device cudaMemcpy of the
 * same bytes. Which kernel runs against which yardstick on how many bytes
 * of how large a matrix is lab 4's kernel table (lab4_kernels.c: every
 * version is graded at the same size), which make time-lab4 runs too;
 * the names in the messages are the checks' own. Every timed run
 * transposes fresh data into a poisoned `out`, and the whole `out` is then
 * compared with the naive transpose's. */
#include <stdio.h>

#include "device_buffer.h"
#include "device_verify.h"
#include "gpu_checks.h"
#include "guard.h"
#include "harness.h"
#include "lab4_baselines.h"
#include "lab4_checks.h"
#include "lab4_gpu_common.h"
#include "lab4_kernels.h"
#include "lab4_rubric.h"
#include "speed_check.h"
#include "steady_timing.h"
#include "stage_identity.h"

static const timing_plan PLAN = {.warmup = 3, .runs = 21, .launches_per_run = 1, .flush_l2 = 1};

/* ------------------------------------------------------- the problem */

/* Buffers of one speed test: `in`, the timed kernel's `out`, the
 * yardstick's output, and the grader's own transpose for checking. */
typedef struct {
    int size;
    size_t n;
    device_buffer in, out, yardstick_out, expected;
    uint64_t seed;
} speed_problem;

static void problem_init(speed_problem *p, uint64_t seed)
{
    p->size = (int)lab_kernel_table.rows[LAB4_ROW_SMEM].graded_size[0];
    p->n = (size_t)p->size * (size_t)p->size;
    p->seed = seed;
    dbuf_alloc(&p->in, "in", p->n * sizeof(float));
    dbuf_alloc(&p->out, "out", p->n * sizeof(float));
    dbuf_alloc(&p->yardstick_out, "out (yardstick)", p->n * sizeof(float));
    dbuf_alloc(&p->expected, "out (grader's transpose)", p->n * sizeof(float));
    /* Canaries around `out` (checked after the timing); its payload is
     * poisoned again before every run. */
    dbuf_poison(&p->out);
}

static void problem_free(speed_problem *p)
{
    dbuf_free(&p->in);
    dbuf_free(&p->out);
    dbuf_free(&p->yardstick_out);
    dbuf_free(&p->expected);
}

/* Before each run, outside the timed region: fresh `in`, poisoned `out`. */
static int prepare_run(void *ctx, int run)
{
    speed_problem *p = ctx;
    device_fill_uniform(p->in.data, p->n, p->seed + (uint64_t)run, -1000.0f, 1000.0f);
    device_fill_u32(p->out.data, GUARD_POISON_BITS, p->n);
    return 0;
}

/* After each run: the whole `out` equals the naive transpose of this run's
 * `in`, bit for bit (a transpose only moves floats). */
static int verify_run(void *ctx, int run)
{
    (void)run;
    speed_problem *p = ctx;
    if (lab4_baseline_naive(p->in.data, p->expected.data, p->size, p->size) != LAB_OK)
        return 1;
    return device_count_mismatches(p->out.data, p->expected.data, p->n, 0.0, 0.0) != 0;
}

/* A row of the kernel table on this problem's arrays, writing to `out`. */
static kernel_call row_call(int row, const speed_problem *p, void *out)
{
    kernel_call call = {&lab_kernel_table.rows[row],
                        {.size = {p->size, p->size}, .in = {p->in.data, NULL}, .out = out}};
    return call;
}

static double bytes_moved(const kernel_call *call)
{
    return kernel_row_bytes(call->row, call->args.size);
}

static const char VERIFY_HINT[] =
    "Every timed call must transpose that run's fresh `in` into `out`; run the correctness "
    "checks first.";

/* A row of the table (the student's version, or a grader kernel standing
 * in for it in the self-tests) against the yardstick row. `judge` = 0
 * measures without judging. */
static double time_against(int timed_row, const char *timed_name, int yardstick_row,
                           const char *yardstick_name, speed_problem *p, const char *ratio_name,
                           double threshold, const char *hint, int judge)
{
    char description[192];
    snprintf(description, sizeof description, "%s vs %s, %dx%d floats", timed_name,
             yardstick_name, p->size, p->size);
    kernel_call student = row_call(timed_row, p, p->out.data);
    kernel_call base = row_call(yardstick_row, p, p->yardstick_out.data);
    timing_guard guard = {prepare_run, verify_run, p};
    /* No launch shape: lab 4's graded calls judge none either. */
    speed_spec spec = {ratio_name, description, threshold, bytes_moved(&student), 0.0, hint,
                       VERIFY_HINT, NULL};
    if (judge)
        return speed_check(kernel_call_launch, &student, kernel_call_launch, &base, &PLAN, &guard,
                           &spec);
    timing_ab_result result;
    speed_measure(kernel_call_launch, &student, kernel_call_launch, &base, &PLAN, &guard, &spec,
                  &result);
    speed_report(&result, &spec);
    GRADER_CHECK(result.status == 0, "%s: the measurement failed (status %d)", description,
                 result.status);
    return result.ratio;
}

/* The student's version in `row` against that row's yardstick. */
static double student_against(int row, const char *yardstick_name, const char *ratio_name,
                              double threshold, const char *hint)
{
    grader_require_gpu();
    /* Before the timing: a version that runs another's kernel leaves no
     * ratio for partial credit (stage_identity.h). */
    stage_identity_expect_own(&lab_kernel_table, row);
    lab4_version v = (lab4_version)(row - LAB4_ROW_SMEM);
    speed_problem p;
    problem_init(&p, grader_seed() + 4000 + (uint64_t)v);
    char name[48];
    snprintf(name, sizeof name, "lab4_transpose(%s)", lab4_version_about(v)->name);
    double ratio = time_against(row, name, lab_kernel_table.rows[row].yardstick, yardstick_name,
                                &p, ratio_name, threshold, hint, 1);
    gpu_expect_guards_intact(&p.out, name);
    problem_free(&p);
    return ratio;
}

/* --------------------------------------------------------- the checks */

void gpu_smem_speed_vs_naive(void **state)
{
    (void)state;
    student_against(LAB4_ROW_SMEM, "naive transpose", "speedup_vs_naive",
                    LAB4_SMEM_SPEEDUP_MIN,
                    "The shared tile should make both global sides coalesced: check that a "
                    "warp's 32 loads and its 32 stores each cover one row segment "
                    "(TODO(4.2), (4.3); make check-lab4 reports the sectors per request on the "
                    "CPU). Handout sections 2 and 3.");
}

void gpu_padded_speed_vs_unpadded(void **state)
{
    (void)state;
    student_against(LAB4_ROW_PADDED, "unpadded tile (the grader's)",
                    "speedup_vs_unpadded", LAB4_PADDED_SPEEDUP_MIN,
                    "The padding removes the 32-way bank conflict of the column read only if "
                    "the kernel reads the tile through the padded pitch: use lab4_tile_pitch("
                    "PADDED) in the kernel and the offsets of TODO(4.4). Handout section 5.");
}

void gpu_multirow_fraction_of_copy(void **state)
{
    (void)state;
    student_against(LAB4_ROW_MULTIROW, "cudaMemcpy device-to-device", "fraction_of_copy",
                    LAB4_MULTIROW_COPY_FRACTION_MIN,
                    "The multirow kernel should move data almost as fast as a copy: padded "
                    "tile, all LAB4_PASSES loads issued before the barrier, loops unrolled. "
                    "Handout section 7.");
}

/* The final stage, a bonus. The threshold tells a transpose near the copy
 * from the unpadded tile, as (d)'s does; the margin rule cannot put it
 * between (d) and this stage (lab4_rubric.h), so the stage's own target is
 * reported in the ratio, not graded. */
void gpu_vector_fraction_of_copy(void **state)
{
    (void)state;
    student_against(LAB4_ROW_VECTOR, "cudaMemcpy device-to-device", "fraction_of_copy",
                    LAB4_VECTOR_COPY_FRACTION_MIN,
                    "The final stage should move data at least as fast as (d): float4 loads "
                    "and stores wherever the entry point allows them (vector_loads, "
                    "vector_stores), all four loads of a thread before the barrier, loops "
                    "unrolled. Handout section 8.");
}

/* Every kernel alone, in GB/s and as a share of cudaMemcpy's bandwidth in
 * this run: the handout's table. Measured, never judged; a student kernel
 * that fails its verification is left out with a note. The kernels run one
 * after the other, so make bench's clock rules apply (bench_rules.h,
 * steady_timing.h): each row settles first and is measured again while its
 * spread is too wide; cudaMemcpy, the ceiling, is timed first, and a row
 * still faster than it beyond its slack is left out as a measurement error
 * (a transpose moves the copy's bytes, so it cannot beat it by much). */

/* The metrics' names, and the rows they time. */
static const struct {
    const char *name;
    int row;
} TABLE_KERNELS[] = {
    {"naive", LAB4_ROW_NAIVE},   {"unpadded_baseline", LAB4_ROW_UNPADDED},
    {"smem", LAB4_ROW_SMEM},     {"padded", LAB4_ROW_PADDED},
    {"multirow", LAB4_ROW_MULTIROW}, {"vector", LAB4_ROW_VECTOR},
};
enum { TABLE_KERNEL_COUNT = sizeof TABLE_KERNELS / sizeof TABLE_KERNELS[0] };

static steady_entry table_entry(kernel_call *call, const timing_guard *guard, const char *what)
{
    steady_entry e = {kernel_call_launch, call, guard,
                      {grader_watch, grader_unwatch, what,
                       grader_call_limit_s(bytes_moved(call), 0.0)}};
    return e;
}

void gpu_bandwidth_table(void **state)
{
    (void)state;
    grader_require_gpu();
    speed_problem p;
    problem_init(&p, grader_seed() + 4100);
    timing_guard guard = {prepare_run, verify_run, &p};
    kernel_call copy = row_call(LAB4_ROW_MEMCPY, &p, p.yardstick_out.data);
    double bytes = bytes_moved(&copy);
    steady_entry ceiling = table_entry(&copy, NULL, "cudaMemcpy (timing)");
    steady_measurement copy_ms;
    grader_gpu_exclusive();
    GRADER_CHECK(timing_measure_steadily(&ceiling, &PLAN, &copy_ms) == 0,
                 "timing cudaMemcpy failed");

    steady_measurement ms[TABLE_KERNEL_COUNT];
    bench_row_fate fate[TABLE_KERNEL_COUNT];
    for (int k = 0; k < TABLE_KERNEL_COUNT; ++k) {
        char what[64];
        snprintf(what, sizeof what, "%s transpose (timing)", TABLE_KERNELS[k].name);
        kernel_call timed = row_call(TABLE_KERNELS[k].row, &p, p.out.data);
        steady_entry row = table_entry(&timed, &guard, what);
        int status = timing_row_steadily(&row, &ceiling, &PLAN, &copy_ms, &ms[k], &fate[k]);
        if (status != 0) {
            ms[k].tries = 0; /* not in the table */
            grader_note("%s: not timed (%s)", TABLE_KERNELS[k].name,
                        status == TIMING_WRONG_RESULT ? "its output was wrong"
                                                      : lab_status_name((lab_status)status));
        }
    }
    grader_gpu_share_again();

    /* Reported once every row is in: a recheck may have kept a faster
     * cudaMemcpy, and every row is stated against the one kept. */
    double copy_gbps = bytes / (copy_ms.ms.median * 1e-3) / 1e9;
    char spread[96];
    grader_metric("copy_gbps", copy_gbps, "GB/s");
    grader_metric("copy_spread", steady_spread(&copy_ms.ms), "ratio");
    grader_note("each row settled first; spread = max/min of its %d runs, measured again above "
                "%.2f; cudaMemcpy %.0f GB/s, spread %s", PLAN.runs, BENCH_SPREAD_MAX, copy_gbps,
                steady_describe(&copy_ms, spread, sizeof spread));
    int above = 0;
    for (int k = 0; k < TABLE_KERNEL_COUNT; ++k) {
        if (ms[k].tries == 0)
            continue;
        const char *name = TABLE_KERNELS[k].name;
        double gbps = bytes / (ms[k].ms.median * 1e-3) / 1e9;
        if (fate[k] == BENCH_ROW_ABOVE_CEILING) {
            ++above;
            grader_note("%s: measured %.0f GB/s, %.1f%% of cudaMemcpy, twice: above the copy "
                        "of the same bytes, an error of the measurement, left out",
                        name, gbps, 100.0 * gbps / copy_gbps);
            continue;
        }
        char metric[64];
        snprintf(metric, sizeof metric, "%s_gbps", name);
        grader_metric(metric, gbps, "GB/s");
        snprintf(metric, sizeof metric, "%s_fraction_of_copy", name);
        grader_metric(metric, gbps / copy_gbps, "ratio");
        snprintf(metric, sizeof metric, "%s_spread", name);
        grader_metric(metric, steady_spread(&ms[k].ms), "ratio");
        grader_note("%-18s %7.0f GB/s  %5.1f%% of cudaMemcpy  spread %s", name, gbps,
                    100.0 * gbps / copy_gbps, steady_describe(&ms[k], spread, sizeof spread));
    }
    grader_metric("rows_above_ceiling", above, "rows");
    problem_free(&p);
}

/* ---------------------------------------------------------- self-tests */

/* A grader kernel (the row `standin`) in the place of the student's row
 * `graded`, against that row's yardstick, must not reach the threshold the
 * student's kernel is held to. */
static void expect_below(int standin, const char *standin_name, int graded,
                         const char *yardstick_name, const char *ratio_name, double threshold)
{
    grader_require_gpu();
    speed_problem p;
    problem_init(&p, grader_seed() + 4200);
    double ratio = time_against(standin, standin_name, lab_kernel_table.rows[graded].yardstick,
                                yardstick_name, &p, ratio_name, threshold, "", 0);
    problem_free(&p);
    GRADER_CHECK(ratio < threshold,
                 "%s reached %.3f against %s, at or above the threshold %.3f that only the "
                 "lab's lesson should reach: the threshold in lab4_rubric.h is too low.",
                 standin_name, ratio, yardstick_name, threshold);
}

void selftest_naive_below_smem_threshold(void **state)
{
    (void)state;
    expect_below(LAB4_ROW_NAIVE, "naive transpose", LAB4_ROW_SMEM, "naive transpose",
                 "speedup_vs_naive", LAB4_SMEM_SPEEDUP_MIN);
}

void selftest_unpadded_below_padded_threshold(void **state)
{
    (void)state;
    expect_below(LAB4_ROW_UNPADDED, "unpadded tile", LAB4_ROW_PADDED, "unpadded tile",
                 "speedup_vs_unpadded", LAB4_PADDED_SPEEDUP_MIN);
}

void selftest_unpadded_below_copy_threshold(void **state)
{
    (void)state;
    expect_below(LAB4_ROW_UNPADDED, "unpadded tile", LAB4_ROW_MULTIROW,
                 "cudaMemcpy device-to-device", "fraction_of_copy",
                 LAB4_MULTIROW_COPY_FRACTION_MIN);
}

void selftest_unpadded_below_vector_threshold(void **state)
{
    (void)state;
    expect_below(LAB4_ROW_UNPADDED, "unpadded tile", LAB4_ROW_VECTOR,
                 "cudaMemcpy device-to-device", "fraction_of_copy",
                 LAB4_VECTOR_COPY_FRACTION_MIN);
}
