/* Lab 8 CPU checks: the student's index helpers, called for every warp and
 * thread of the launches the kernels make. The runner runs these again
 * against the record of the helpers' results (lab8_calls.c), so what counts
 * is its own verdict. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "lab8_checks.h"
#include "tile_loads.h"

/* A warp's 16-byte loads may touch at most this many times the sectors
 * their bytes need (as lab 7's float4 loads). */
#define MAX_SECTOR_RATIO 1.5

/* ------------------------------------------- TODO 8.1: stage 1's tiles */

/* Stage 1's launch on an m x n C (the entry point is given code): blocks of
 * LAB8_G_WARPS warps, a grid of ceil(n / LAB8_G_BN) x ceil(m / LAB8_G_BM).
 * Every 16 x 16 tile of C must belong to exactly one warp; a warp whose
 * tile lies outside C leaves (TODO(8.3)), so its corner may be anywhere
 * past the edge, but never inside C at a place another warp has. */
static void expect_global_tiles(int m, int n)
{
    const int tiles_m = m / LAB8_FRAG, tiles_n = n / LAB8_FRAG;
    unsigned char *owner = grader_malloc((size_t)tiles_m * (size_t)tiles_n);
    memset(owner, 0, (size_t)tiles_m * (size_t)tiles_n);
    const int grid_x = (n + LAB8_G_BN - 1) / LAB8_G_BN, grid_y = (m + LAB8_G_BM - 1) / LAB8_G_BM;
    for (int by = 0; by < grid_y; ++by)
        for (int bx = 0; bx < grid_x; ++bx)
            for (int w = 0; w < LAB8_G_WARPS; ++w) {
                lab_dim3 block = {bx, by, 0};
                lab8_coord t = lab8_global_tile(block, w);
                if (t.row >= m || t.col >= n)
                    continue; /* the kernel's test sends this warp home */
                if (t.row < 0 || t.col < 0 || t.row % LAB8_FRAG || t.col % LAB8_FRAG) {
                    free(owner);
                    GRADER_FAIL("TODO(8.1) lab8_global_tile(block (%d,%d), warp %d) returned "
                                "(%d,%d) for a %dx%d C: a tile's corner is a multiple of 16 in "
                                "both directions, never negative. See %s, section 4.",
                                bx, by, w, t.row, t.col, m, n, LAB8_HANDOUT);
                }
                unsigned char *o = &owner[(t.row / LAB8_FRAG) * tiles_n + t.col / LAB8_FRAG];
                if (*o) {
                    free(owner);
                    GRADER_FAIL("TODO(8.1) lab8_global_tile: the tile of C at (%d,%d) is "
                                "computed twice (again by block (%d,%d), warp %d) for a %dx%d "
                                "C: the warps of a block cover %dx%d tiles, numbered across "
                                "first, and the block's corner is (blockIdx.y * %d, blockIdx.x "
                                "* %d). See %s, section 4.",
                                t.row, t.col, bx, by, w, m, n, LAB8_G_WARPS_M, LAB8_G_WARPS_N,
                                LAB8_G_BM, LAB8_G_BN, LAB8_HANDOUT);
                }
                *o = 1;
            }
    for (int i = 0; i < tiles_m * tiles_n; ++i)
        if (!owner[i]) {
            free(owner);
            GRADER_FAIL("TODO(8.1) lab8_global_tile: no warp computes the tile of C at (%d,%d) "
                        "for a %dx%d C (a grid of %dx%d blocks of %d warps): every 16x16 tile "
                        "must have exactly one warp. See %s, section 4.",
                        (i / tiles_n) * LAB8_FRAG, (i % tiles_n) * LAB8_FRAG, m, n, grid_x,
                        grid_y, LAB8_G_WARPS, LAB8_HANDOUT);
        }
    free(owner);
}

