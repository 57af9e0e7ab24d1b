/* Lab 7 CPU checks: the student's index helpers, called for every thread
 * (and every result, round and sub-tile) of one block, on the CPU. Each
 * check grades its own TODOs, so one wrong helper fails only its own check;
 * a failure names the first element missed, computed twice or out of place,
 * and who computed it. */
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"
#include "lab7_checks.h"
#include "lab7_rubric.h"
#include "memory_sectors.h"
#include "sim_checks.h"
#include "tile_loads.h"

static const todo_pointer BT1 = {"7.2", LAB7_HANDOUT, "5"};
static const todo_pointer BT2 = {"7.4", LAB7_HANDOUT, "6"};
static const todo_pointer LOADS = {"7.6", LAB7_HANDOUT, "7"};
static const todo_pointer WARP = {"7.8", LAB7_HANDOUT, "8"};

/* ------------------------------------------------------ the owner map */

/* Who computes each element of a rows x cols tile: -1 nobody yet, else the
 * index of the (thread, iteration, ...) tuple, decoded by `describe`. */
typedef struct {
    int rows, cols;
    long long *owner;
    const char *helper; /* "lab7_block_tile_1d_output" */
    todo_pointer where;
    void (*describe)(long long who, char *out, size_t size);
} owner_map;

static void owner_init(owner_map *map, int rows, int cols, const char *helper,
                       todo_pointer where, void (*describe)(long long, char *, size_t))
{
    map->rows = rows;
    map->cols = cols;
    map->owner = grader_malloc((size_t)rows * (size_t)cols * sizeof *map->owner);
    for (size_t i = 0; i < (size_t)rows * (size_t)cols; ++i)
        map->owner[i] = -1;
    map->helper = helper;
    map->where = where;
    map->describe = describe;
}

static void owner_record(owner_map *map, lab7_coord e, long long who)
{
    char by[160], first[160];
    map->describe(who, by, sizeof by);
    GRADER_CHECK(e.row >= 0 && e.row < map->rows && e.col >= 0 && e.col < map->cols,
                 "TODO(%s) %s for %s returned (%d,%d), outside the %dx%d block tile. See %s, "
                 "section %s.",
                 map->where.todo, map->helper, by, e.row, e.col, map->rows, map->cols,
                 map->where.handout, map->where.section);
    long long *slot = &map->owner[(size_t)e.row * map->cols + e.col];
    if (*slot >= 0) {
        map->describe(*slot, first, sizeof first);
        GRADER_FAIL("TODO(%s) %s: element (%d,%d) of the %dx%d block tile is computed twice: "
                    "by %s and by %s. Every element must be computed by exactly one thread "
                    "and iteration. See %s, section %s.",
                    map->where.todo, map->helper, e.row, e.col, map->rows, map->cols, first, by,
                    map->where.handout, map->where.section);
    }
    *slot = who;
}

/* Every element owned exactly once (repeats and strays fail as recorded). */
static void owner_expect_complete(owner_map *map)
{
    size_t n = (size_t)map->rows * (size_t)map->cols, missed = 0, first = 0;
    for (size_t i = 0; i < n; ++i)
        if (map->owner[i] < 0 && missed++ == 0)
            first = i;
    free(map->owner);
    map->owner = NULL;
    GRADER_CHECK(missed == 0,
                 "TODO(%s) %s: %zu of the %zu elements of the %dx%d block tile are computed by "
                 "no thread; the first is (%zu,%zu). See %s, section %s.",
                 map->where.todo, map->helper, missed, n, map->rows, map->cols,
                 first / (size_t)map->cols, first % (size_t)map->cols, map->where.handout,
                 map->where.section);
}

/* ---------------------------------------------- TODO 7.2: stage 1 (1D) */

static void describe_1d(long long who, char *out, size_t size)
{
    int t = (int)(who / LAB7_BT1_TM), i = (int)(who % LAB7_BT1_TM);
    snprintf(out, size, "thread %d (warp %d, lane %d), i %d", t, t / 32, t % 32, i);
}

