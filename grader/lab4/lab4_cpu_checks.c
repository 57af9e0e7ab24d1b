/* Lab 4 CPU checks: the student's index helpers on simulated launches.
 * Each check grades its own TODOs and uses the grader's own grid and pitches
 * where it needs them, so one wrong helper fails only its own check. */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "lab4_checks.h"
#include "lab4_rubric.h"
#include "launch_sim.h"
#include "memory_sectors.h"
#include "sim_checks.h"

static const todo_pointer GRID = {"4.1", LAB4_HANDOUT, "3"};
static const todo_pointer LOADS = {"4.2", LAB4_HANDOUT, "3"};
static const todo_pointer STORES = {"4.3", LAB4_HANDOUT, "3"};
static const todo_pointer OFFSETS = {"4.4", LAB4_HANDOUT, "4"};
static const todo_pointer PITCH = {"4.5", LAB4_HANDOUT, "5"};


/* The two launch shapes of the lab: TILE x TILE threads, one pass (b, c);
 * TILE x BLOCK_ROWS threads, LAB4_PASSES passes (d). */
typedef struct {
    const char *name;
    int block_rows, passes;
} launch_shape;
static const launch_shape SHAPES[] = {
    {"32x32 threads (smem, padded)", LAB4_TILE, 1},
    {"32x8 threads (multirow)", LAB4_BLOCK_ROWS, LAB4_PASSES},
};
enum { SHAPE_COUNT = sizeof SHAPES / sizeof SHAPES[0] };

/* Matrices (rows x cols) around and across the tile edge. */
static const int MATRICES[][2] = {{1, 1},   {1, 70},  {70, 1},  {31, 33},
                                  {33, 31}, {65, 97}, {96, 64}, {32, 32}};
enum { MATRIX_COUNT = sizeof MATRICES / sizeof MATRICES[0] };

static lab_dim3 block_of(const launch_shape *s) { return sim_dim3(LAB4_TILE, s->block_rows, 1); }

/* The grader's own grid: one block per tile of `in`. */
static lab_dim3 grader_grid(int rows, int cols)
{
    return sim_dim3(sim_ceil_div(cols, LAB4_TILE), sim_ceil_div(rows, LAB4_TILE), 1);
}

static int inside(lab4_coord e, int rows, int cols)
{
    return e.row >= 0 && e.row < rows && e.col >= 0 && e.col < cols;
}

/* ---------------------------------------------------------- TODO 4.1 */

void cpu_tile_grid(void **state)
{
    (void)state;
    const int extra[][2] = {{4097, 1023}, {8192, 8192}, {1, 4096}, {4096, 1}};
    for (int i = 0; i < MATRIX_COUNT + 4; ++i) {
        const int *m = i < MATRIX_COUNT ? MATRICES[i] : extra[i - MATRIX_COUNT];
        lab_dim3 got = lab4_tile_grid(m[0], m[1]), want = grader_grid(m[0], m[1]);
        GRADER_CHECK(got.x == want.x && got.y == want.y && got.z == want.z,
                     "TODO(4.1) lab4_tile_grid(rows=%d, cols=%d) returned %dx%dx%d blocks, "
                     "expected %dx%dx%d: x counts the tiles along a row of `in` (its cols), y "
                     "the tiles down a column (its rows), rounding up so that a partial tile "
                     "still gets a block. See %s, section %s.",
                     m[0], m[1], got.x, got.y, got.z, want.x, want.y, want.z, GRID.handout,
                     GRID.section);
    }
}

/* ----------------------------------------------------- TODO 4.2 - 4.4 */

typedef struct {
    const launch_shape *shape;
    int rows, cols;
    coverage_map loaded, stored;
} coverage_sim;

static int record_coverage(const sim_thread *t, void *ctx)
{
    coverage_sim *c = ctx;
    lab_dim3 dim = block_of(c->shape);
    for (int pass = 0; pass < c->shape->passes; ++pass) {
        lab4_coord in = lab4_load_element(t->block_idx, t->thread_idx, dim, pass);
        if (inside(in, c->rows, c->cols))
            coverage_record(&c->loaded, (long long)in.row * c->cols + in.col);
        lab4_coord out = lab4_store_element(t->block_idx, t->thread_idx, dim, pass);
        if (inside(out, c->cols, c->rows))
            coverage_record(&c->stored, (long long)out.row * c->rows + out.col);
    }
    return 0;
}