void cpu_global_tiles_cover_c(void **state)
{
    (void)state;
    /* One tile, one block, sizes that leave half-empty blocks (48, 80), a
     * rectangle each way. */
    const int sizes[][2] = {{16, 16}, {32, 32}, {48, 80}, {80, 48}, {256, 16}, {16, 256},
                            {1024, 1008}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i)
        expect_global_tiles(sizes[i][0], sizes[i][1]);
    /* The numbering the handout fixes: warp 1 to the right of warp 0. */
    lab_dim3 origin = {0, 0, 0};
    lab8_coord w1 = lab8_global_tile(origin, 1);
    GRADER_CHECK(w1.row == 0 && w1.col == LAB8_FRAG,
                 "TODO(8.1) lab8_global_tile(block (0,0), warp 1) returned (%d,%d), expected "
                 "(0,%d): a block's warps are numbered across first. See %s, section 4.",
                 w1.row, w1.col, LAB8_FRAG, LAB8_HANDOUT);
}

/* ---------------------------- TODO 8.4: warp tiles and their fragments */

void cpu_fragments_cover_block_tile(void **state)
{
    (void)state;
    static unsigned char owner[LAB8_S_BM / LAB8_FRAG][LAB8_S_BN / LAB8_FRAG];
    memset(owner, 0, sizeof owner);
    for (int w = 0; w < LAB8_S_WARPS; ++w) {
        lab8_coord origin = lab8_warp_origin(w);
        lab8_coord want = {(w / LAB8_S_WARPS_N) * LAB8_S_WM, (w % LAB8_S_WARPS_N) * LAB8_S_WN};
        GRADER_CHECK(origin.row == want.row && origin.col == want.col,
                     "TODO(8.4) lab8_warp_origin(%d) returned (%d,%d), expected (%d,%d): the "
                     "%d warps tile the %dx%d block tile as %d x %d warp tiles of %dx%d, "
                     "numbered across first. See %s, section 6.",
                     w, origin.row, origin.col, want.row, want.col, LAB8_S_WARPS, LAB8_S_BM,
                     LAB8_S_BN, LAB8_S_WARPS_M, LAB8_S_WARPS_N, LAB8_S_WM, LAB8_S_WN,
                     LAB8_HANDOUT);
        for (int fm = 0; fm < LAB8_S_FM; ++fm)
            for (int fn = 0; fn < LAB8_S_FN; ++fn) {
                lab8_coord f = lab8_fragment_origin(w, fm, fn);
                int inside = f.row >= origin.row && f.row + LAB8_FRAG <= origin.row + LAB8_S_WM &&
                             f.col >= origin.col && f.col + LAB8_FRAG <= origin.col + LAB8_S_WN &&
                             f.row % LAB8_FRAG == 0 && f.col % LAB8_FRAG == 0;
                GRADER_CHECK(inside,
                             "TODO(8.4) lab8_fragment_origin(warp %d, fm %d, fn %d) returned "
                             "(%d,%d), outside warp %d's %dx%d warp tile at (%d,%d) (or not on "
                             "the 16 x 16 grid): fragment (fm, fn) is %d rows and %d columns "
                             "in from the warp's corner. See %s, section 6.",
                             w, fm, fn, f.row, f.col, w, LAB8_S_WM, LAB8_S_WN, origin.row,
                             origin.col, fm * LAB8_FRAG, fn * LAB8_FRAG, LAB8_HANDOUT);
                unsigned char *o = &owner[f.row / LAB8_FRAG][f.col / LAB8_FRAG];
                GRADER_CHECK(!*o,
                             "TODO(8.4) lab8_fragment_origin: the 16x16 fragment at (%d,%d) of "
                             "the block tile is computed twice (again by warp %d, fm %d, fn "
                             "%d). See %s, section 6.",
                             f.row, f.col, w, fm, fn, LAB8_HANDOUT);
                *o = 1;
                GRADER_CHECK(f.row == origin.row + fm * LAB8_FRAG &&
                                 f.col == origin.col + fn * LAB8_FRAG,
                             "TODO(8.4) lab8_fragment_origin(warp %d, fm %d, fn %d) returned "
                             "(%d,%d), expected (%d,%d): fm counts fragments down the warp "
                             "tile, fn across. See %s, section 6.",
                             w, fm, fn, f.row, f.col, origin.row + fm * LAB8_FRAG,
                             origin.col + fn * LAB8_FRAG, LAB8_HANDOUT);
            }
    }
}