void cpu_block_tile_1d_outputs(void **state)
{
    (void)state;
    owner_map map;
    owner_init(&map, LAB7_BT1_BM, LAB7_BT1_BN, "lab7_block_tile_1d_output", BT1, describe_1d);
    for (int t = 0; t < LAB7_BT1_THREADS; ++t)
        for (int i = 0; i < LAB7_BT1_TM; ++i)
            owner_record(&map, lab7_block_tile_1d_output(t, i), (long long)t * LAB7_BT1_TM + i);
    owner_expect_complete(&map);

    /* A thread's results: one column, consecutive rows (the kernel reads
     * one value of Bs for all of them). */
    for (int t = 0; t < LAB7_BT1_THREADS; ++t) {
        lab7_coord first = lab7_block_tile_1d_output(t, 0);
        for (int i = 1; i < LAB7_BT1_TM; ++i) {
            lab7_coord e = lab7_block_tile_1d_output(t, i);
            GRADER_CHECK(e.col == first.col && e.row == first.row + i,
                         "TODO(7.2) lab7_block_tile_1d_output(thread %d, i %d) returned (%d,%d); "
                         "with i 0 at (%d,%d), result i must be (%d,%d): a thread's %d results "
                         "lie in one column, on consecutive rows. See %s, section 5.",
                         t, i, e.row, e.col, first.row, first.col, first.row + i, first.col,
                         LAB7_BT1_TM, LAB7_HANDOUT);
        }
    }

    /* A warp's stores of result i to a row-major C 4096 floats wide. */
    warp_sector_survey worst = {0};
    double worst_ratio = 0.0;
    int worst_warp = 0, worst_i = 0;
    for (int w = 0; w < LAB7_BT1_THREADS / 32; ++w)
        for (int i = 0; i < LAB7_BT1_TM; ++i) {
            warp_request r;
            warp_request_init(&r, 4);
            for (int lane = 0; lane < 32; ++lane) {
                lab7_coord e = lab7_block_tile_1d_output(w * 32 + lane, i);
                warp_request_add(&r, lane, ((long long)e.row * 4096 + e.col) * 4);
            }
            double ratio = (double)warp_request_sectors(&r) / warp_request_ideal_sectors(&r);
            if (ratio > worst_ratio) {
                worst_ratio = ratio;
                worst.worst = r;
                worst_warp = w;
                worst_i = i;
            }
        }
    grader_metric("store_sector_ratio_worst", worst_ratio, "x");
    GRADER_CHECK(worst_ratio <= LAB7_MAX_SECTOR_RATIO,
                 "TODO(7.2) lab7_block_tile_1d_output: the 32 stores of warp %d (result i %d) "
                 "touch %d sectors of C where %d would do (%.1f times): the lanes of a warp "
                 "should own neighbouring columns of one row, so that their stores (and their "
                 "reads of Bs) are contiguous. See %s, section 5.",
                 worst_warp, worst_i, warp_request_sectors(&worst.worst),
                 warp_request_ideal_sectors(&worst.worst), worst_ratio, LAB7_HANDOUT);
}

/* ---------------------------------------------- TODO 7.4: stage 2 (2D) */

static void describe_2d(long long who, char *out, size_t size)
{
    int per = LAB7_BT2_TM * LAB7_BT2_TN;
    int t = (int)(who / per), i = (int)(who % per) / LAB7_BT2_TN, j = (int)(who % LAB7_BT2_TN);
    snprintf(out, size, "thread %d (warp %d, lane %d), i %d, j %d", t, t / 32, t % 32, i, j);
}

