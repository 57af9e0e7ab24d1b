/* Lab 3 GPU checks: results on sizes around every tile edge and on lab 2's
 * shapes, bad input, and speed against the naive coalesced kernel. What the
 * compiler made of the kernels: lab3_static_checks.c. */
#include <stdio.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "device_buffer.h"
#include "gpu_checks.h"
#include "harness.h"
#include "lab3_checks.h"
#include "lab3_kernels.h"
#include "matmul_checks.h"
#include "lab3_rubric.h"
#include "racecheck.h"
#include "stage_identity.h"

static const char TILED_HINT[] =
    "Check TODO(3.3) (which element each thread copies, handout section 4), TODO(3.4) (0.0f "
    "for elements outside A or B, section 6), TODO(3.5) and (3.7) (both barriers, section 5), "
    "TODO(3.6) (section 7) and TODO(3.8) (the bounds test on the store, section 6).";
/* When a wrong result is not the same twice (matmul_expect_correct_rerun). */
static const char TILED_RERUN_HINT[] =
    "A missing barrier (TODO(3.5) or (3.7): both barriers, handout section 5) is the usual "
    "cause; so is a tile element that no thread stored in this phase (TODO(3.4): 0.0f outside "
    "A and B, section 6). Run `make sanitize-lab3`: racecheck names the line.";
static const char THREAD_TILE_RERUN_HINT[] =
    "A missing barrier (TODO(3.12): one after the stores, one after the inner loop; handout "
    "section 8) is the usual cause; so is a tile element that no thread stored in this phase "
    "(0.0f outside the matrices). Run `make sanitize-lab3`: racecheck names the line.";
static const char THREAD_TILE_HINT[] =
    "Check TODO(3.10)-(3.12): outputs, loads (0.0f outside the matrices), both barriers and "
    "the bounds test on the stores; handout section 8.";

static lab_status tiled16(const float *a, const float *b, float *c, int m, int n, int k)
{
    return lab3_matmul_tiled_with(16, a, b, c, m, n, k);
}

/* The tile edge is the block's edge (lab3.h): a tile-16 entry that launches
 * 32x32 blocks passes the values but not the comparison it exists for. */
static const matmul_impl TILED = {"lab3_matmul_tiled", lab3_matmul_tiled, LAB3_TILE, TILED_HINT,
                                  "the validation written in shared_tiles.cu", LAB3_TILE,
                                  "blocks of TILE x TILE threads with TILE = LAB3_TILE, lab3.h; "
                                  "handout section 2.2"};
static const matmul_impl TILED16 = {"lab3_matmul_tiled_with(tile=16)", tiled16, 16, TILED_HINT,
                                    "the validation written in shared_tiles.cu", 16,
                                    "lab3_matmul_tiled_with(16, ...) runs the kernel with "
                                    "TILE = 16: blocks of 16 x 16 threads, lab3.h; handout "
                                    "section 2.2"};
static const matmul_impl THREAD_TILE = {"lab3_matmul_thread_tile", lab3_matmul_thread_tile,
                                        LAB3_TT_BM, THREAD_TILE_HINT,
                                        "the validation written in shared_tiles.cu", 0, NULL};
/* The baseline is lab 2's reference itself (lab2_reference: solutions/, or the
 * machine-code-only library of a student copy), never a copy of it; the
 * kernel table launches it (LAB3_ROW_NAIVE), this is how the self-test's
 * messages name it. */
static const matmul_impl NAIVE = {"lab2_matmul_naive (lab 2's reference)", NULL, 0,
                                  "The grader's naive baseline is wrong: a grader bug, please "
                                  "report it.", NULL, 0, NULL};

static const timing_plan SPEED_PLAN = {.warmup = 3, .runs = 21, .launches_per_run = 1,
                                       .flush_l2 = 1};

/* --------------------------------------------------------- mechanism */

/* ------------------------------------------------------- correctness */

enum { MAX_EDGE_SHAPES = 64 };

static int ceil_div(int a, int b) { return a / b + (a % b != 0); }

/* A wrong result may come from a helper the launch uses rather than from
 * the kernel: the grid (TODO(3.1) or (3.9)) or the phase count (TODO(3.1)).
 * The kernel's hint would send the student to the wrong TODO, so when such
 * a helper is wrong on one of the shapes graded, this says which, with the
 * call that shows it (its CPU check fails too). `tile` is the tiled
 * kernel's tile; 0 for the thread-tile kernel. */