/* Every element of `in` loaded once and every element of `out` stored once. */
static void expect_coverage(const launch_shape *shape, int rows, int cols)
{
    coverage_sim c = {shape, rows, cols, {0}, {0}};
    size_t n = (size_t)rows * (size_t)cols;
    GRADER_CHECK(coverage_init(&c.loaded, n) && coverage_init(&c.stored, n), "out of memory");
    launch_sim_run(grader_grid(rows, cols), block_of(shape), record_coverage, &c);
    char what[160];
    snprintf(what, sizeof what, "lab4_load_element on a %dx%d `in` (rows x cols), %s", rows,
             cols, shape->name);
    sim_expect_exact_coverage(&c.loaded, what, "loaded", "load", LOADS);
    snprintf(what, sizeof what, "lab4_store_element on the %dx%d `out` of a %dx%d `in`, %s",
             cols, rows, rows, cols, shape->name);
    sim_expect_exact_coverage(&c.stored, what, "stored", "store", STORES);
}

/* One block's trip through the tile: which element of `in` each word holds
 * after the loads, then whether each store reads the element it needs. */
typedef struct {
    const launch_shape *shape;
    int rows, cols, pitch;
    lab_dim3 block_idx;
    int holds[LAB4_TILE * 2 * LAB4_TILE]; /* linear index into `in`, -1: nothing */
} tile_sim;

static int tile_words(int pitch) { return LAB4_TILE * pitch; }

static void check_offset(int offset, int pitch, const char *helper, lab_dim3 thread, int pass)
{
    GRADER_CHECK(offset >= 0 && offset < tile_words(pitch),
                 "TODO(%s) %s(thread (%d,%d), pass %d, pitch %d) returned word %d, outside the "
                 "tile's %d words (%d rows of %d). See %s, section %s.",
                 OFFSETS.todo, helper, thread.x, thread.y, pass, pitch, offset,
                 tile_words(pitch), LAB4_TILE, pitch, OFFSETS.handout, OFFSETS.section);
}

static void simulate_block(tile_sim *s)
{
    const lab_dim3 dim = block_of(s->shape);
    for (int i = 0; i < tile_words(s->pitch); ++i)
        s->holds[i] = -1;
    for (int pass = 0; pass < s->shape->passes; ++pass)
        for (int ty = 0; ty < dim.y; ++ty)
            for (int tx = 0; tx < dim.x; ++tx) {
                lab_dim3 t = sim_dim3(tx, ty, 0);
                lab4_coord in = lab4_load_element(s->block_idx, t, dim, pass);
                if (!inside(in, s->rows, s->cols))
                    continue;
                int word = lab4_tile_write_offset(t, dim, pass, s->pitch);
                check_offset(word, s->pitch, "lab4_tile_write_offset", t, pass);
                GRADER_CHECK(s->holds[word] < 0,
                             "TODO(%s) two loads of block (%d,%d) write word %d of the tile "
                             "(pitch %d; the second is thread (%d,%d), pass %d, %s): one value "
                             "overwrites another before anyone reads it. See %s, section %s.",
                             OFFSETS.todo, s->block_idx.x, s->block_idx.y, word, s->pitch, tx,
                             ty, pass, s->shape->name, OFFSETS.handout, OFFSETS.section);
                s->holds[word] = in.row * s->cols + in.col;
            }
    for (int pass = 0; pass < s->shape->passes; ++pass)
        for (int ty = 0; ty < dim.y; ++ty)
            for (int tx = 0; tx < dim.x; ++tx) {
                lab_dim3 t = sim_dim3(tx, ty, 0);
                lab4_coord out = lab4_store_element(s->block_idx, t, dim, pass);
                if (!inside(out, s->cols, s->rows))
                    continue;
                int word = lab4_tile_read_offset(t, dim, pass, s->pitch);
                check_offset(word, s->pitch, "lab4_tile_read_offset", t, pass);
                /* out[r][c] is in[c][r]. */
                int want = out.col * s->cols + out.row, got = s->holds[word];
                if (got == want)
                    continue;
                char holds[96];
                if (got < 0)
                    snprintf(holds, sizeof holds, "which no load of the block wrote");
                else
                    snprintf(holds, sizeof holds, "which holds in[%d][%d]", got / s->cols,
                             got % s->cols);
                GRADER_FAIL("TODO(%s) on a %dx%d `in`, %s, pitch %d: thread (%d,%d) of block "
                            "(%d,%d) stores out[%d][%d] in pass %d, which must be in[%d][%d], "
                            "but lab4_tile_read_offset sends it to tile word %d, %s. The read "
                            "offset must find the word where lab4_tile_write_offset put that "
                            "element. See %s, section %s.",
                            OFFSETS.todo, s->rows, s->cols, s->shape->name, s->pitch, tx, ty,
                            s->block_idx.x, s->block_idx.y, out.row, out.col, pass, out.col,
                            out.row, word, holds, OFFSETS.handout, OFFSETS.section);
            }
}

