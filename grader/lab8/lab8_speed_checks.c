/* Lab 8 speed checks at LAB8_SPEED_SIZE^3, each a ratio measured in one run
 * against a yardstick: lab 7's warp-tiled FP32 kernel (lab 7's reference,
 * on the same values as floats) or cuBLAS with FP16 inputs and FP32
 * compute. Every timed run multiplies fresh inputs into a NaN-poisoned C
 * (so beta == 0 must not read it); after it cuBLAS computes the same
 * product into a buffer of its own and the whole C is compared with it on
 * the device.
 *
 * The timing's "faster than the hardware allows" floor (speed_check.h) is
 * given the bytes of the work only, not its flops: that floor divides
 * flops by the FP32 peak, which tensor cores exceed many times over. The
 * GFLOP/s are reported here instead. */
#include <stdio.h>

#include <cuda_runtime_api.h>

#include "device_buffer.h"
#include "device_verify.h"
#include "guard.h"
#include "harness.h"
#include "lab7.h"
#include "lab8_checks.h"
#include "lab8_cublas.h"
#include "lab8_gpu_common.h"
#include "lab8_half.h"
#include "lab8_kernels.h"
#include "lab8_rubric.h"
#include "lab8_tolerance.h"
#include "compare.h"
#include "speed_check.h"
#include "stage_identity.h"

static const timing_plan SPEED_PLAN = {.warmup = 3, .runs = 21, .launches_per_run = 1,
                                       .flush_l2 = 1};

/* The problem every timed run works on. */
typedef struct {
    device_buffer a, b, a16, b16, c, c_yardstick, want;
    int size;
    size_t n;
    uint64_t seed;
} speed_problem;

static void problem_init(speed_problem *p, int size)
{
    p->size = size;
    p->n = (size_t)size * size;
    p->seed = grader_seed() + 9000;
    dbuf_alloc(&p->a, "A (floats)", p->n * sizeof(float));
    dbuf_alloc(&p->b, "B (floats)", p->n * sizeof(float));
    dbuf_alloc(&p->a16, "A", p->n * sizeof(lab8_half));
    dbuf_alloc(&p->b16, "B", p->n * sizeof(lab8_half));
    dbuf_alloc(&p->c, "C", p->n * sizeof(float));
    dbuf_alloc(&p->c_yardstick, "C (yardstick)", p->n * sizeof(float));
    dbuf_alloc(&p->want, "C (cuBLAS, to check)", p->n * sizeof(float));
}

static void problem_free(speed_problem *p)
{
    dbuf_free(&p->a);
    dbuf_free(&p->b);
    dbuf_free(&p->a16);
    dbuf_free(&p->b16);
    dbuf_free(&p->c);
    dbuf_free(&p->c_yardstick);
    dbuf_free(&p->want);
}

/* Fresh FP16 inputs (and their floats, for lab 7) and a poisoned C. */
static int run_prepare(void *ctx, int run)
{
    speed_problem *p = ctx;
    uint64_t seed = p->seed + 2 * (uint64_t)run;
    device_fill_uniform(p->a.data, p->n, seed, -1.0f, 1.0f);
    device_fill_uniform(p->b.data, p->n, seed + 1, -1.0f, 1.0f);
    if (lab8_device_round_to_half(p->a.data, p->a16.data, p->n) ||
        lab8_device_round_to_half(p->b.data, p->b16.data, p->n))
        return 1;
    device_fill_u32(p->c.data, GUARD_POISON_BITS, p->n);
    return 0;
}

/* The timed C against cuBLAS's C of the same inputs: each within lab8_atol
 * of the exact product, so twice that apart. */
static int run_verify(void *ctx, int run)
{
    (void)run;
    speed_problem *p = ctx;
    int s = p->size;
    if (lab8_cublas_gemm(s, s, s, 1.0f, p->a16.data, p->b16.data, 0.0f, p->want.data) != LAB_OK)
        return 1;
    return device_count_mismatches(p->c.data, p->want.data, p->n, 2.0 * lab8_atol(s, 1.0, 0.0),
                                   2.0 * MATMUL_RTOL) != 0;
}