void cpu_block_tile_2d_outputs(void **state)
{
    (void)state;
    owner_map map;
    owner_init(&map, LAB7_BT2_BM, LAB7_BT2_BN, "lab7_block_tile_2d_output", BT2, describe_2d);
    for (int t = 0; t < LAB7_BT2_THREADS; ++t)
        for (int i = 0; i < LAB7_BT2_TM; ++i)
            for (int j = 0; j < LAB7_BT2_TN; ++j)
                owner_record(&map, lab7_block_tile_2d_output(t, i, j),
                             ((long long)t * LAB7_BT2_TM + i) * LAB7_BT2_TN + j);
    owner_expect_complete(&map);

    /* A thread's results: a TM2 x TN2 square starting on a multiple of 4
     * in both directions (stage 3 reads its fragments as float4s). */
    for (int t = 0; t < LAB7_BT2_THREADS; ++t) {
        lab7_coord first = lab7_block_tile_2d_output(t, 0, 0);
        GRADER_CHECK(first.row % 4 == 0 && first.col % 4 == 0,
                     "TODO(7.4) lab7_block_tile_2d_output(thread %d, 0, 0) returned (%d,%d): a "
                     "thread tile must start on a multiple of 4 rows and columns, so that "
                     "stage 3 can read its fragments as float4s. See %s, section 6.",
                     t, first.row, first.col, LAB7_HANDOUT);
        for (int i = 0; i < LAB7_BT2_TM; ++i)
            for (int j = 0; j < LAB7_BT2_TN; ++j) {
                lab7_coord e = lab7_block_tile_2d_output(t, i, j);
                GRADER_CHECK(e.row == first.row + i && e.col == first.col + j,
                             "TODO(7.4) lab7_block_tile_2d_output(thread %d, i %d, j %d) "
                             "returned (%d,%d); with (0,0) at (%d,%d) it must be (%d,%d): a "
                             "thread's results are a %dx%d square of neighbours. See %s, "
                             "section 6.",
                             t, i, j, e.row, e.col, first.row, first.col, first.row + i,
                             first.col + j, LAB7_BT2_TM, LAB7_BT2_TN, LAB7_HANDOUT);
            }
    }
}

/* ------------------------------------------ TODO 7.6: the float4 loads */

typedef struct {
    const char *name; /* "stage 3, A's 128x8 tile" */
    int threads, rows, cols;
} load_shape;

/* The student's helper as the shared walk calls it (tile_loads.h). */
static tile_load_at float4_load(int thread, int round, int threads, int tile_cols)
{
    lab7_coord e = lab7_float4_load(thread, round, threads, tile_cols);
    return (tile_load_at){e.row, e.col};
}

static void expect_float4_coverage(const load_shape *s)
{
    const tile_loads_shape shape = {s->rows, s->cols, s->threads, 4, (int)sizeof(float), 4096};
    tile_loads_survey v;
    GRADER_CHECK(tile_loads_walk(&shape, float4_load, &v), "out of host memory");
    if (v.fault == TILE_LOADS_OUTSIDE)
        GRADER_FAIL("TODO(7.6) lab7_float4_load(thread %d, round %d, threads %d, "
                    "tile_cols %d) returned (%d,%d) for %s: a float4 must lie "
                    "inside the %dx%d tile and start on a column that is a "
                    "multiple of 4 (16-byte aligned). See %s, section %s.",
                    v.thread, v.round, s->threads, s->cols, v.row, v.col, s->name, s->rows,
                    s->cols, LOADS.handout, LOADS.section);
    if (v.fault == TILE_LOADS_TWICE)
        GRADER_FAIL("TODO(7.6) lab7_float4_load: element (%d,%d) of %s is "
                    "loaded twice (again by thread %d in round %d, %d threads, "
                    "%d rounds). The rounds together must load every float of "
                    "the tile exactly once. See %s, section %s.",
                    v.row, v.col, s->name, v.thread, v.round, s->threads, v.rounds,
                    LOADS.handout, LOADS.section);
    if (v.fault == TILE_LOADS_NEVER)
        GRADER_FAIL("TODO(7.6) lab7_float4_load: element (%d,%d) of %s is never loaded "
                    "(%d threads, %d rounds). See %s, section %s.",
                    v.row, v.col, s->name, s->threads, v.rounds, LOADS.handout,
                    LOADS.section);
    grader_note("float4 loads of %s: worst warp request %d sectors, %d ideal", s->name,
                v.worst_sectors, v.worst_ideal);
    GRADER_CHECK(v.worst_ratio <= LAB7_MAX_SECTOR_RATIO,
                 "TODO(7.6) lab7_float4_load: the float4 loads of warp %d in round %d of %s "
                 "touch %d sectors where %d would do: consecutive threads should load "
                 "neighbouring float4s along a row of the tile. See %s, section %s.",
                 v.worst_warp, v.worst_round, s->name, v.worst_sectors, v.worst_ideal,
                 LOADS.handout, LOADS.section);
}

