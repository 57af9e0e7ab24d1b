/* Lab 7 speed checks at LAB7_SPEED_SIZE^3, each a ratio measured in one run
 * against a yardstick: lab 3's tiled kernel (lab 3's reference, linked as
 * lab3_reference) or cuBLAS SGEMM in pure FP32. grader/matmul's
 * matmul_speed does the timing: every timed run multiplies fresh inputs
 * into a NaN-poisoned C (so beta == 0 must not read it), and the whole C is
 * then compared on the device with the yardstick's C of the same run (for
 * the cuBLAS check: cuBLAS's own result), and sampled against the CPU. */
#include <stdio.h>

#include "compare.h"
#include "device_buffer.h"
#include "device_verify.h"
#include "guard.h"
#include "harness.h"
#include "lab7_checks.h"
#include "lab7_cublas.h"
#include "lab7_gpu_common.h"
#include "lab7_rubric.h"
#include "matmul_checks.h"
#include "speed_check.h"

static const matmul_shape SPEED_SHAPE = {LAB7_SPEED_SIZE, LAB7_SPEED_SIZE, LAB7_SPEED_SIZE};
static const timing_plan SPEED_PLAN = {.warmup = 3, .runs = 21, .launches_per_run = 1,
                                       .flush_l2 = 1};

static matmul_speed_spec spec_for(const matmul_impl *student, const matmul_impl *yardstick,
                                  const char *yardstick_name, double threshold,
                                  const char *ratio_name, const char *hint)
{
    matmul_speed_spec spec = {.student = student,
                              .baseline = yardstick->fn,
                              .baseline_name = yardstick_name,
                              .shape = SPEED_SHAPE,
                              .threshold = threshold,
                              .ratio_name = ratio_name,
                              .hint = hint,
                              .plan = SPEED_PLAN};
    return spec;
}

static const char LAB3_NAME[] = "lab 3's tiled kernel (TILE 32)";
static const char CUBLAS_NAME[] = "cuBLAS SGEMM (FP32, CUBLAS_PEDANTIC_MATH)";

static void stage_over_lab3(lab7_stage stage, double threshold, const char *hint)
{
    grader_require_gpu();
    matmul_speed_spec spec = spec_for(&lab7_stage_about(stage)->impl, &LAB7_LAB3_TILED,
                                      LAB3_NAME, threshold, "speedup_over_lab3", hint);
    matmul_speed(&spec, 1, NULL);
}