void cpu_every_element_moved_once(void **state)
{
    (void)state;
    /* First the global side (TODO 4.2, 4.3) on its own... */
    for (int s = 0; s < SHAPE_COUNT; ++s)
        for (int m = 0; m < MATRIX_COUNT; ++m)
            expect_coverage(&SHAPES[s], MATRICES[m][0], MATRICES[m][1]);
    /* ...then through the tile (TODO 4.4), at both of the grader's pitches. */
    const int pitches[] = {LAB4_TILE, LAB4_TILE + 1};
    static tile_sim sim;
    for (int s = 0; s < SHAPE_COUNT; ++s)
        for (int m = 0; m < MATRIX_COUNT; ++m)
            for (int p = 0; p < 2; ++p) {
                sim.shape = &SHAPES[s];
                sim.rows = MATRICES[m][0];
                sim.cols = MATRICES[m][1];
                sim.pitch = pitches[p];
                lab_dim3 grid = grader_grid(sim.rows, sim.cols);
                for (int by = 0; by < grid.y; ++by)
                    for (int bx = 0; bx < grid.x; ++bx) {
                        sim.block_idx = sim_dim3(bx, by, 0);
                        simulate_block(&sim);
                    }
            }
}

/* ----------------------------------------------- coalescing (4.2, 4.3) */

typedef struct {
    const launch_shape *shape;
    int rows, cols, pass, store;
} access_sim;

static long long global_address(const sim_thread *t, void *ctx)
{
    const access_sim *a = ctx;
    lab_dim3 dim = block_of(a->shape);
    if (a->store) {
        lab4_coord e = lab4_store_element(t->block_idx, t->thread_idx, dim, a->pass);
        return inside(e, a->cols, a->rows) ? 4LL * ((long long)e.row * a->rows + e.col) : -1;
    }
    lab4_coord e = lab4_load_element(t->block_idx, t->thread_idx, dim, a->pass);
    return inside(e, a->rows, a->cols) ? 4LL * ((long long)e.row * a->cols + e.col) : -1;
}

void cpu_global_accesses_coalesced(void **state)
{
    (void)state;
    /* Whole tiles only, so that every warp request is a full one. */
    const int rows = 320, cols = 256;
    for (int s = 0; s < SHAPE_COUNT; ++s)
        for (int pass = 0; pass < SHAPES[s].passes; ++pass)
            for (int store = 0; store < 2; ++store) {
                access_sim a = {&SHAPES[s], rows, cols, pass, store};
                warp_sector_survey survey;
                memory_sectors_survey(grader_grid(rows, cols), block_of(&SHAPES[s]),
                                      global_address, &a, 4, &survey);
                char what[160], metric[48];
                snprintf(what, sizeof what, "%s of a %dx%d transpose, %s, pass %d",
                         store ? "stores to `out`" : "loads from `in`", rows, cols,
                         SHAPES[s].name, pass);
                snprintf(metric, sizeof metric, "%s_%s_pass%d", store ? "store" : "load",
                         s == 0 ? "32x32" : "32x8", pass);
                /* Whole tiles: each warp must touch 32 different floats. */
                const char *todo = store ? STORES.todo : LOADS.todo;
                GRADER_CHECK(survey.most_distinct > 1,
                             "TODO(%s) %s: all 32 threads of every warp access one and the "
                             "same float, where they must move 32 different elements. See %s, "
                             "section %s.",
                             todo, what, LAB4_HANDOUT, "3");
                GRADER_CHECK(survey.fewest_distinct >= LAUNCH_SIM_WARP_SIZE,
                             "TODO(%s) %s: the 32 threads of a warp access only %.1f different "
                             "floats on average (the fewest: %d), where they must move 32 "
                             "different elements. See %s, section %s.",
                             todo, what, memory_sectors_mean_distinct(&survey),
                             survey.fewest_distinct, LAB4_HANDOUT, "3");
                sim_expect_coalesced(&survey, what, metric, LAB4_MAX_SECTOR_RATIO,
                                     store ? "threadIdx.x must walk along a row of `out` "
                                             "(the column of `out` comes from blockIdx.y)"
                                           : "threadIdx.x must walk along a row of `in`",
                                     store ? STORES : LOADS);
            }
}

