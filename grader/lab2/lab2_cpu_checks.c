/* Lab 2 CPU checks: the student's index helpers, called for every thread of
 * a simulated launch. Where a check grades one helper it uses the grader's
 * own version of the others, so one wrong TODO fails its own check. */
#include <stdio.h>

#include "harness.h"
#include "lab2_checks.h"
#include "launch_sim.h"
#include "sim_checks.h"
#include "memory_sectors.h"
#include "lab2_rubric.h"

static const todo_pointer LAYOUT = {"2.1", LAB2_HANDOUT, "2"};
static const todo_pointer COALESCING = {"2.1", LAB2_HANDOUT, "6"};
static const todo_pointer GRID = {"2.3", LAB2_HANDOUT, "3.1"};


/* The grader's grid: what TODO(2.3) should return. */
static lab_dim3 expected_grid(int m, int n)
{
    return sim_dim3(sim_ceil_div(n, LAB2_BLOCK_X), sim_ceil_div(m, LAB2_BLOCK_Y), 1);
}

static lab_dim3 lab2_block(void) { return sim_dim3(LAB2_BLOCK_X, LAB2_BLOCK_Y, 1); }

/* ---------------------------------------------------------- TODO 2.1 */

void cpu_row_col_layout(void **state)
{
    (void)state;
    /* The lab's block, and a square one: the helpers must use block_dim. */
    const lab_dim3 blocks[] = {lab2_block(), {16, 16, 1}};
    const lab_dim3 block_ids[] = {{0, 0, 0}, {3, 2, 0}, {1, 5, 0}};
    for (size_t b = 0; b < sizeof blocks / sizeof blocks[0]; ++b)
        for (size_t i = 0; i < sizeof block_ids / sizeof block_ids[0]; ++i)
            for (int ty = 0; ty < blocks[b].y; ++ty)
                for (int tx = 0; tx < blocks[b].x; ++tx) {
                    lab_dim3 bi = block_ids[i], bd = blocks[b], t = sim_dim3(tx, ty, 0);
                    int want_row = bi.y * bd.y + ty, want_col = bi.x * bd.x + tx;
                    int row = lab2_row_of(bi, bd, t), col = lab2_col_of(bi, bd, t);
                    if (row == want_row && col == want_col)
                        continue;
                    int swapped = row == want_col && col == want_row;
                    GRADER_FAIL("TODO(2.1) lab2_row_of/lab2_col_of: thread (%d,%d) of block "
                                "(%d,%d), blocks of %dx%d, returned row %d, column %d; expected "
                                "row %d, column %d. %s See %s, sections 2 and 6.",
                                tx, ty, bi.x, bi.y, bd.x, bd.y, row, col, want_row, want_col,
                                swapped ? "Rows and columns are swapped: threadIdx.x must pick "
                                          "the COLUMN, so that the 32 threads of a warp (32 "
                                          "consecutive x) read 32 neighbouring floats of a row "
                                          "of B and write 32 neighbouring floats of a row of C."
                                        : "y (block and thread) picks the row, x picks the "
                                          "column, each like lab 1's global index.",
                                LAB2_HANDOUT);
                }
}

typedef struct {
    coverage_map map;
    int m, n;
} cover_sim;

static int visit_cover(const sim_thread *t, void *ctx)
{
    cover_sim *sim = ctx;
    int row = lab2_row_of(t->block_idx, t->block_dim, t->thread_idx);
    int col = lab2_col_of(t->block_idx, t->block_dim, t->thread_idx);
    /* The kernel's bounds test, exactly as the handout writes it. */
    if (row < sim->m && col < sim->n)
        coverage_record(&sim->map, (long long)row * sim->n + col);
    return 0;
}

void cpu_threads_cover_c(void **state)
{
    (void)state;
    /* (M, N): single rows and columns, one above/below the 32 x 8 block,
     * primes, and the graded GPU shapes. */
    const int shapes[][2] = {{1, 1},   {17, 33}, {9, 31},  {8, 32},   {7, 33},
                             {1, 4096}, {4096, 1}, {64, 64}, {1000, 999}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; ++i) {
        cover_sim sim = {.m = shapes[i][0], .n = shapes[i][1]};
        GRADER_CHECK(coverage_init(&sim.map, (size_t)sim.m * sim.n), "out of memory");
        launch_sim_run(expected_grid(sim.m, sim.n), lab2_block(), visit_cover, &sim);
        char what[128];
        snprintf(what, sizeof what,
                 "lab2_row_of/lab2_col_of with the bounds test (row < M && col < N), C of %dx%d "
                 "(MxN), grid %dx%d of %dx%d blocks",
                 sim.m, sim.n, expected_grid(sim.m, sim.n).x, expected_grid(sim.m, sim.n).y,
                 LAB2_BLOCK_X, LAB2_BLOCK_Y);
        sim_expect_exact_coverage(&sim.map, what, "written", "write", LAYOUT);
    }
}

/* ---------------------------------------------------------- TODO 2.3 */

