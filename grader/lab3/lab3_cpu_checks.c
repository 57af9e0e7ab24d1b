/* Lab 3 CPU checks: the student's index helpers on simulated launches.
 * Each check grades one TODO and uses the grader's own grid where it needs
 * one, so a wrong grid fails only the grid check. */
#include <stdio.h>

#include "harness.h"
#include "lab3_checks.h"
#include "launch_sim.h"
#include "sim_checks.h"
#include "memory_sectors.h"
#include "lab3_rubric.h"

static const todo_pointer TILED_GRID = {"3.1", LAB3_HANDOUT, "2.2"};
static const todo_pointer TILE_LOADS = {"3.3", LAB3_HANDOUT, "4"};
static const todo_pointer TT_GRID = {"3.9", LAB3_HANDOUT, "8"};
static const todo_pointer TT_OUTPUTS = {"3.10", LAB3_HANDOUT, "8"};
static const todo_pointer TT_LOADS = {"3.11", LAB3_HANDOUT, "8"};


static lab_dim3 tt_block(void) { return sim_dim3(LAB3_TT_THREADS_X, LAB3_TT_THREADS_Y, 1); }

static lab_dim3 expected_tt_grid(int m, int n)
{
    return sim_dim3(sim_ceil_div(n, LAB3_TT_BN), sim_ceil_div(m, LAB3_TT_BM), 1);
}

/* ---------------------------------------------------------- TODO 3.1 */

void cpu_tiled_grid_and_phases(void **state)
{
    (void)state;
    const int tiles[] = {16, 32};
    const int shapes[][2] = {{1, 1},  {31, 33}, {33, 31},   {64, 64},
                             {65, 1000}, {1000, 65}, {4096, 1}, {2048, 2048}};
    const int ks[] = {1, 15, 16, 17, 31, 32, 33, 1001, 4096};
    for (size_t t = 0; t < sizeof tiles / sizeof tiles[0]; ++t) {
        int tile = tiles[t];
        for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; ++i) {
            int m = shapes[i][0], n = shapes[i][1];
            lab_dim3 got = lab3_tiled_grid(m, n, tile);
            lab_dim3 want = sim_dim3(sim_ceil_div(n, tile), sim_ceil_div(m, tile), 1);
            GRADER_CHECK(got.x == want.x && got.y == want.y && got.z == want.z,
                         "TODO(3.1) lab3_tiled_grid(m=%d, n=%d, tile=%d) returned %dx%dx%d "
                         "blocks, expected %dx%dx%d: x counts tiles along the N columns, y "
                         "along the M rows, rounding up so that a partial tile still gets a "
                         "block. See %s, section %s.",
                         m, n, tile, got.x, got.y, got.z, want.x, want.y, want.z,
                         TILED_GRID.handout, TILED_GRID.section);
        }
        for (size_t i = 0; i < sizeof ks / sizeof ks[0]; ++i) {
            int got = lab3_phase_count(ks[i], tile), want = sim_ceil_div(ks[i], tile);
            GRADER_CHECK(got == want,
                         "TODO(3.1) lab3_phase_count(k=%d, tile=%d) returned %d, expected %d: "
                         "%s See %s, section %s.",
                         ks[i], tile, got, want,
                         got < want ? "the last, partial phase is missing, so the end of "
                                      "every dot product is lost."
                                    : "a whole phase would load nothing but zeros.",
                         TILED_GRID.handout, TILED_GRID.section);
        }
    }
}

/* ---------------------------------------------------------- TODO 3.3 */

typedef struct {
    int which;   /* 0: A, 1: B */
    int tile, phase;
    int width;   /* row length of the matrix read: K for A, N for B */
} tile_load_sim;

static long long tile_load_address(const sim_thread *t, void *ctx)
{
    const tile_load_sim *s = ctx;
    lab3_coord e = s->which == 0 ? lab3_tile_a_element(t->block_idx, t->thread_idx, s->tile, s->phase)
                                 : lab3_tile_b_element(t->block_idx, t->thread_idx, s->tile, s->phase);
    if (e.row < 0 || e.col < 0 || e.col >= s->width)
        return -1;
    return 4LL * ((long long)e.row * s->width + e.col);
}