/* ----------------------------------------- TODO 8.5: the 16-byte loads */

typedef struct {
    const char *name; /* "A's 128x32 tile" */
    int rows, cols;   /* in halves */
} load_shape;

/* The student's helper as the shared walk calls it (tile_loads.h). */
static tile_load_at chunk_load(int thread, int round, int threads, int tile_cols)
{
    lab8_coord e = lab8_chunk_load(thread, round, threads, tile_cols);
    return (tile_load_at){e.row, e.col};
}

static void expect_chunk_coverage(const load_shape *s)
{
    const int threads = LAB8_S_THREADS;
    /* The tile sits in a row-major FP16 matrix 4096 halves wide. */
    const tile_loads_shape shape = {s->rows, s->cols, threads, LAB8_CHUNK, 2, 4096};
    tile_loads_survey v;
    GRADER_CHECK(tile_loads_walk(&shape, chunk_load, &v), "out of host memory");
    if (v.fault == TILE_LOADS_OUTSIDE)
        GRADER_FAIL("TODO(8.5) lab8_chunk_load(thread %d, round %d, threads %d, "
                    "tile_cols %d) returned (%d,%d): outside %s, or not the start "
                    "of a chunk of %d halves (the column must be a multiple of "
                    "%d). See %s, section 7.",
                    v.thread, v.round, threads, s->cols, v.row, v.col, s->name, LAB8_CHUNK,
                    LAB8_CHUNK, LAB8_HANDOUT);
    if (v.fault == TILE_LOADS_TWICE)
        GRADER_FAIL("TODO(8.5) lab8_chunk_load: half (%d,%d) of %s is loaded "
                    "twice (again by thread %d in round %d of %d). The rounds "
                    "together must load every half of the tile exactly once. "
                    "See %s, section 7.",
                    v.row, v.col, s->name, v.thread, v.round, v.rounds, LAB8_HANDOUT);
    if (v.fault == TILE_LOADS_NEVER)
        GRADER_FAIL("TODO(8.5) lab8_chunk_load: half (%d,%d) of %s is never loaded (%d "
                    "threads, %d rounds). See %s, section 7.",
                    v.row, v.col, s->name, threads, v.rounds, LAB8_HANDOUT);
    grader_note("16-byte loads of %s: worst warp request %d sectors, %d ideal", s->name,
                v.worst_sectors, v.worst_ideal);
    GRADER_CHECK(v.worst_ratio <= MAX_SECTOR_RATIO,
                 "TODO(8.5) lab8_chunk_load: the loads of warp %d in round %d of %s touch %d "
                 "sectors where %d would do: consecutive threads should load neighbouring "
                 "chunks along a row of the tile. See %s, section 7.",
                 v.worst_warp, v.worst_round, s->name, v.worst_sectors, v.worst_ideal,
                 LAB8_HANDOUT);
}

void cpu_chunk_loads_cover_tiles(void **state)
{
    (void)state;
    char a[64], b[64];
    snprintf(a, sizeof a, "A's %dx%d tile", LAB8_S_BM, LAB8_S_BK);
    snprintf(b, sizeof b, "B's %dx%d tile", LAB8_S_BK, LAB8_S_BN);
    const load_shape shapes[] = {{a, LAB8_S_BM, LAB8_S_BK}, {b, LAB8_S_BK, LAB8_S_BN}};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s)
        expect_chunk_coverage(&shapes[s]);
}