/* The kernels a speed check times, each on the problem. */
static int student_stage2(void *ctx)
{
    speed_problem *p = ctx;
    int s = p->size;
    return lab8_wmma_shared(s, s, s, 1.0f, p->a16.data, p->b16.data, 0.0f, p->c.data);
}

/* Lab 7's warp tile in stage 2's place (the self-tests), into the checked C. */
static int lab7_in_stage2_place(void *ctx)
{
    speed_problem *p = ctx;
    int s = p->size;
    return lab7_sgemm(LAB7_STAGE_WARP_TILE, s, s, s, 1.0f, p->a.data, p->b.data, 0.0f,
                      p->c.data);
}

static int yardstick_lab7(void *ctx)
{
    speed_problem *p = ctx;
    int s = p->size;
    return lab7_sgemm(LAB7_STAGE_WARP_TILE, s, s, s, 1.0f, p->a.data, p->b.data, 0.0f,
                      p->c_yardstick.data);
}

static int yardstick_cublas(void *ctx)
{
    speed_problem *p = ctx;
    int s = p->size;
    return lab8_cublas_gemm(s, s, s, 1.0f, p->a16.data, p->b16.data, 0.0f, p->c_yardstick.data);
}

static const char LAB7_NAME[] = "lab 7's warp tile (FP32, lab 7's reference)";
static const char CUBLAS_NAME[] = "cuBLAS GemmEx (FP16 in, FP32 compute)";
static const char STAGE2_HINT[] =
    "Check that every fragment index is a compile-time constant (the loops over FM, FN and "
    "the 16s of BK unrolled), that the tiles are loaded 16 bytes per thread (TODO(8.5)), that "
    "each fragment of A and B is loaded once per 16 of K and reused for all the mma_sync "
    "calls it takes part in (TODO(8.6)), and that there are two barriers per K step, not "
    "more. Handout sections 7 and 8.";

typedef struct {
    timed_launch student, yardstick;
    const char *student_name, *yardstick_name;
    const char *ratio_name;
    double threshold;
    int judged; /* 0: a self-test, measured only */
} speed_case;

/* Measures one case on the graded cube; records the GFLOP/s beside the
 * ratio. Returns the measurement. */
static timing_ab_result measure(const speed_case *sc, speed_problem *p)
{
    const int s = p->size;
    const double flops = 2.0 * s * (double)s * s;
    /* The least DRAM traffic of the work: A and B read once, C written. */
    const double bytes = 2.0 * 2.0 * (double)p->n + 4.0 * (double)p->n;
    char description[256], where[768];
    snprintf(description, sizeof description, "%s vs %s on %dx%dx%d", sc->student_name,
             sc->yardstick_name, s, s, s);
    launch_shape shape = lab8_stage_launch(LAB8_STAGE_WMMA_SHARED, s, s, where, sizeof where);
    speed_spec spec = {sc->ratio_name, description, sc->threshold, bytes, 0.0, STAGE2_HINT,
                       lab8_stage_about(LAB8_STAGE_WMMA_SHARED)->hint,
                       sc->judged ? &shape : NULL};
    timing_guard guard = {run_prepare, run_verify, p};
    timing_ab_result r;
    speed_measure(sc->student, p, sc->yardstick, p, &SPEED_PLAN, &guard, &spec, &r);
    if (sc->judged && r.ratio < sc->threshold &&
        r.ratio >= sc->threshold * (1.0 - SPEED_RECHECK_BAND)) {
        grader_note("%s: ratio %.3f is just below the threshold %.3f; measuring again",
                    description, r.ratio, sc->threshold);
        timing_plan again = SPEED_PLAN;
        again.runs *= 2;
        speed_measure(sc->student, p, sc->yardstick, p, &again, &guard, &spec, &r);
    }
    speed_report(&r, &spec);
    grader_metric("student_GFLOPs", flops / (r.a_ms.median * 1e6), "GFLOP/s");
    grader_metric("baseline_GFLOPs", flops / (r.b_ms.median * 1e6), "GFLOP/s");
    GRADER_CHECK(!sc->judged || r.ratio >= sc->threshold,
                 "%s: speed ratio %.3f is below the threshold %.3f (student %.4f ms, baseline "
                 "%.4f ms per launch, median of %d). %s",
                 description, r.ratio, sc->threshold, r.a_ms.median, r.b_ms.median,
                 (int)r.a_ms.count, STAGE2_HINT);
    return r;
}