static void expect_tile_element(int which, int tile, lab_dim3 bi, int phase, lab_dim3 t)
{
    lab3_coord got = which == 0 ? lab3_tile_a_element(bi, t, tile, phase)
                                : lab3_tile_b_element(bi, t, tile, phase);
    /* A: the block's rows, the phase's columns. B: the phase's rows, the
     * block's columns. x always along a row. */
    lab3_coord want = which == 0
                          ? (lab3_coord){bi.y * tile + t.y, phase * tile + t.x}
                          : (lab3_coord){phase * tile + t.y, bi.x * tile + t.x};
    if (got.row == want.row && got.col == want.col)
        return;
    const char *name = which == 0 ? "lab3_tile_a_element" : "lab3_tile_b_element";
    const char *matrix = which == 0 ? "A" : "B";
    int swapped = got.row - (want.row - t.y) == t.x && got.col - (want.col - t.x) == t.y;
    GRADER_FAIL("TODO(3.3) %s: thread (%d,%d) of block (%d,%d), tile %d, phase %d, stores at "
                "[%d][%d] of the shared tile of %s the element at row %d, column %d of %s; "
                "expected row %d, column %d. %s See %s, section %s.",
                name, t.x, t.y, bi.x, bi.y, tile, phase, t.y, t.x, matrix, got.row, got.col,
                matrix, want.row, want.col,
                swapped ? "threadIdx.x and threadIdx.y are swapped: x must walk along a row "
                          "(consecutive addresses, one coalesced request per warp) and y down "
                          "the rows."
                        : which == 0
                              ? "The block's tile row (blockIdx.y) picks the rows of A; the "
                                "phase picks which TILE columns."
                              : "The phase picks which TILE rows of B; the block's tile "
                                "column (blockIdx.x) picks the columns.",
                TILE_LOADS.handout, TILE_LOADS.section);
}

void cpu_tile_load_elements(void **state)
{
    (void)state;
    const int tiles[] = {32, 16};
    const lab_dim3 blocks[] = {{0, 0, 0}, {2, 1, 0}, {1, 3, 0}};
    const int phases[] = {0, 1, 4};
    for (size_t t = 0; t < sizeof tiles / sizeof tiles[0]; ++t)
        for (size_t b = 0; b < sizeof blocks / sizeof blocks[0]; ++b)
            for (size_t p = 0; p < sizeof phases / sizeof phases[0]; ++p)
                for (int which = 0; which < 2; ++which)
                    for (int ty = 0; ty < tiles[t]; ++ty)
                        for (int tx = 0; tx < tiles[t]; ++tx)
                            expect_tile_element(which, tiles[t], blocks[b], phases[p],
                                                sim_dim3(tx, ty, 0));
    /* Right elements, so the loads are coalesced; report what a warp costs. */
    lab_dim3 grid = {4, 4, 1}, block = {LAB3_TILE, LAB3_TILE, 1};
    tile_load_sim a = {0, LAB3_TILE, 2, 1024}, bsim = {1, LAB3_TILE, 2, 1024};
    warp_sector_survey survey;
    memory_sectors_survey(grid, block, tile_load_address, &a, 4, &survey);
    sim_expect_coalesced(&survey, "tile loads of A (K=1024, phase 2)", "a_tile_load",
                            LAB3_MAX_SECTOR_RATIO, "x must walk along a row of A.", TILE_LOADS);
    memory_sectors_survey(grid, block, tile_load_address, &bsim, 4, &survey);
    sim_expect_coalesced(&survey, "tile loads of B (N=1024, phase 2)", "b_tile_load",
                            LAB3_MAX_SECTOR_RATIO, "x must walk along a row of B.", TILE_LOADS);
}

/* ---------------------------------------------------------- TODO 3.9 */

void cpu_thread_tile_grid(void **state)
{
    (void)state;
    const int shapes[][2] = {{1, 1}, {63, 65}, {65, 63}, {64, 64}, {1000, 999}, {4096, 1},
                             {1, 4096}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; ++i) {
        int m = shapes[i][0], n = shapes[i][1];
        lab_dim3 got = lab3_thread_tile_grid(m, n), want = expected_tt_grid(m, n);
        GRADER_CHECK(got.x == want.x && got.y == want.y && got.z == want.z,
                     "TODO(3.9) lab3_thread_tile_grid(m=%d, n=%d) returned %dx%dx%d blocks, "
                     "expected %dx%dx%d: one block per %dx%d tile of C (x along the columns), "
                     "rounded up. See %s, section %s.",
                     m, n, got.x, got.y, got.z, want.x, want.y, want.z, LAB3_TT_BM, LAB3_TT_BN,
                     TT_GRID.handout, TT_GRID.section);
    }
}