void cpu_float4_loads_cover_tiles(void **state)
{
    (void)state;
    char a3[64], b3[64], a4[64], b4[64];
    snprintf(a3, sizeof a3, "stage 3, A's %dx%d tile", LAB7_BT2_BM, LAB7_BT2_BK);
    snprintf(b3, sizeof b3, "stage 3, B's %dx%d tile", LAB7_BT2_BK, LAB7_BT2_BN);
    snprintf(a4, sizeof a4, "stage 4, A's %dx%d tile", LAB7_WT_BM, LAB7_WT_BK);
    snprintf(b4, sizeof b4, "stage 4, B's %dx%d tile", LAB7_WT_BK, LAB7_WT_BN);
    const load_shape shapes[] = {
        {a3, LAB7_BT2_THREADS, LAB7_BT2_BM, LAB7_BT2_BK},
        {b3, LAB7_BT2_THREADS, LAB7_BT2_BK, LAB7_BT2_BN},
        {a4, LAB7_WT_THREADS, LAB7_WT_BM, LAB7_WT_BK},
        {b4, LAB7_WT_THREADS, LAB7_WT_BK, LAB7_WT_BN},
    };
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s)
        expect_float4_coverage(&shapes[s]);

    /* A transposed: element (row, col) of the BM x BK tile at As[col][row]. */
    const int bms[] = {LAB7_BT2_BM, LAB7_WT_BM}, bks[] = {LAB7_BT2_BK, LAB7_WT_BK};
    for (int s = 0; s < 2; ++s)
        for (int row = 0; row < bms[s]; ++row)
            for (int col = 0; col < bks[s]; ++col) {
                lab7_coord a = {row, col};
                int got = lab7_a_transposed_offset(a, bms[s]), want = col * bms[s] + row;
                GRADER_CHECK(got == want,
                             "TODO(7.6) lab7_a_transposed_offset((%d,%d), bm=%d) returned %d, "
                             "expected %d: A's tile is stored transposed, As[BK][BM], so "
                             "element (row, col) goes to row `col` of As, column `row`%s. See "
                             "%s, section %s.",
                             row, col, bms[s], got, want,
                             got == row * bks[s] + col ? " (this is the untransposed place)"
                                                       : "",
                             LOADS.handout, LOADS.section);
            }
}

/* ---------------------------------------------- TODO 7.8: the warp tile */

enum {
    WT_PER_THREAD = LAB7_WT_WMITER * LAB7_WT_WNITER * LAB7_WT_TM * LAB7_WT_TN
};

static void describe_warp(long long who, char *out, size_t size)
{
    int t = (int)(who / WT_PER_THREAD), rest = (int)(who % WT_PER_THREAD);
    int j = rest % LAB7_WT_TN;
    rest /= LAB7_WT_TN;
    int i = rest % LAB7_WT_TM;
    rest /= LAB7_WT_TM;
    int wn = rest % LAB7_WT_WNITER, wm = rest / LAB7_WT_WNITER;
    snprintf(out, size, "warp %d lane %d (thread %d), wm_iter %d, wn_iter %d, i %d, j %d", t / 32,
             t % 32, t, wm, wn, i, j);
}