/* ----------------------------------------------- bank conflicts (4.4, 4.5) */

/* The degree of one warp-wide shared-memory access: the most distinct words
 * any one bank must deliver (lanes reading the same word share it).
 * `bank` receives that bank. */
static int conflict_degree(const int words[LAUNCH_SIM_WARP_SIZE], int *bank)
{
    int degree = 0;
    for (int b = 0; b < LAB4_BANKS; ++b) {
        int distinct = 0;
        for (int l = 0; l < LAUNCH_SIM_WARP_SIZE; ++l) {
            if (words[l] % LAB4_BANKS != b)
                continue;
            int seen = 0;
            for (int k = 0; k < l && !seen; ++k)
                seen = words[k] == words[l];
            distinct += !seen;
        }
        if (distinct > degree) {
            degree = distinct;
            *bank = b;
        }
    }
    return degree;
}

/* The conflict degree of reading one column of a tile whose rows are
 * `pitch` words apart: 1 when the column falls in 32 different banks. */
static int column_degree(int pitch)
{
    int words[LAUNCH_SIM_WARP_SIZE], bank = 0;
    for (int lane = 0; lane < LAUNCH_SIM_WARP_SIZE; ++lane)
        words[lane] = lane * pitch;
    return conflict_degree(words, &bank);
}

typedef struct {
    int degree, bank, warp, pass;
    const launch_shape *shape;
    int words[LAUNCH_SIM_WARP_SIZE];
} worst_access;

/* The worst warp of every launch shape and pass, for one access (read or
 * write) at one pitch. Fails when two lanes of a warp use the same word:
 * each thread moves its own element. */
static worst_access survey_access(int read, int pitch)
{
    worst_access worst = {0};
    for (int s = 0; s < SHAPE_COUNT; ++s) {
        lab_dim3 dim = block_of(&SHAPES[s]);
        for (int pass = 0; pass < SHAPES[s].passes; ++pass)
            for (int warp = 0; warp < dim.y; ++warp) { /* a warp is one threadIdx.y */
                int words[LAUNCH_SIM_WARP_SIZE];
                for (int lane = 0; lane < LAUNCH_SIM_WARP_SIZE; ++lane) {
                    lab_dim3 t = sim_dim3(lane, warp, 0);
                    words[lane] = read ? lab4_tile_read_offset(t, dim, pass, pitch)
                                       : lab4_tile_write_offset(t, dim, pass, pitch);
                    check_offset(words[lane], pitch,
                                 read ? "lab4_tile_read_offset" : "lab4_tile_write_offset", t,
                                 pass);
                    for (int k = 0; k < lane; ++k)
                        GRADER_CHECK(words[k] != words[lane],
                                     "TODO(%s) lanes %d and %d of warp %d (%s, pass %d) both "
                                     "%s word %d of the tile (pitch %d): every thread moves "
                                     "its own element. See %s, section %s.",
                                     OFFSETS.todo, k, lane, warp, SHAPES[s].name, pass,
                                     read ? "read" : "write", words[lane], pitch,
                                     OFFSETS.handout, OFFSETS.section);
                }
                int bank = 0, degree = conflict_degree(words, &bank);
                if (degree > worst.degree) {
                    worst = (worst_access){degree, bank, warp, pass, &SHAPES[s], {0}};
                    memcpy(worst.words, words, sizeof words);
                }
            }
    }
    return worst;
}

