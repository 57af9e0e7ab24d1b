/* Lab 7 speed checks at LAB7_SPEED_SIZE^3, each a ratio measured in one run
 * against lab 3's tiled kernel (lab3_reference) or cuBLAS SGEMM in pure
 * FP32; which kernel runs against which is lab 7's kernel table
 * (lab7_kernels.c). grader/matmul's matmul_speed times them: every timed
 * run multiplies fresh inputs into a NaN-poisoned C (so beta == 0 must not
 * read it), whose whole result is then compared on the device with the
 * yardstick's C of the same run and sampled against the CPU. */
#include <stdio.h>

#include <cuda_runtime_api.h>

#include "compare.h"
#include "device_buffer.h"
#include "device_verify.h"
#include "guard.h"
#include "harness.h"
#include "lab7_checks.h"
#include "lab7_cublas.h"
#include "lab7_gpu_common.h"
#include "lab7_kernels.h"
#include "lab7_rubric.h"
#include "matmul_checks.h"
#include "speed_check.h"
#include "stage_identity.h"
#include "steady_timing.h"

static const timing_plan SPEED_PLAN = {.warmup = 3, .runs = 21, .launches_per_run = 1,
                                       .flush_l2 = 1};

/* The stage's row of the kernel table (the four stages' rows are in
 * lab7_stage order; the final stage's row comes after lab 3's thread tile). */
static int stage_row(lab7_stage stage)
{
    return stage == LAB7_STAGE_SIZED ? LAB7_ROW_SIZED : LAB7_ROW_BLOCK_TILE_1D + (int)stage;
}

/* The row `timed` (the student's stage, or a kernel of lab 3 standing in
 * for it in a self-test), called `student` in the messages, against the row
 * `yardstick`, at the size the row `graded` is graded at. */
static matmul_speed_spec spec_for(const matmul_impl *student, int timed, int yardstick,
                                  int graded, const char *yardstick_name, double threshold,
                                  const char *ratio_name, const char *hint)
{
    const kernel_row *rows = lab_kernel_table.rows;
    matmul_speed_spec spec = {.student = student,
                              .timed = &rows[timed],
                              .yardstick = &rows[yardstick],
                              .baseline_name = yardstick_name,
                              .shape = matmul_graded_shape(&rows[graded]),
                              .threshold = threshold,
                              .ratio_name = ratio_name,
                              .hint = hint,
                              .plan = SPEED_PLAN};
    return spec;
}

static const char LAB3_NAME[] = "lab 3's tiled kernel (TILE 32)";
static const char CUBLAS_NAME[] = "cuBLAS SGEMM (FP32, CUBLAS_PEDANTIC_MATH)";

/* The row `graded`'s yardstick in the table: lab 3's tiles for every stage. */
static int yardstick_of(int graded) { return lab_kernel_table.rows[graded].yardstick; }

/* The SM count the sized stage's chooser is judged for (as gpu_sized_correct). */
static int sm_count(void)
{
    int device = 0, sms = 0;
    GRADER_CHECK(cudaGetDevice(&device) == cudaSuccess &&
                     cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) ==
                         cudaSuccess && sms > 0,
                 "the grader could not read the SM count");
    return sms;
}

/* The student's stage timed on its row's graded size, every timed call held
 * to the stage's launch (lab7_stage_launch), as the graded calls are. */
static void time_stage(lab7_stage stage, int yardstick, const char *yardstick_name,
                       double threshold, const char *ratio_name, const char *hint)
{
    grader_require_gpu();
    int row = stage_row(stage);
    /* Before the timing: a failed speed test keeps its ratio for the batch's
     * partial credit, which a stage running another stage's kernel (the
     * vectorised stage on the warp tile's) must not get. */
    stage_identity_expect_own(&lab_kernel_table, row);
    matmul_speed_spec spec = spec_for(&lab7_stage_about(stage)->impl, row, yardstick, row,
                                      yardstick_name, threshold, ratio_name, hint);
    char where[512];
    spec.launch = lab7_stage_launch(stage, spec.shape,
                                    stage == LAB7_STAGE_SIZED ? sm_count() : 0, where,
                                    sizeof where);
    matmul_speed(&spec, 1, NULL);
}

static void stage_over_lab3(lab7_stage stage, double threshold, const char *hint)
{
    time_stage(stage, yardstick_of(stage_row(stage)), LAB3_NAME, threshold,
               "speedup_over_lab3", hint);
}

void gpu_block_tile_1d_speed_vs_lab3(void **state)
{
    (void)state;
    stage_over_lab3(LAB7_STAGE_BLOCK_TILE_1D, LAB7_BLOCK_TILE_1D_SPEEDUP_MIN,
                    "Each value of B a thread reads from shared memory should serve TM1 "
                    "multiply-adds: check that the inner loop keeps the TM1 results in "
                    "registers (unrolled loops, constant indices) and reads one Bs value per "
                    "p (TODO(7.3)), and the spill note of cpu_kernel_resources. Handout "
                    "sections 3 and 5.");
}