static int blame_helpers(int tile, const matmul_shape *shapes, size_t count, char *out,
                         size_t size)
{
    const int bk = tile ? tile : LAB3_TT_BK;
    for (size_t i = 0; i < count; ++i) {
        const matmul_shape s = shapes[i];
        lab_dim3 got = tile ? lab3_tiled_grid(s.m, s.n, tile) : lab3_thread_tile_grid(s.m, s.n);
        lab_dim3 want = {ceil_div(s.n, tile ? tile : LAB3_TT_BN),
                         ceil_div(s.m, tile ? tile : LAB3_TT_BM), 1};
        if (got.x != want.x || got.y != want.y || got.z != want.z) {
            char call[64];
            if (tile)
                snprintf(call, sizeof call, "lab3_tiled_grid(m=%d, n=%d, tile=%d)", s.m, s.n,
                         tile);
            else
                snprintf(call, sizeof call, "lab3_thread_tile_grid(m=%d, n=%d)", s.m, s.n);
            snprintf(out, size, "The launch uses %s (TODO(%s)), which is wrong: %dx%dx%d "
                     "blocks, expected %dx%dx%d. Fix that first (%s; %s, section %s). ",
                     call, tile ? "3.1" : "3.9", got.x, got.y, got.z, want.x, want.y, want.z,
                     tile ? "cpu_tiled_grid_and_phases" : "cpu_thread_tile_grid",
                     LAB3_HANDOUT, tile ? "2.2" : "8");
            return 1;
        }
        int phases = lab3_phase_count(s.k, bk);
        if (phases != ceil_div(s.k, bk)) {
            snprintf(out, size, "The kernel uses lab3_phase_count (TODO(3.1)), which is wrong: "
                     "lab3_phase_count(k=%d, tile=%d) returned %d, expected %d. Fix that first "
                     "(cpu_tiled_grid_and_phases; %s, section 2.2). ",
                     s.k, bk, phases, ceil_div(s.k, bk), LAB3_HANDOUT);
            return 1;
        }
    }
    return 0;
}

/* matmul_expect_correct_shapes_rerun, with a wrong helper named first. */
static void expect_correct_shapes(const matmul_impl *impl, int tile, const matmul_shape *shapes,
                                  size_t count, int seeds, const char *rerun_hint)
{
    static char hint[1024];
    matmul_impl blamed = *impl;
    size_t used = 0;
    if (blame_helpers(tile, shapes, count, hint, sizeof hint)) {
        used = strlen(hint);
        snprintf(hint + used, sizeof hint - used, "%s", impl->hint);
        blamed.hint = hint;
    }
    matmul_expect_correct_shapes_rerun(&blamed, shapes, count, seeds, rerun_hint);
}

void gpu_tiled_tile_edges(void **state)
{
    (void)state;
    grader_require_gpu();
    matmul_shape shapes[MAX_EDGE_SHAPES];
    /* M, N and K each in {31, 32, 33, 65}: one below, at and above the tile,
     * and a partial third tile. Then the same around 16 for TILE 16. */
    size_t count = matmul_tile_edge_shapes(LAB3_TILE, LAB3_TILE, LAB3_TILE, shapes,
                                           MAX_EDGE_SHAPES);
    expect_correct_shapes(&TILED, LAB3_TILE, shapes, count, 1, TILED_RERUN_HINT);
    count = matmul_tile_edge_shapes(16, 16, 16, shapes, MAX_EDGE_SHAPES);
    expect_correct_shapes(&TILED16, 16, shapes, count, 1, TILED_RERUN_HINT);
}

void gpu_tiled_awkward_shapes(void **state)
{
    (void)state;
    grader_require_gpu();
    expect_correct_shapes(&TILED, LAB3_TILE, MATMUL_AWKWARD_SHAPES, MATMUL_AWKWARD_SHAPE_COUNT,
                          2, TILED_RERUN_HINT);
    /* ... from a kernel of its own, not the thread tile's (stage_identity.h). */
    stage_identity_expect_own(&lab_kernel_table, LAB3_ROW_TILED);
}

void gpu_thread_tile_correct(void **state)
{
    (void)state;
    grader_require_gpu();
    matmul_shape shapes[MAX_EDGE_SHAPES];
    /* M, N in {63, 64, 65, 129}, K in {7, 8, 9, 17}. */
    size_t count = matmul_tile_edge_shapes(LAB3_TT_BM, LAB3_TT_BN, LAB3_TT_BK, shapes,
                                           MAX_EDGE_SHAPES);
    expect_correct_shapes(&THREAD_TILE, 0, shapes, count, 1, THREAD_TILE_RERUN_HINT);
    expect_correct_shapes(&THREAD_TILE, 0, MATMUL_AWKWARD_SHAPES, MATMUL_AWKWARD_SHAPE_COUNT, 1,
                          THREAD_TILE_RERUN_HINT);
    stage_identity_expect_own(&lab_kernel_table, LAB3_ROW_THREAD_TILE);
}

/* -------------------------------------------------------- bad input */