void cpu_launch_grid_covers_c(void **state)
{
    (void)state;
    const int shapes[][2] = {{1, 1},    {17, 33},   {8, 32},     {9, 33},    {1000, 999},
                             {1, 4096}, {4096, 1}, {2048, 2048}, {65535, 7}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; ++i) {
        int m = shapes[i][0], n = shapes[i][1];
        lab_dim3 got = lab2_grid_for(m, n), want = expected_grid(m, n);
        if (got.x == want.x && got.y == want.y && got.z == want.z)
            continue;
        int swapped = got.x == sim_ceil_div(m, LAB2_BLOCK_X) &&
                      got.y == sim_ceil_div(n, LAB2_BLOCK_Y);
        GRADER_FAIL("TODO(2.3) lab2_grid_for(m=%d, n=%d) returned a grid of %dx%dx%d blocks, "
                    "expected %dx%dx%d: %s See %s, section %s.",
                    m, n, got.x, got.y, got.z, want.x, want.y, want.z,
                    swapped ? "x must count blocks along the N columns (32 columns per block) "
                              "and y blocks along the M rows (8 rows per block), matching "
                              "TODO(2.1)."
                            : "the fewest 32x8 blocks that still give every element of C a "
                              "thread: round up, in integers.",
                    GRID.handout, GRID.section);
    }
}

/* ----------------------------------------------------- coalescing (2.1) */

enum { WARP_M = 64, WARP_N = 1024, WARP_K = 1024, STUDIED_P = 5 };

typedef enum { ACCESS_A, ACCESS_B, ACCESS_C } matmul_access;

typedef struct {
    matmul_access access;
    int m, n, k, p;
} access_sim;

/* Byte offset of the float this thread touches in the studied access: a
 * load of A(row, p), a load of B(p, col), or the store of C(row, col). */
static long long access_address(const sim_thread *t, void *ctx)
{
    const access_sim *s = ctx;
    int row = lab2_row_of(t->block_idx, t->block_dim, t->thread_idx);
    int col = lab2_col_of(t->block_idx, t->block_dim, t->thread_idx);
    if (row < 0 || col < 0 || row >= s->m || col >= s->n)
        return -1;
    switch (s->access) {
    case ACCESS_A: return 4LL * ((long long)row * s->k + s->p);
    case ACCESS_B: return 4LL * ((long long)s->p * s->n + col);
    case ACCESS_C: return 4LL * ((long long)row * s->n + col);
    }
    return -1;
}

/* Each lane of a full warp must own its own element of C: otherwise a
 * "coalesced" warp would simply be doing less work. */
static void expect_distinct_outputs(void)
{
    lab_dim3 block = lab2_block(), block_idx = {1, 1, 0};
    for (int warp = 0; warp < LAB2_BLOCK_X * LAB2_BLOCK_Y / 32; ++warp) {
        warp_request r;
        warp_request_init(&r, 4);
        for (int lane = 0; lane < 32; ++lane) {
            int linear = warp * 32 + lane;
            lab_dim3 t = {linear % block.x, linear / block.x, 0};
            int row = lab2_row_of(block_idx, block, t), col = lab2_col_of(block_idx, block, t);
            warp_request_add(&r, lane, 4LL * ((long long)row * WARP_N + col));
        }
        int distinct = warp_request_distinct(&r);
        GRADER_CHECK(distinct == 32,
                     "TODO(2.1) lab2_row_of/lab2_col_of: the 32 threads of warp %d of block "
                     "(1,1) own only %d distinct element(s) of C; each thread computes its own "
                     "element. See %s, section 2.",
                     warp, distinct, LAB2_HANDOUT);
    }
}

void cpu_warp_sectors_coalesced(void **state)
{
    (void)state;
    expect_distinct_outputs();
    lab_dim3 grid = expected_grid(WARP_M, WARP_N);
    access_sim c = {ACCESS_C, WARP_M, WARP_N, WARP_K, STUDIED_P};
    access_sim b = c, a = c;
    b.access = ACCESS_B;
    a.access = ACCESS_A;
    warp_sector_survey survey;
    char what[96];

    memory_sectors_survey(grid, lab2_block(), access_address, &c, 4, &survey);
    snprintf(what, sizeof what, "stores of C[row*N + col] (N=%d)", WARP_N);
    sim_expect_coalesced(&survey, what, "c_store", LAB2_MAX_SECTOR_RATIO,
                            "threadIdx.x must pick the column: then a warp writes 32 "
                            "consecutive floats of one row of C.",
                            COALESCING);

    memory_sectors_survey(grid, lab2_block(), access_address, &b, 4, &survey);
    snprintf(what, sizeof what, "loads of B[p*N + col] (N=%d, p=%d)", WARP_N, STUDIED_P);
    sim_expect_coalesced(&survey, what, "b_load", LAB2_MAX_SECTOR_RATIO,
                            "threadIdx.x must pick the column: then a warp reads 32 "
                            "consecutive floats of row p of B.",
                            COALESCING);

    memory_sectors_survey(grid, lab2_block(), access_address, &a, 4, &survey);
    snprintf(what, sizeof what, "loads of A[row*K + p] (K=%d, p=%d)", WARP_K, STUDIED_P);
    sim_expect_coalesced(&survey, what, "a_load", LAB2_MAX_SECTOR_RATIO,
                            "With x picking the column, a whole warp shares one row and reads "
                            "one float of A: a single sector, broadcast to all 32 lanes.",
                            COALESCING);
}