void gpu_block_tile_2d_speed_vs_lab3(void **state)
{
    (void)state;
    stage_over_lab3(LAB7_STAGE_BLOCK_TILE_2D, LAB7_BLOCK_TILE_2D_SPEEDUP_MIN,
                    "TM2 + TN2 shared loads should feed TM2 x TN2 multiply-adds: load the "
                    "fragments reg_m and reg_n first, then multiply from registers only "
                    "(TODO(7.5)); all loops unrolled. Handout sections 3 and 6.");
}

void gpu_vectorised_speed_vs_lab3(void **state)
{
    (void)state;
    stage_over_lab3(LAB7_STAGE_VECTORISED, LAB7_VECTORISED_SPEEDUP_MIN,
                    "Check that the global loads are float4s (TODO(7.6)), that A is stored "
                    "transposed so the inner loop reads its fragment as float4s, and that the "
                    "epilogue uses sgemm_store4 (TODO(7.7)). Handout section 7.");
}

static const char WARP_SPEED_HINT[] =
    "Check that every fragment and accumulator index is a compile-time constant (all loops "
    "over WMITER, WNITER, TM, TN and BK unrolled), that the fragments are read as float4s "
    "(TODO(7.9)), and the register and spill notes of cpu_kernel_resources. Handout sections "
    "8 and 9.";

void gpu_warp_tile_speed_vs_lab3(void **state)
{
    (void)state;
    stage_over_lab3(LAB7_STAGE_WARP_TILE, LAB7_WARP_TILE_SPEEDUP_MIN, WARP_SPEED_HINT);
}

void gpu_warp_tile_fraction_of_cublas(void **state)
{
    (void)state;
    /* Against the table's ceiling, cuBLAS, not the row's yardstick. */
    time_stage(LAB7_STAGE_WARP_TILE, LAB7_ROW_CUBLAS, CUBLAS_NAME,
               LAB7_WARP_TILE_CUBLAS_FRACTION_MIN, "fraction_of_cublas", WARP_SPEED_HINT);
}

/* The optional final stage (bonus) against lab 3 at LAB7_SIZED_SPEED_SIZE,
 * where the lab's 128 x 128 tile leaves most SMs without a block. The
 * threshold is the "no slower than lab 3" (lab7_rubric.h: why at
 * 512 and not at 256). */
void gpu_sized_speed_vs_lab3(void **state)
{
    (void)state;
    stage_over_lab3(LAB7_STAGE_SIZED, LAB7_SIZED_SPEEDUP_MIN,
                    "At this size the 128 x 128 tile gives too few blocks to fill the GPU: "
                    "check that lab7_choose_tile picks the small tile here (TODO(7.11)), that "
                    "TODO(7.13) launches the kernel it picked, and that the small-tile kernel "
                    "keeps stage 4's unrolled loops, float4 fragments and two buffers "
                    "(TODO(7.12)). Handout section 11.");
}

/* ---------------------------------------------------------- the table */

/* Each kernel alone on the same problem, the warp tile's graded cube:
 * fresh inputs and a poisoned C before every run; after it, cuBLAS
 * computes the answer into another buffer and the whole C is compared
 * with it. */
typedef struct {
    device_buffer a, b, c, want;
    int size;
    size_t n;
    uint64_t seed;
} table_problem;

static int table_prepare(void *ctx, int run)
{
    table_problem *p = ctx;
    device_fill_uniform(p->a.data, p->n, p->seed + 2 * (uint64_t)run, -1.0f, 1.0f);
    device_fill_uniform(p->b.data, p->n, p->seed + 2 * (uint64_t)run + 1, -1.0f, 1.0f);
    device_fill_u32(p->c.data, GUARD_POISON_BITS, p->n);
    return 0;
}

static int table_verify(void *ctx, int run)
{
    (void)run;
    table_problem *p = ctx;
    int s = p->size;
    if (lab7_cublas_sgemm(s, s, s, 1.0f, p->a.data, p->b.data, 0.0f, p->want.data) != LAB_OK)
        return 1;
    return device_count_mismatches(p->c.data, p->want.data, p->n,
                                   2.0 * compare_dot_atol((size_t)s), 2.0 * MATMUL_RTOL) != 0;
}

/* A row of the table on the problem, writing C. */
static kernel_call table_call(int row, const table_problem *p)
{
    kernel_call call = {&lab_kernel_table.rows[row],
                        {.size = {p->size, p->size, p->size}, .in = {p->a.data, p->b.data},
                         .out = p->c.data}};
    return call;
}