void cpu_warp_tile_coverage(void **state)
{
    (void)state;
    grader_note("warp tile: block tile %dx%dx%d, warp tile %dx%d, %dx%d sub-tiles of %dx%d, "
                "thread tile %dx%d, %d threads",
                LAB7_WT_BM, LAB7_WT_BN, LAB7_WT_BK, LAB7_WT_WM, LAB7_WT_WN, LAB7_WT_WMITER,
                LAB7_WT_WNITER, LAB7_WT_WSUBM, LAB7_WT_WSUBN, LAB7_WT_TM, LAB7_WT_TN,
                LAB7_WT_THREADS);
    /* 1. Every element of the block tile by exactly one (warp, lane, iteration). */
    owner_map map;
    owner_init(&map, LAB7_WT_BM, LAB7_WT_BN, "lab7_warp_tile_output", WARP, describe_warp);
    for (int t = 0; t < LAB7_WT_THREADS; ++t)
        for (int wm = 0; wm < LAB7_WT_WMITER; ++wm)
            for (int wn = 0; wn < LAB7_WT_WNITER; ++wn)
                for (int i = 0; i < LAB7_WT_TM; ++i)
                    for (int j = 0; j < LAB7_WT_TN; ++j) {
                        long long who =
                            (((long long)t * LAB7_WT_WMITER + wm) * LAB7_WT_WNITER + wn) *
                                (LAB7_WT_TM * LAB7_WT_TN) +
                            i * LAB7_WT_TN + j;
                        owner_record(&map, lab7_warp_tile_output(t, wm, wn, i, j), who);
                    }
    owner_expect_complete(&map);

    /* 2. Each warp's tile: a WM x WN block of the block tile. */
    for (int w = 0; w < LAB7_WT_WARPS; ++w) {
        lab7_coord o = lab7_warp_tile_origin(w);
        GRADER_CHECK(o.row >= 0 && o.row + LAB7_WT_WM <= LAB7_WT_BM && o.col >= 0 &&
                         o.col + LAB7_WT_WN <= LAB7_WT_BN && o.row % LAB7_WT_WM == 0 &&
                         o.col % LAB7_WT_WN == 0,
                     "TODO(7.8) lab7_warp_tile_origin(%d) returned (%d,%d): a warp tile is "
                     "%dx%d and starts on a multiple of that inside the %dx%d block tile "
                     "(%d x %d warp tiles). See %s, section 8.",
                     w, o.row, o.col, LAB7_WT_WM, LAB7_WT_WN, LAB7_WT_BM, LAB7_WT_BN,
                     LAB7_WT_BM / LAB7_WT_WM, LAB7_WT_BN / LAB7_WT_WN, LAB7_HANDOUT);
    }
    /* 3. The kernel reads its fragments at origin + thread_in_warp and
     *    stores at lab7_warp_tile_output: they must agree. */
    for (int t = 0; t < LAB7_WT_THREADS; ++t) {
        lab7_coord o = lab7_warp_tile_origin(t / 32), l = lab7_thread_in_warp(t % 32);
        for (int wm = 0; wm < LAB7_WT_WMITER; ++wm)
            for (int wn = 0; wn < LAB7_WT_WNITER; ++wn)
                for (int i = 0; i < LAB7_WT_TM; ++i)
                    for (int j = 0; j < LAB7_WT_TN; ++j) {
                        lab7_coord e = lab7_warp_tile_output(t, wm, wn, i, j);
                        int row = o.row + wm * LAB7_WT_WSUBM + l.row * LAB7_WT_TM + i;
                        int col = o.col + wn * LAB7_WT_WSUBN + l.col * LAB7_WT_TN + j;
                        GRADER_CHECK(e.row == row && e.col == col,
                                     "TODO(7.8) lab7_warp_tile_output(thread %d, wm_iter %d, "
                                     "wn_iter %d, i %d, j %d) returned (%d,%d), but the warp's "
                                     "origin (%d,%d) and the lane's (thread_row_in_warp, "
                                     "thread_col_in_warp) = (%d,%d) put it at (%d,%d): origin "
                                     "+ (wm_iter*WSUBM + thread_row_in_warp*TM + i, "
                                     "wn_iter*WSUBN + thread_col_in_warp*TN + j). The kernel "
                                     "reads its fragments with the two helpers, so all three "
                                     "must agree. See %s, section 8.",
                                     t, wm, wn, i, j, e.row, e.col, o.row, o.col, l.row, l.col,
                                     row, col, LAB7_HANDOUT);
                    }
    }
}

/* ------------------------- TODO 7.11: the final stage's block tile per size */

long long lab7_grader_tile_blocks(int m, int n, int bm, int bn)
{
    return (long long)sim_ceil_div(m, bm) * sim_ceil_div(n, bn);
}

/* The blocks of a bm x bn tile that the busiest of `sms` SMs runs. */
static long long busiest_sm_blocks(int m, int n, int bm, int bn, int sms)
{
    return (lab7_grader_tile_blocks(m, n, bm, bn) + sms - 1) / sms;
}

/* The elements of C the busiest of `sms` SMs computes with a bm x bn tile:
 * its blocks times their area. */
static long long busiest_sm_work(int m, int n, int bm, int bn, int sms)
{
    return busiest_sm_blocks(m, n, bm, bn, sms) * bm * bn;
}

/* The handout's rule (section 11.2): the large tile when its busiest SM's
 * time, that work over the tile's rate, is no longer than the small
 * tile's; multiplied out by both rates to stay in integers. */