static void time_stage2(timed_launch yardstick, const char *yardstick_name,
                        const char *ratio_name, double threshold)
{
    lab8_require_tensor_cores();
    /* Before the timing: a failed speed test keeps its ratio for the batch's
     * partial credit, which stage 2 running stage 1's kernel must not get. */
    stage_identity_expect_own(&lab_kernel_table, LAB8_ROW_WMMA_SHARED);
    speed_problem p;
    problem_init(&p, LAB8_SPEED_SIZE);
    speed_case sc = {student_stage2, yardstick, "lab8_wmma_shared", yardstick_name, ratio_name,
                     threshold, 1};
    measure(&sc, &p);
    problem_free(&p);
}

void gpu_wmma_shared_speed_vs_lab7(void **state)
{
    (void)state;
    time_stage2(yardstick_lab7, LAB7_NAME, "speedup_over_lab7", LAB8_WMMA_SHARED_SPEEDUP_MIN);
}

void gpu_wmma_shared_fraction_of_cublas(void **state)
{
    (void)state;
    time_stage2(yardstick_cublas, CUBLAS_NAME, "fraction_of_cublas",
                LAB8_WMMA_SHARED_CUBLAS_FRACTION_MIN);
}

/* ---------------------------------------------------------- self-tests */

/* Lab 7's warp tile graded as if it were stage 2: it must stay below the
 * threshold (selftest_stays_below: its ratio and its best single pair). */
typedef struct {
    speed_case sc;
    speed_problem *p;
} baseline_ctx;

static void measure_baseline(void *ctx, timing_ab_result *r)
{
    baseline_ctx *b = ctx;
    *r = measure(&b->sc, b->p);
}

static void lab7_stays_below(timed_launch yardstick, const char *yardstick_name,
                             const char *ratio_name, double threshold, const char *rubric_name)
{
    lab8_require_tensor_cores();
    speed_problem p;
    problem_init(&p, LAB8_SPEED_SIZE);
    baseline_ctx b = {{lab7_in_stage2_place, yardstick, LAB7_NAME, yardstick_name, ratio_name,
                       threshold, 0},
                      &p};
    timing_ab_result r;
    int below = selftest_stays_below(measure_baseline, &b, threshold, &r);
    problem_free(&p);
    GRADER_CHECK(below,
                 "%s graded as stage 2 against %s: ratio %.3f (best single pair %.3f) reaches "
                 "the threshold %.3f, so on this GPU the speed check cannot tell a kernel "
                 "without tensor cores apart. Recalibrate %s in grader/lab8/lab8_rubric.h.",
                 LAB7_NAME, yardstick_name, r.ratio, r.pair_ratio.max, threshold, rubric_name);
}

void selftest_lab7_warp_tile_below_wmma_shared_threshold(void **state)
{
    (void)state;
    lab7_stays_below(yardstick_lab7, LAB7_NAME, "speedup_over_lab7",
                     LAB8_WMMA_SHARED_SPEEDUP_MIN, "LAB8_WMMA_SHARED_SPEEDUP_MIN");
}

void selftest_lab7_warp_tile_below_cublas_fraction(void **state)
{
    (void)state;
    lab7_stays_below(yardstick_cublas, CUBLAS_NAME, "fraction_of_cublas",
                     LAB8_WMMA_SHARED_CUBLAS_FRACTION_MIN,
                     "LAB8_WMMA_SHARED_CUBLAS_FRACTION_MIN");
}