/* The clock rules of make bench (bench_rules.h, steady_timing.h): the
 * kernels run one after the other, so each row settles first and is
 * measured again while its spread is too wide; cuBLAS, the ceiling, is
 * timed first, and a row still faster than it beyond its slack is left out
 * as a measurement error (clocks down while cuBLAS was timed). A test keeps
 * at most 24 metrics (RECORD_MAX_METRICS): per row its GFLOP/s, fraction of
 * cuBLAS and spread (ms and x lab 3 follow from the GFLOP/s). */
static const timing_plan TABLE_PLAN = {.warmup = 2, .runs = 11, .launches_per_run = 1,
                                       .flush_l2 = 1};

static double table_flops(const kernel_call *call)
{
    return kernel_row_flops(call->row, call->args.size);
}

static steady_entry table_entry(kernel_call *call, const timing_guard *guard, const char *what)
{
    steady_entry e = {kernel_call_launch, call, guard,
                      {grader_watch, grader_unwatch, what,
                       grader_call_limit_s(0.0, 2.0 * table_flops(call))}};
    return e;
}

void gpu_sgemm_table(void **state)
{
    (void)state;
    grader_require_gpu();
    table_problem p;
    p.size = (int)lab_kernel_table.rows[LAB7_ROW_WARP_TILE].graded_size[0];
    p.n = (size_t)p.size * (size_t)p.size;
    p.seed = grader_seed() + 7700;
    dbuf_alloc(&p.a, "A", p.n * sizeof(float));
    dbuf_alloc(&p.b, "B", p.n * sizeof(float));
    dbuf_alloc(&p.c, "C", p.n * sizeof(float));
    dbuf_alloc(&p.want, "C (cuBLAS)", p.n * sizeof(float));
    timing_guard guard = {table_prepare, table_verify, &p};

    /* The kernels, as rows of the kernel table; cuBLAS, the table's
     * ceiling, is timed first, and is the last line. */
    struct {
        const char *name;
        int row;
    } rows[2 + LAB7_STAGE_COUNT] = {{"lab3_tiled", LAB7_ROW_LAB3},
                                    {"lab3_thread_tile", LAB7_ROW_LAB3_THREAD_TILE}};
    for (int s = 0; s < LAB7_STAGE_COUNT; ++s) {
        rows[2 + s].name = lab7_stage_about((lab7_stage)s)->name;
        rows[2 + s].row = stage_row((lab7_stage)s);
    }
    enum { ROWS = sizeof rows / sizeof rows[0] };

    grader_gpu_exclusive();
    kernel_call cublas_call = table_call(LAB7_ROW_CUBLAS, &p);
    const double flops = table_flops(&cublas_call);
    steady_entry ceiling = table_entry(&cublas_call, &guard, "cublas at 4096^3 (timing)");
    steady_measurement cublas;
    int status = timing_measure_steadily(&ceiling, &TABLE_PLAN, &cublas);
    if (status != 0) { /* the rows are still timed, with no ceiling to hold them to */
        cublas.tries = 0;
        grader_note("cublas: not timed (%s)", lab_status_name((lab_status)status));
    }
    const steady_entry *held_to = cublas.tries ? &ceiling : NULL;
    steady_measurement ms[ROWS];
    bench_row_fate fate[ROWS];
    for (int r = 0; r < ROWS; ++r) {
        kernel_call call = table_call(rows[r].row, &p);
        char what[96];
        snprintf(what, sizeof what, "%s at 4096^3 (timing)", rows[r].name);
        steady_entry row = table_entry(&call, &guard, what);
        status = timing_row_steadily(&row, held_to, &TABLE_PLAN, &cublas, &ms[r], &fate[r]);
        if (status != 0) {
            ms[r].tries = 0; /* not in the table */
            grader_note("%s: not timed (%s)", rows[r].name,
                        status == TIMING_WRONG_RESULT ? "its output differed from cuBLAS's"
                                                      : lab_status_name((lab_status)status));
        }
    }

    /* Reported once every row is in: a recheck may have kept a faster
     * cuBLAS, and every row is stated against the one kept. lab 3's tiled
     * kernel is the "x lab 3" column's yardstick unless it was left out. */
    const double cublas_ms = cublas.tries ? cublas.ms.median : 0.0;
    const int lab3_in = ms[0].tries && fate[0] != BENCH_ROW_ABOVE_CEILING;
    const double lab3_ms = lab3_in ? ms[0].ms.median : 0.0;
    char spread[96];
    grader_note("each row settled first; spread = max/min of its %d runs, measured again above "
                "%.2f", TABLE_PLAN.runs, BENCH_SPREAD_MAX);
    grader_note("%-17s %9s %10s %11s %10s  %s", "kernel", "ms", "GFLOP/s", "% of cuBLAS",
                "x lab 3", "spread");
    int above = 0;
    char metric[64];
    for (int r = 0; r <= ROWS; ++r) {
        const char *name = r < ROWS ? rows[r].name : "cublas";
        const steady_measurement *m = r < ROWS ? &ms[r] : &cublas;
        if (m->tries == 0)
            continue;
        double row_ms = m->ms.median, gflops = flops / (row_ms * 1e6);
        if (r < ROWS && fate[r] == BENCH_ROW_ABOVE_CEILING) {
            ++above;
            grader_note("%s: measured %.0f GFLOP/s, %.1f%% of cuBLAS, twice: above cuBLAS on "
                        "the same product, an error of the measurement, left out",
                        name, gflops, 100.0 * cublas_ms / row_ms);
            continue;
        }
        snprintf(metric, sizeof metric, "%s_GFLOPs", name);
        grader_metric(metric, gflops, "GFLOP/s");
        if (r < ROWS && cublas_ms > 0) {
            snprintf(metric, sizeof metric, "%s_fraction_of_cublas", name);
            grader_metric(metric, cublas_ms / row_ms, "ratio");
        }
        snprintf(metric, sizeof metric, "%s_spread", name);
        grader_metric(metric, steady_spread(&m->ms), "ratio");
        grader_note("%-17s %9.3f %10.0f %10.1f%% %9.2fx  %s", name, row_ms, gflops,
                    cublas_ms > 0 ? 100.0 * cublas_ms / row_ms : 0.0,
                    lab3_ms > 0 ? lab3_ms / row_ms : 0.0,
                    steady_describe(m, spread, sizeof spread));
    }
    grader_metric("rows_above_ceiling", above, "rows");
    dbuf_free(&p.a);
    dbuf_free(&p.b);
    dbuf_free(&p.c);
    dbuf_free(&p.want);
}