void gpu_rejects_bad_input(void **state)
{
    (void)state;
    grader_require_gpu();
    matmul_expect_rejects_bad_input(&TILED);
    matmul_expect_rejects_bad_input(&THREAD_TILE);
    /* A tile size that is not compiled in. */
    device_buffer in, out;
    dbuf_alloc(&in, "A/B", 64 * sizeof(float));
    dbuf_alloc(&out, "C", 64 * sizeof(float));
    dbuf_poison(&out);
    gpu_expect_rejected(lab3_matmul_tiled_with(7, in.data, in.data, out.data, 8, 8, 1),
                        LAB_ERR_UNSUPPORTED, &out, "lab3_matmul_tiled_with(tile=7, M=8, N=8, K=1)");
    dbuf_free(&in);
    dbuf_free(&out);
}

/* ------------------------------------------------------------ speed */

/* The row `timed` of lab 3's kernel table (lab3_kernels.c), called
 * `student` in the messages, against the yardstick of the row `graded`
 * (the one whose threshold it is held to) at that row's graded size. */
static matmul_speed_spec spec_over_naive(const matmul_impl *student, int timed, int graded,
                                         double threshold, const char *ratio_name,
                                         const char *hint)
{
    const kernel_row *rows = lab_kernel_table.rows;
    matmul_speed_spec spec = {.student = student,
                              .timed = &rows[timed],
                              .yardstick = &rows[rows[graded].yardstick],
                              .baseline_name = "the naive coalesced kernel (lab 2's solution)",
                              .shape = matmul_graded_shape(&rows[graded]),
                              .threshold = threshold,
                              .ratio_name = ratio_name,
                              .hint = hint,
                              .plan = SPEED_PLAN};
    return spec;
}

void gpu_tiled_speed_vs_naive(void **state)
{
    (void)state;
    grader_require_gpu();
    /* Before the timing: no ratio for partial credit from another stage's
     * kernel (stage_identity.h). */
    stage_identity_expect_own(&lab_kernel_table, LAB3_ROW_TILED);
    matmul_speed_spec spec = spec_over_naive(
        &TILED, LAB3_ROW_TILED, LAB3_ROW_TILED, LAB3_TILED_SPEEDUP_MIN, "speedup_over_naive",
        "Each element a block loads into shared memory should serve TILE multiply-adds. "
        "Check that the loads are one per thread per phase (TODO(3.3), section 4), that the "
        "inner loop reads only shared memory and is unrolled (TODO(3.6), section 7), and the "
        "local-memory note of cpu_tiled_uses_shared_tiles.");
    matmul_speed(&spec, 1, NULL);
}

void gpu_tile16_speed_metrics(void **state)
{
    (void)state;
    grader_require_gpu();
    /* For the handout's 16-versus-32 comparison: measured, not judged. */
    matmul_speed_spec spec =
        spec_over_naive(&TILED16, LAB3_ROW_TILED_16, LAB3_ROW_TILED_16, LAB3_TILED_SPEEDUP_MIN,
                        "tile16_speedup_over_naive", TILED_HINT);
    matmul_speed(&spec, 0, NULL);
}

void gpu_thread_tile_speed_vs_naive(void **state)
{
    (void)state;
    grader_require_gpu();
    stage_identity_expect_own(&lab_kernel_table, LAB3_ROW_THREAD_TILE);
    matmul_speed_spec spec = spec_over_naive(
        &THREAD_TILE, LAB3_ROW_THREAD_TILE, LAB3_ROW_THREAD_TILE, LAB3_THREAD_TILE_SPEEDUP_MIN,
        "speedup_over_naive",
        "Each B value read from shared memory should serve TM multiply-adds held in "
        "registers: check that the accumulators are not in local memory (the note of "
        "cpu_thread_tile_uses_shared_tiles) and that the loops over BK and TM are unrolled. "
        "Handout section 8.");
    matmul_speed(&spec, 1, NULL);
}

void selftest_naive_below_tiled_threshold(void **state)
{
    (void)state;
    grader_require_gpu();
    matmul_speed_spec spec = spec_over_naive(&NAIVE, LAB3_ROW_NAIVE, LAB3_ROW_TILED,
                                             LAB3_TILED_SPEEDUP_MIN, "speedup_over_naive", NULL);
    matmul_expect_below_threshold(&spec, "LAB3_TILED_SPEEDUP_MIN");
}

/* ------------------------------------------------------------- races */

/* The tiled kernel once under racecheck, on 2 x 2 blocks and 3 phases: the
 * hazards of a missing barrier show in every phase of every block. */
void gpu_tiled_race_free(void **state)
{
    (void)state;
    static const char *const args[] = {"--size", "64", "64", "96", "--runs", "1", NULL};
    racecheck_spec spec = {
        .runner = GRADER_RACE_RUNNER,
        .lab_number = "3",
        .what = "lab3_matmul_tiled (TILE 32) on 64x64x96",
        .args = args,
        .fix_hint = "TODO(3.5) and TODO(3.7): one barrier after storing the tiles (read after "
                    "write), one after the inner loop (write after read), both reached by every "
                    "thread of the block; " LAB3_HANDOUT ", section 5 (the two barriers).",
        .limit_s = RACECHECK_RUN_LIMIT_S,
    };
    racecheck_expect_clean(&spec);
}