/* ---------------------------------------------------------- TODO 3.10 */

typedef struct {
    coverage_map map;
    int m, n;
} tt_cover_sim;

static int visit_tt_outputs(const sim_thread *t, void *ctx)
{
    tt_cover_sim *sim = ctx;
    for (int i = 0; i < LAB3_TT_TM; ++i) {
        lab3_coord e = lab3_thread_tile_output(t->block_idx, t->thread_idx, i);
        /* The kernel's bounds test on the store. */
        if (e.row >= 0 && e.col >= 0 && e.row < sim->m && e.col < sim->n)
            coverage_record(&sim->map, (long long)e.row * sim->n + e.col);
    }
    return 0;
}

typedef struct {
    int i, n;
} tt_store_sim;

static long long tt_store_address(const sim_thread *t, void *ctx)
{
    const tt_store_sim *s = ctx;
    lab3_coord e = lab3_thread_tile_output(t->block_idx, t->thread_idx, s->i);
    if (e.row < 0 || e.col < 0 || e.col >= s->n)
        return -1;
    return 4LL * ((long long)e.row * s->n + e.col);
}

void cpu_thread_tile_outputs(void **state)
{
    (void)state;
    const int shapes[][2] = {{1, 1}, {63, 65}, {65, 63}, {64, 64}, {129, 200}, {1000, 999},
                             {4096, 1}, {1, 4096}};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s) {
        tt_cover_sim sim = {.m = shapes[s][0], .n = shapes[s][1]};
        GRADER_CHECK(coverage_init(&sim.map, (size_t)sim.m * sim.n), "out of memory");
        launch_sim_run(expected_tt_grid(sim.m, sim.n), tt_block(), visit_tt_outputs, &sim);
        char what[160];
        snprintf(what, sizeof what,
                 "lab3_thread_tile_output (%d outputs per thread, bounds test on the store), "
                 "C of %dx%d (MxN)", LAB3_TT_TM, sim.m, sim.n);
        sim_expect_exact_coverage(&sim.map, what, "written", "write", TT_OUTPUTS);
    }
    /* Stores of output i by one warp: 32 consecutive floats of a row. The
     * first and the last output stand for all of them. */
    const int n = 1024;
    const int outputs[] = {0, LAB3_TT_TM - 1};
    for (size_t o = 0; o < sizeof outputs / sizeof outputs[0]; ++o) {
        int i = outputs[o];
        tt_store_sim st = {i, n};
        warp_sector_survey survey;
        memory_sectors_survey(expected_tt_grid(256, n), tt_block(), tt_store_address, &st, 4,
                              &survey);
        GRADER_CHECK(warp_request_distinct(&survey.worst) == warp_request_lanes(&survey.worst),
                     "TODO(3.10) lab3_thread_tile_output: two threads of warp %d of block (%d,%d) "
                     "own the same element for output %d. See %s, section %s.",
                     survey.worst_warp, survey.worst_block.x, survey.worst_block.y, i,
                     TT_OUTPUTS.handout, TT_OUTPUTS.section);
        char what[96];
        snprintf(what, sizeof what, "stores of output %d to C (N=%d)", i, n);
        sim_expect_coalesced(&survey, what, i == 0 ? "c_store_first" : "c_store_last",
                                LAB3_MAX_SECTOR_RATIO,
                                "threadIdx.x must pick the column, so that a warp stores 32 "
                                "consecutive floats of one row; the TM outputs of a thread go "
                                "down its column.",
                                TT_OUTPUTS);
    }
}

/* --------------------------------------------------------- TODO 3.11 */

typedef struct {
    coverage_map map;
    int which, phase;
    lab_dim3 block_idx;
} tt_load_sim;