/* ---------------------------------------------------------- self-tests */

void selftest_lab3_tiled_below_block_tile_1d_threshold(void **state)
{
    (void)state;
    grader_require_gpu();
    int graded = LAB7_ROW_BLOCK_TILE_1D;
    matmul_speed_spec spec = spec_for(&LAB7_LAB3_TILED, LAB7_ROW_LAB3, yardstick_of(graded),
                                      graded, LAB3_NAME, LAB7_BLOCK_TILE_1D_SPEEDUP_MIN,
                                      "speedup_over_lab3", "");
    matmul_expect_below_threshold(&spec, "LAB7_BLOCK_TILE_1D_SPEEDUP_MIN");
}

void selftest_lab3_thread_tile_below_warp_tile_threshold(void **state)
{
    (void)state;
    grader_require_gpu();
    int graded = LAB7_ROW_WARP_TILE;
    matmul_speed_spec spec =
        spec_for(&LAB7_LAB3_THREAD_TILE, LAB7_ROW_LAB3_THREAD_TILE, yardstick_of(graded), graded,
                 LAB3_NAME, LAB7_WARP_TILE_SPEEDUP_MIN, "speedup_over_lab3", "");
    matmul_expect_below_threshold(&spec, "LAB7_WARP_TILE_SPEEDUP_MIN");
}

void selftest_lab3_thread_tile_below_cublas_threshold(void **state)
{
    (void)state;
    grader_require_gpu();
    matmul_speed_spec spec =
        spec_for(&LAB7_LAB3_THREAD_TILE, LAB7_ROW_LAB3_THREAD_TILE, LAB7_ROW_CUBLAS,
                 LAB7_ROW_WARP_TILE, CUBLAS_NAME, LAB7_WARP_TILE_CUBLAS_FRACTION_MIN,
                 "fraction_of_cublas", "");
    matmul_expect_below_threshold(&spec, "LAB7_WARP_TILE_CUBLAS_FRACTION_MIN");
}

/* The final stage's baseline: the lab's stage 4 (its 128 x 128 tile at every
 * size, what a chooser that always picks the large tile launches) timed in
 * the final stage's place, at its size. */
void selftest_warp_tile_below_sized_threshold(void **state)
{
    (void)state;
    grader_require_gpu();
    int graded = LAB7_ROW_SIZED;
    matmul_speed_spec spec = spec_for(&lab7_stage_about(LAB7_STAGE_WARP_TILE)->impl,
                                      LAB7_ROW_WARP_TILE, yardstick_of(graded), graded,
                                      LAB3_NAME, LAB7_SIZED_SPEEDUP_MIN, "speedup_over_lab3", "");
    matmul_expect_below_threshold(&spec, "LAB7_SIZED_SPEEDUP_MIN");
}