void gpu_block_tile_1d_speed_vs_lab3(void **state)
{
    (void)state;
    stage_over_lab3(LAB7_STAGE_BLOCK_TILE_1D, LAB7_BLOCK_TILE_1D_SPEEDUP_MIN,
                    "Each value of B a thread reads from shared memory should serve TM1 "
                    "multiply-adds: check that the inner loop keeps the TM1 results in "
                    "registers (unrolled loops, constant indices) and reads one Bs value per "
                    "p (TODO(7.3)), and the spill note of gpu_kernel_resources. Handout "
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
    "(TODO(7.9)), and the register and spill notes of gpu_kernel_resources. Handout sections "
    "8 and 9.";

void gpu_warp_tile_speed_vs_lab3(void **state)
{
    (void)state;
    stage_over_lab3(LAB7_STAGE_WARP_TILE, LAB7_WARP_TILE_SPEEDUP_MIN, WARP_SPEED_HINT);
}

void gpu_warp_tile_fraction_of_cublas(void **state)
{
    (void)state;
    grader_require_gpu();
    matmul_speed_spec spec =
        spec_for(&lab7_stage_about(LAB7_STAGE_WARP_TILE)->impl, &LAB7_CUBLAS, CUBLAS_NAME,
                 LAB7_WARP_TILE_CUBLAS_FRACTION_MIN, "fraction_of_cublas", WARP_SPEED_HINT);
    matmul_speed(&spec, 1, NULL);
}

/* ---------------------------------------------------------- the table */

/* Each kernel alone on the same 4096^3 problem: fresh inputs and a
 * poisoned C before every run; after it, cuBLAS computes the answer into
 * another buffer and the whole C is compared with it. */
typedef struct {
    device_buffer a, b, c, want;
    size_t n;
    uint64_t seed;
} table_problem;

typedef struct {
    matmul_fn fn;
    table_problem *p;
} table_call;

static int table_launch(void *ctx)
{
    table_call *t = ctx;
    int s = LAB7_SPEED_SIZE;
    return t->fn(t->p->a.data, t->p->b.data, t->p->c.data, s, s, s);
}

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
    int s = LAB7_SPEED_SIZE;
    if (lab7_cublas_sgemm(s, s, s, 1.0f, p->a.data, p->b.data, 0.0f, p->want.data) != LAB_OK)
        return 1;
    return device_count_mismatches(p->c.data, p->want.data, p->n,
                                   2.0 * compare_dot_atol((size_t)s), 2.0 * MATMUL_RTOL) != 0;
}

void gpu_sgemm_table(void **state)
{
    (void)state;
    grader_require_gpu();
    table_problem p;
    p.n = (size_t)LAB7_SPEED_SIZE * LAB7_SPEED_SIZE;
    p.seed = grader_seed() + 7700;
    dbuf_alloc(&p.a, "A", p.n * sizeof(float));
    dbuf_alloc(&p.b, "B", p.n * sizeof(float));
    dbuf_alloc(&p.c, "C", p.n * sizeof(float));
    dbuf_alloc(&p.want, "C (cuBLAS)", p.n * sizeof(float));
    const double flops = 2.0 * (double)LAB7_SPEED_SIZE * LAB7_SPEED_SIZE * LAB7_SPEED_SIZE;
    const timing_plan plan = {.warmup = 2, .runs = 11, .launches_per_run = 1, .flush_l2 = 1};
    timing_guard guard = {table_prepare, table_verify, &p};

    struct {
        const char *name;
        const matmul_impl *impl;
    } rows[2 + LAB7_STAGE_COUNT + 1] = {{"lab3_tiled", &LAB7_LAB3_TILED},
                                        {"lab3_thread_tile", &LAB7_LAB3_THREAD_TILE}};
    for (int s = 0; s < LAB7_STAGE_COUNT; ++s) {
        rows[2 + s].name = lab7_stage_about((lab7_stage)s)->name;
        rows[2 + s].impl = &lab7_stage_about((lab7_stage)s)->impl;
    }
    rows[2 + LAB7_STAGE_COUNT].name = "cublas";
    rows[2 + LAB7_STAGE_COUNT].impl = &LAB7_CUBLAS;
    enum { ROWS = sizeof rows / sizeof rows[0] };

    double ms[ROWS];
    grader_gpu_exclusive();
    for (int r = 0; r < ROWS; ++r) {
        table_call call = {rows[r].impl->fn, &p};
        stats_summary summary;
        char what[96];
        snprintf(what, sizeof what, "%s at 4096^3 (timing)", rows[r].name);
        grader_watch(what, grader_call_limit_s(0.0, 2.0 * flops) * (plan.warmup + plan.runs));
        int status = timing_measure(table_launch, &call, &plan, &guard, &summary);
        grader_unwatch();
        ms[r] = status == 0 ? summary.median : -1.0;
        if (status != 0)
            grader_note("%s: not timed (%s)", rows[r].name,
                        status == TIMING_WRONG_RESULT ? "its output differed from cuBLAS's"
                                                      : lab_status_name((lab_status)status));
    }
    const double cublas_ms = ms[ROWS - 1], lab3_ms = ms[0];
    grader_note("%-17s %9s %10s %11s %10s", "kernel", "ms", "GFLOP/s", "% of cuBLAS",
                "x lab 3");
    for (int r = 0; r < ROWS; ++r) {
        if (ms[r] <= 0.0)
            continue;
        double gflops = flops / (ms[r] * 1e6);
        char metric[64];
        snprintf(metric, sizeof metric, "%s_ms", rows[r].name);
        grader_metric(metric, ms[r], "ms");
        snprintf(metric, sizeof metric, "%s_GFLOPs", rows[r].name);
        grader_metric(metric, gflops, "GFLOP/s");
        double of_cublas = cublas_ms > 0 ? cublas_ms / ms[r] : 0.0;
        double over_lab3 = lab3_ms > 0 ? lab3_ms / ms[r] : 0.0;
        if (cublas_ms > 0) {
            snprintf(metric, sizeof metric, "%s_fraction_of_cublas", rows[r].name);
            grader_metric(metric, of_cublas, "ratio");
        }
        if (lab3_ms > 0) {
            snprintf(metric, sizeof metric, "%s_over_lab3", rows[r].name);
            grader_metric(metric, over_lab3, "x");
        }
        grader_note("%-17s %9.3f %10.0f %10.1f%% %9.2fx", rows[r].name, ms[r], gflops,
                    100.0 * of_cublas, over_lab3);
    }
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
    matmul_speed_spec spec = spec_for(&LAB7_LAB3_TILED, &LAB7_LAB3_TILED, LAB3_NAME,
                                      LAB7_BLOCK_TILE_1D_SPEEDUP_MIN, "speedup_over_lab3", "");
    matmul_expect_below_threshold(&spec, "LAB7_BLOCK_TILE_1D_SPEEDUP_MIN");
}

void selftest_lab3_thread_tile_below_warp_tile_threshold(void **state)
{
    (void)state;
    grader_require_gpu();
    matmul_speed_spec spec = spec_for(&LAB7_LAB3_THREAD_TILE, &LAB7_LAB3_TILED, LAB3_NAME,
                                      LAB7_WARP_TILE_SPEEDUP_MIN, "speedup_over_lab3", "");
    matmul_expect_below_threshold(&spec, "LAB7_WARP_TILE_SPEEDUP_MIN");
}

void selftest_lab3_thread_tile_below_cublas_threshold(void **state)
{
    (void)state;
    grader_require_gpu();
    matmul_speed_spec spec =
        spec_for(&LAB7_LAB3_THREAD_TILE, &LAB7_CUBLAS, CUBLAS_NAME,
                 LAB7_WARP_TILE_CUBLAS_FRACTION_MIN, "fraction_of_cublas", "");
    matmul_expect_below_threshold(&spec, "LAB7_WARP_TILE_CUBLAS_FRACTION_MIN");
}