static int visit_tt_loads(const sim_thread *t, void *ctx)
{
    tt_load_sim *sim = ctx;
    if (t->block_idx.x != sim->block_idx.x || t->block_idx.y != sim->block_idx.y)
        return 0;
    lab3_coord e = sim->which == 0
                       ? lab3_thread_tile_a_element(t->block_idx, t->thread_idx, sim->phase)
                       : lab3_thread_tile_b_element(t->block_idx, t->thread_idx, sim->phase);
    /* Position inside the shared tile the element belongs to. */
    int r, c, rows, cols;
    if (sim->which == 0) {
        r = e.row - sim->block_idx.y * LAB3_TT_BM;
        c = e.col - sim->phase * LAB3_TT_BK;
        rows = LAB3_TT_BM;
        cols = LAB3_TT_BK;
    } else {
        r = e.row - sim->phase * LAB3_TT_BK;
        c = e.col - sim->block_idx.x * LAB3_TT_BN;
        rows = LAB3_TT_BK;
        cols = LAB3_TT_BN;
    }
    coverage_record(&sim->map, r >= 0 && r < rows && c >= 0 && c < cols
                                   ? (long long)r * cols + c : -1);
    return 0;
}

typedef struct {
    int which, phase, width;
} tt_load_address_sim;

static long long tt_load_address(const sim_thread *t, void *ctx)
{
    const tt_load_address_sim *s = ctx;
    lab3_coord e = s->which == 0 ? lab3_thread_tile_a_element(t->block_idx, t->thread_idx, s->phase)
                                 : lab3_thread_tile_b_element(t->block_idx, t->thread_idx, s->phase);
    if (e.row < 0 || e.col < 0 || e.col >= s->width)
        return -1;
    return 4LL * ((long long)e.row * s->width + e.col);
}

void cpu_thread_tile_loads(void **state)
{
    (void)state;
    const lab_dim3 blocks[] = {{0, 0, 0}, {2, 1, 0}, {1, 3, 0}};
    const int phases[] = {0, 3};
    lab_dim3 grid = {3, 4, 1};
    for (int which = 0; which < 2; ++which)
        for (size_t b = 0; b < sizeof blocks / sizeof blocks[0]; ++b)
            for (size_t p = 0; p < sizeof phases / sizeof phases[0]; ++p) {
                tt_load_sim sim = {.which = which, .phase = phases[p], .block_idx = blocks[b]};
                size_t tile_elements = which == 0 ? (size_t)LAB3_TT_BM * LAB3_TT_BK
                                                  : (size_t)LAB3_TT_BK * LAB3_TT_BN;
                GRADER_CHECK(coverage_init(&sim.map, tile_elements), "out of memory");
                launch_sim_run(grid, tt_block(), visit_tt_loads, &sim);
                char what[200];
                snprintf(what, sizeof what,
                         "%s: block (%d,%d), phase %d, the %s shared tile (%dx%d; each of the "
                         "%d threads copies one element)",
                         which == 0 ? "lab3_thread_tile_a_element" : "lab3_thread_tile_b_element",
                         blocks[b].x, blocks[b].y, phases[p], which == 0 ? "A" : "B",
                         which == 0 ? LAB3_TT_BM : LAB3_TT_BK,
                         which == 0 ? LAB3_TT_BK : LAB3_TT_BN,
                         LAB3_TT_THREADS_X * LAB3_TT_THREADS_Y);
                sim_expect_exact_coverage(&sim.map, what, "loaded", "load", TT_LOADS);
            }
    tt_load_address_sim a = {0, 2, 1024}, bsim = {1, 2, 1024};
    warp_sector_survey survey;
    memory_sectors_survey(expected_tt_grid(256, 256), tt_block(), tt_load_address, &a, 4,
                          &survey);
    sim_expect_coalesced(&survey, "thread-tile loads of A (K=1024, phase 2)", "a_tile_load",
                            LAB3_MAX_SECTOR_RATIO,
                            "Let consecutive threads walk along the BK floats of a row of A "
                            "before moving to the next row.",
                            TT_LOADS);
    memory_sectors_survey(expected_tt_grid(256, 1024), tt_block(), tt_load_address, &bsim, 4,
                          &survey);
    sim_expect_coalesced(&survey, "thread-tile loads of B (N=1024, phase 2)", "b_tile_load",
                            LAB3_MAX_SECTOR_RATIO,
                            "Let consecutive threads walk along a row of the B tile.", TT_LOADS);
}