int lab7_grader_tile(int m, int n, int sms)
{
    return busiest_sm_work(m, n, LAB7_WT_BM, LAB7_WT_BN, sms) * LAB7_TILE_RATE_SMALL <=
                   busiest_sm_work(m, n, LAB7_WTS_BM, LAB7_WTS_BN, sms) * LAB7_TILE_RATE_LARGE
               ? LAB7_TILE_LARGE
               : LAB7_TILE_SMALL;
}

static const char *tile_name(int tile)
{
    return tile == LAB7_TILE_LARGE   ? "LAB7_TILE_LARGE (128 x 128)"
           : tile == LAB7_TILE_SMALL ? "LAB7_TILE_SMALL (64 x 64)"
                                     : "neither LAB7_TILE_LARGE nor LAB7_TILE_SMALL";
}

/* The simpler rules that give the wrong answer here, named so that a
 * student who kept one sees which: the busiest SM's blocks counted without
 * the tiles' rates, "every SM has a large block" (the stage's rule before
 * the tile boundary was measured), and "a full wave of LAB7_WT_MIN_BLOCKS
 * large blocks per SM". */
static void choice_hint(int m, int n, int sms, int want, char *hint, size_t size)
{
    const long long large = lab7_grader_tile_blocks(m, n, LAB7_WT_BM, LAB7_WT_BN);
    const int want_large = want == LAB7_TILE_LARGE;
    const struct {
        int large;
        const char *name;
    } rules[] = {
        {busiest_sm_work(m, n, LAB7_WT_BM, LAB7_WT_BN, sms) <=
             busiest_sm_work(m, n, LAB7_WTS_BM, LAB7_WTS_BN, sms),
         "the busiest SM's blocks without the tiles' rates"},
        {large >= sms, "\"every SM has a large block\""},
        {large >= (long long)sms * LAB7_WT_MIN_BLOCKS,
         "\"a full wave of LAB7_WT_MIN_BLOCKS large blocks per SM\""},
    };
    size_t used = 0;
    hint[0] = '\0';
    for (size_t i = 0; i < sizeof rules / sizeof rules[0] && used < size; ++i)
        if (rules[i].large != want_large)
            used += (size_t)snprintf(hint + used, size - used, "%s%s",
                                     used ? "; " : " Rules that give your answer here: ",
                                     rules[i].name);
    if (used && used < size)
        snprintf(hint + used, size - used, ".");
}

static void expect_choice(int m, int n, int sms)
{
    const int want = lab7_grader_tile(m, n, sms), got = lab7_choose_tile(m, n, sms);
    if (got == want)
        return;
    const long long large_rounds = busiest_sm_blocks(m, n, LAB7_WT_BM, LAB7_WT_BN, sms);
    const long long small_rounds = busiest_sm_blocks(m, n, LAB7_WTS_BM, LAB7_WTS_BN, sms);
    char hint[256];
    choice_hint(m, n, sms, want, hint, sizeof hint);
    GRADER_FAIL("TODO(7.11) lab7_choose_tile(m=%d, n=%d, sm_count=%d) returned %d, %s; "
                "expected %s. The busiest SM runs %lld of the 128 x 128 tile's %lld blocks "
                "(time %lld x 128 x 128 / %d = %.1f) or %lld of the 64 x 64 tile's %lld "
                "(time %lld x 64 x 64 / %d = %.1f); the shorter time wins, the large tile on "
                "a tie.%s See %s, section 11.2.",
                m, n, sms, got, tile_name(got), tile_name(want), large_rounds,
                lab7_grader_tile_blocks(m, n, LAB7_WT_BM, LAB7_WT_BN), large_rounds,
                LAB7_TILE_RATE_LARGE,
                (double)busiest_sm_work(m, n, LAB7_WT_BM, LAB7_WT_BN, sms) / LAB7_TILE_RATE_LARGE,
                small_rounds, lab7_grader_tile_blocks(m, n, LAB7_WTS_BM, LAB7_WTS_BN),
                small_rounds, LAB7_TILE_RATE_SMALL,
                (double)busiest_sm_work(m, n, LAB7_WTS_BM, LAB7_WTS_BN, sms) /
                    LAB7_TILE_RATE_SMALL,
                hint, LAB7_HANDOUT);
}