/* "lanes 0, 1, 2 use words 0, 32, 64" for the lanes in the worst bank. */
static void describe_bank(const worst_access *w, char *out, size_t size)
{
    size_t used = (size_t)snprintf(out, size, "lanes");
    int listed = 0;
    for (int l = 0; l < LAUNCH_SIM_WARP_SIZE && listed < 4 && used < size; ++l)
        if (w->words[l] % LAB4_BANKS == w->bank) {
            used += (size_t)snprintf(out + used, size - used, "%s %d (word %d)",
                                     listed ? "," : "", l, w->words[l]);
            ++listed;
        }
}

void cpu_bank_conflict_degree(void **state)
{
    (void)state;
    const int plain = lab4_tile_pitch(0), padded = lab4_tile_pitch(1);
    GRADER_CHECK(plain == LAB4_TILE,
                 "TODO(%s) lab4_tile_pitch(0) returned %d: the plain tile of version (b) is "
                 "tile[%d][%d], rows %d words apart. See %s, section %s.",
                 PITCH.todo, plain, LAB4_TILE, LAB4_TILE, LAB4_TILE, PITCH.handout,
                 PITCH.section);
    GRADER_CHECK(padded > LAB4_TILE && padded <= 2 * LAB4_TILE,
                 "TODO(%s) lab4_tile_pitch(1) returned %d: a padded row is a little longer "
                 "than the tile's %d words (and not over twice as long). See %s, section %s.",
                 PITCH.todo, padded, LAB4_TILE, PITCH.handout, PITCH.section);

    const char *access[2] = {"write (after the load)", "read (for the store)"};
    const int pitches[2] = {plain, padded};
    const char *metric[2][2] = {{"plain_write_conflict_degree", "plain_read_conflict_degree"},
                                {"padded_write_conflict_degree",
                                 "padded_read_conflict_degree"}};
    for (int p = 0; p < 2; ++p)
        for (int read = 0; read < 2; ++read) {
            worst_access w = survey_access(read, pitches[p]);
            grader_metric(metric[p][read], w.degree, "way");
            grader_note("pitch %d, tile %s: worst warp %d-way (%s)", pitches[p], access[read],
                        w.degree, w.degree == 1 ? "conflict-free" : "bank conflict");
            if (p == 0 || w.degree <= 1)
                continue;
            char lanes[160];
            describe_bank(&w, lanes, sizeof lanes);
            /* Whose fault: a pitch that spreads a column over every bank is
             * right (TODO(4.5)), and then the offsets do not use it (4.4). */
            if (column_degree(pitches[p]) == 1)
                GRADER_FAIL("TODO(%s) the padded tile (pitch %d) still has %d-way bank "
                            "conflicts: in the tile %s of warp %d (%s, pass %d), %d different "
                            "words fall in bank %d (%s, ...), so the warp waits %d times. The "
                            "pitch is right (TODO(%s)): with rows %d words apart, a column of "
                            "the tile falls in 32 different banks. So %s does not use it: "
                            "rows of the tile are `pitch` words apart (row * pitch + column), "
                            "whatever the pitch is, not %d. See %s, section %s.",
                            OFFSETS.todo, pitches[p], w.degree, access[read], w.warp,
                            w.shape->name, w.pass, w.degree, w.bank, lanes, w.degree,
                            PITCH.todo, pitches[p],
                            read ? "lab4_tile_read_offset" : "lab4_tile_write_offset",
                            LAB4_TILE, OFFSETS.handout, OFFSETS.section);
            GRADER_FAIL("TODO(%s) the padded tile (pitch %d) still has %d-way bank conflicts: "
                        "in the tile %s of warp %d (%s, pass %d), %d different words fall in "
                        "bank %d (%s, ...), so the warp waits %d times. With rows %d words "
                        "apart, a column of the tile falls in only %d different banks: choose "
                        "a pitch that spreads it over all 32. See %s, section %s.",
                        PITCH.todo, pitches[p], w.degree, access[read], w.warp, w.shape->name,
                        w.pass, w.degree, w.bank, lanes, w.degree, pitches[p],
                        LAB4_BANKS / column_degree(pitches[p]), PITCH.handout, PITCH.section);
        }
}