void cpu_sized_tile_choice(void **state)
{
    (void)state;
    /* 1. Block counts, edges rounded up. */
    static const struct {
        int m, n, bm, bn;
    } counts[] = {
        {256, 256, 128, 128},  {512, 512, 128, 128},   {1024, 1024, 128, 128},
        {2048, 2048, 128, 128}, {4096, 4096, 128, 128}, {256, 256, 64, 64},
        {1024, 1024, 64, 64},  {1, 1, 64, 64},          {65, 129, 64, 64},
        {1000, 999, 128, 128}, {1000, 999, 64, 64},     {100, 300, 128, 128},
        {4097, 1, 128, 128},   {128, 16384, 128, 128},  {192, 320, 64, 64},
    };
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; ++i) {
        const int m = counts[i].m, n = counts[i].n, bm = counts[i].bm, bn = counts[i].bn;
        const long long want = lab7_grader_tile_blocks(m, n, bm, bn);
        const int got = lab7_tile_blocks(m, n, bm, bn);
        GRADER_CHECK(got == want,
                     "TODO(7.11) lab7_tile_blocks(m=%d, n=%d, bm=%d, bn=%d) returned %d, "
                     "expected %lld: ceil(%d/%d) = %d rows of tiles times ceil(%d/%d) = %d "
                     "columns. A partial tile at an edge is a whole block. See %s, section "
                     "11.2.",
                     m, n, bm, bn, got, want, m, bm, sim_ceil_div(m, bm), n, bn,
                     sim_ceil_div(n, bn), LAB7_HANDOUT);
    }

    /* 2. The worked cases of the handout: squares on an H100's 132 SMs, the
     *    sizes measured there (small to 1152, large at 1280 and 1408, small
     *    at 1536, large at 1920 and 2048, small at 2176, large from 2304),
     *    then other SM counts, where the choice also flips back and forth. */
    static const struct {
        int size, sms;
    } worked[] = {
        {256, 132},  {512, 132},  {1024, 132}, {1152, 132}, {1280, 132}, {1408, 132},
        {1536, 132}, {1664, 132}, {1920, 132}, {2048, 132}, {2176, 132}, {2304, 132},
        {4096, 132}, {384, 16},   {512, 16},   {768, 16},   {896, 16},   {640, 40},
        {768, 40},   {896, 40},   {1024, 40},  {896, 72},   {1024, 72},  {1152, 72},
        {1408, 72},  {1280, 108}, {1408, 108}, {1664, 108}, {256, 16},   {2048, 72},
    };
    for (size_t i = 0; i < sizeof worked / sizeof worked[0]; ++i)
        expect_choice(worked[i].size, worked[i].size, worked[i].sms);

    /* 3. Rectangles and sizes that are no multiple of 64 or 128, around
     *    the H100's boundaries (11 x 12 = 132 large blocks: one each). */
    static const struct {
        int m, n, sms;
    } awkward[] = {
        {1408, 1536, 132}, {1408, 1408, 132}, {1409, 1408, 132}, {128, 16384, 132},
        {128, 16384, 108}, {1000, 1000, 72},  {1000, 1000, 40},  {1100, 1300, 108},
        {1100, 1300, 72},  {1, 1, 1},         {1, 1, 2},         {200, 72, 4},
        {4096, 100, 132},  {4097, 100, 132},  {999, 4097, 132},  {3000, 130, 72},
    };
    for (size_t i = 0; i < sizeof awkward / sizeof awkward[0]; ++i)
        expect_choice(awkward[i].m, awkward[i].n, awkward[i].sms);

    /* 4. A sweep: squares and rectangles from 64 to 4096 on the SM counts of
     *    common GPUs and of the course's green contexts. */
    static const int sms[] = {1, 16, 40, 72, 82, 108, 128, 132, 144, 170};
    static const int sizes[] = {64, 100, 128, 255, 256, 384, 500, 512, 768,
                                1000, 1024, 1536, 2000, 2048, 3000, 4096};
    enum { SIZES = sizeof sizes / sizeof sizes[0] };
    for (size_t s = 0; s < sizeof sms / sizeof sms[0]; ++s)
        for (int i = 0; i < SIZES; ++i)
            for (int j = 0; j < SIZES; j += 3)
                expect_choice(sizes[i], sizes[j], sms[s]);
}
