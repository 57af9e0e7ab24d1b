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

/* ================================================ final stage (e), bonus
 * The float4 helpers on simulated launches of 16 x 16 threads over
 * 64-float tiles. A helper's coordinate is the float4's first element;
 * component k is k columns to its right. */

static const todo_pointer VEC_GRID = {"4.8", LAB4_HANDOUT, "8.2"};
static const todo_pointer VEC_ELEMENTS = {"4.9", LAB4_HANDOUT, "8.2"};
static const todo_pointer VEC_OFFSETS = {"4.10", LAB4_HANDOUT, "8.3"};
static const todo_pointer VEC_PITCH = {"4.11", LAB4_HANDOUT, "8.4"};

/* Around and across the 64-float tile edge, and rows and cols that are and
 * are not multiples of 4. */
static const int VEC_MATRICES[][2] = {{1, 1},   {1, 70},  {70, 1},   {63, 65},
                                      {65, 63}, {130, 97}, {128, 192}, {64, 64}};
enum { VEC_MATRIX_COUNT = sizeof VEC_MATRICES / sizeof VEC_MATRICES[0] };

static lab_dim3 vec_block(void) { return sim_dim3(LAB4_VEC_THREADS, LAB4_VEC_THREADS, 1); }

static lab_dim3 vec_grader_grid(int rows, int cols)
{
    return sim_dim3(sim_ceil_div(cols, LAB4_VEC_TILE), sim_ceil_div(rows, LAB4_VEC_TILE), 1);
}

static lab4_coord vec_component(lab4_coord first, int k)
{
    lab4_coord e = {first.row, first.col + k};
    return e;
}

typedef struct {
    int rows, cols;
    coverage_map loaded, stored;
} vec_coverage_sim;

static int vec_record_coverage(const sim_thread *t, void *ctx)
{
    vec_coverage_sim *c = ctx;
    for (int pass = 0; pass < LAB4_VEC_PASSES; ++pass) {
        lab4_coord in = lab4_vec_load_element(t->block_idx, t->thread_idx, pass);
        lab4_coord out = lab4_vec_store_element(t->block_idx, t->thread_idx, pass);
        for (int k = 0; k < LAB4_VEC_WIDTH; ++k) {
            lab4_coord a = vec_component(in, k), b = vec_component(out, k);
            if (inside(a, c->rows, c->cols))
                coverage_record(&c->loaded, (long long)a.row * c->cols + a.col);
            if (inside(b, c->cols, c->rows))
                coverage_record(&c->stored, (long long)b.row * c->rows + b.col);
        }
    }
    return 0;
}

/* The tile word that the write (after the load) or the read (for the
 * store) of component k puts thread t at, checked to lie in the tile. */
static int vec_tile_word(int read, lab_dim3 t, int pass, int k, int pitch)
{
    const int words = LAB4_VEC_TILE * pitch;
    int word = read ? lab4_vec_tile_read_offset(t, pass, k, pitch)
                    : lab4_vec_tile_write_offset(t, pass, k, pitch);
    GRADER_CHECK(word >= 0 && word < words,
                 "TODO(%s) %s(thread (%d,%d), pass %d, k %d, pitch %d) returned word %d, "
                 "outside the tile's %d words (%d rows of %d). See %s, section %s.",
                 VEC_OFFSETS.todo,
                 read ? "lab4_vec_tile_read_offset" : "lab4_vec_tile_write_offset", t.x, t.y,
                 pass, k, pitch, word, words, LAB4_VEC_TILE, pitch, VEC_OFFSETS.handout,
                 VEC_OFFSETS.section);
    return word;
}

/* One block's trip through the 64-row tile at `pitch`: which element of
 * `in` each word holds after the loads, then whether each stored component
 * reads the element it needs. */
static void vec_simulate_block(int rows, int cols, int pitch, lab_dim3 block_idx, int *holds)
{
    const int words = LAB4_VEC_TILE * pitch;
    for (int i = 0; i < words; ++i)
        holds[i] = -1;
    for (int store = 0; store < 2; ++store)
        for (int pass = 0; pass < LAB4_VEC_PASSES; ++pass)
            for (int ty = 0; ty < LAB4_VEC_THREADS; ++ty)
                for (int tx = 0; tx < LAB4_VEC_THREADS; ++tx)
                    for (int k = 0; k < LAB4_VEC_WIDTH; ++k) {
                        lab_dim3 t = sim_dim3(tx, ty, 0);
                        lab4_coord e = vec_component(
                            store ? lab4_vec_store_element(block_idx, t, pass)
                                  : lab4_vec_load_element(block_idx, t, pass), k);
                        if (!(store ? inside(e, cols, rows) : inside(e, rows, cols)))
                            continue;
                        int word = vec_tile_word(store, t, pass, k, pitch);
                        if (!store) {
                            GRADER_CHECK(holds[word] < 0,
                                         "TODO(%s) two loads of block (%d,%d) write word %d of "
                                         "the 64-float tile (pitch %d; the second is thread "
                                         "(%d,%d), pass %d, component %d): one value "
                                         "overwrites another before anyone reads it. See %s, "
                                         "section %s.",
                                         VEC_OFFSETS.todo, block_idx.x, block_idx.y, word,
                                         pitch, tx, ty, pass, k, VEC_OFFSETS.handout,
                                         VEC_OFFSETS.section);
                            holds[word] = e.row * cols + e.col;
                            continue;
                        }
                        /* out[r][c] is in[c][r]. */
                        int want = e.col * cols + e.row, got = holds[word];
                        if (got == want)
                            continue;
                        char held[96];
                        if (got < 0)
                            snprintf(held, sizeof held, "which no load of the block wrote");
                        else
                            snprintf(held, sizeof held, "which holds in[%d][%d]", got / cols,
                                     got % cols);
                        GRADER_FAIL("TODO(%s) on a %dx%d `in`, pitch %d: thread (%d,%d) of "
                                    "block (%d,%d) stores out[%d][%d] as component %d of its "
                                    "float4 in pass %d, which must be in[%d][%d], but "
                                    "lab4_vec_tile_read_offset sends it to tile word %d, %s. "
                                    "The read offset must find the word where "
                                    "lab4_vec_tile_write_offset put that element: the four "
                                    "components come from four tile rows of one column. See "
                                    "%s, section %s.",
                                    VEC_OFFSETS.todo, rows, cols, pitch, tx, ty, block_idx.x,
                                    block_idx.y, e.row, e.col, k, pass, e.col, e.row, word,
                                    held, VEC_OFFSETS.handout, VEC_OFFSETS.section);
                    }
}

void cpu_vector_every_element_moved_once(void **state)
{
    (void)state;
    /* TODO(4.8): the grid. */
    const int extra[][2] = {{4097, 1023}, {8192, 8192}, {1, 4096}, {4096, 1}};
    for (int i = 0; i < VEC_MATRIX_COUNT + 4; ++i) {
        const int *m = i < VEC_MATRIX_COUNT ? VEC_MATRICES[i] : extra[i - VEC_MATRIX_COUNT];
        lab_dim3 got = lab4_vec_tile_grid(m[0], m[1]), want = vec_grader_grid(m[0], m[1]);
        GRADER_CHECK(got.x == want.x && got.y == want.y && got.z == want.z,
                     "TODO(%s) lab4_vec_tile_grid(rows=%d, cols=%d) returned %dx%dx%d blocks, "
                     "expected %dx%dx%d: one block per %d x %d tile, x along a row of `in` "
                     "(its cols), y down a column (its rows), rounding up. See %s, section %s.",
                     VEC_GRID.todo, m[0], m[1], got.x, got.y, got.z, want.x, want.y, want.z,
                     LAB4_VEC_TILE, LAB4_VEC_TILE, VEC_GRID.handout, VEC_GRID.section);
    }
    /* TODO(4.9): every element loaded once and stored once (the grader's
     * own grid, so that a wrong grid is not counted twice). */
    for (int m = 0; m < VEC_MATRIX_COUNT; ++m) {
        int rows = VEC_MATRICES[m][0], cols = VEC_MATRICES[m][1];
        vec_coverage_sim c = {rows, cols, {0}, {0}};
        size_t n = (size_t)rows * (size_t)cols;
        GRADER_CHECK(coverage_init(&c.loaded, n) && coverage_init(&c.stored, n),
                     "out of memory");
        launch_sim_run(vec_grader_grid(rows, cols), vec_block(), vec_record_coverage, &c);
        char what[160];
        snprintf(what, sizeof what, "lab4_vec_load_element (its 4 components) on a %dx%d `in`",
                 rows, cols);
        sim_expect_exact_coverage(&c.loaded, what, "loaded", "load", VEC_ELEMENTS);
        snprintf(what, sizeof what,
                 "lab4_vec_store_element (its 4 components) on the %dx%d `out` of a %dx%d `in`",
                 cols, rows, rows, cols);
        sim_expect_exact_coverage(&c.stored, what, "stored", "store", VEC_ELEMENTS);
    }
    /* TODO(4.10): through the tile, at both of the grader's pitches. */
    static int holds[LAB4_VEC_TILE * (LAB4_VEC_TILE + 1)];
    const int pitches[] = {LAB4_VEC_TILE, LAB4_VEC_TILE + 1};
    for (int m = 0; m < VEC_MATRIX_COUNT; ++m)
        for (int p = 0; p < 2; ++p) {
            int rows = VEC_MATRICES[m][0], cols = VEC_MATRICES[m][1];
            lab_dim3 grid = vec_grader_grid(rows, cols);
            for (int by = 0; by < grid.y; ++by)
                for (int bx = 0; bx < grid.x; ++bx)
                    vec_simulate_block(rows, cols, pitches[p], sim_dim3(bx, by, 0), holds);
        }
}

/* ------------------------------------------ final stage: global accesses */

typedef struct {
    int rows, cols, pass, store;
} vec_access_sim;

static long long vec_global_address(const sim_thread *t, void *ctx)
{
    const vec_access_sim *a = ctx;
    if (a->store) {
        lab4_coord e = lab4_vec_store_element(t->block_idx, t->thread_idx, a->pass);
        return inside(e, a->cols, a->rows) ? 4LL * ((long long)e.row * a->rows + e.col) : -1;
    }
    lab4_coord e = lab4_vec_load_element(t->block_idx, t->thread_idx, a->pass);
    return inside(e, a->rows, a->cols) ? 4LL * ((long long)e.row * a->cols + e.col) : -1;
}

typedef struct {
    int store;
    lab_dim3 bad_block, bad_thread;
    int bad_pass, bad_col, found;
} vec_alignment_sim;

/* A float4 access must start on a 16-byte boundary: at a column that is a
 * multiple of 4 (rows of a matrix whose width is a multiple of 4 start on
 * one). */
static int vec_find_misaligned(const sim_thread *t, void *ctx)
{
    vec_alignment_sim *a = ctx;
    for (int pass = 0; pass < LAB4_VEC_PASSES; ++pass) {
        lab4_coord e = a->store ? lab4_vec_store_element(t->block_idx, t->thread_idx, pass)
                                : lab4_vec_load_element(t->block_idx, t->thread_idx, pass);
        if (e.col % LAB4_VEC_WIDTH != 0) {
            *a = (vec_alignment_sim){a->store, t->block_idx, t->thread_idx, pass, e.col, 1};
            return 1;
        }
    }
    return 0;
}

void cpu_vector_accesses_coalesced(void **state)
{
    (void)state;
    /* Whole tiles only, so that every warp request is a full one. */
    const int rows = 256, cols = 192;
    lab_dim3 grid = vec_grader_grid(rows, cols);
    for (int store = 0; store < 2; ++store) {
        vec_alignment_sim a = {store, {0, 0, 0}, {0, 0, 0}, 0, 0, 0};
        launch_sim_run(grid, vec_block(), vec_find_misaligned, &a);
        GRADER_CHECK(!a.found,
                     "TODO(%s) %s(block (%d,%d), thread (%d,%d), pass %d) starts its float4 at "
                     "column %d, not a multiple of 4: a float4 access must be 16-byte aligned, "
                     "and in a matrix whose rows are a multiple of 4 floats long only columns "
                     "0, 4, 8, ... are. See %s, section %s.",
                     VEC_ELEMENTS.todo,
                     store ? "lab4_vec_store_element" : "lab4_vec_load_element", a.bad_block.x,
                     a.bad_block.y, a.bad_thread.x, a.bad_thread.y, a.bad_pass, a.bad_col,
                     VEC_ELEMENTS.handout, VEC_ELEMENTS.section);
    }
    for (int pass = 0; pass < LAB4_VEC_PASSES; ++pass)
        for (int store = 0; store < 2; ++store) {
            vec_access_sim a = {rows, cols, pass, store};
            warp_sector_survey survey;
            memory_sectors_survey(grid, vec_block(), vec_global_address, &a,
                                  4 * LAB4_VEC_WIDTH, &survey);
            char what[160], metric[48];
            snprintf(what, sizeof what, "float4 %s of a %dx%d transpose, 16x16 threads, pass %d",
                     store ? "stores to `out`" : "loads from `in`", rows, cols, pass);
            snprintf(metric, sizeof metric, "vector_%s_pass%d", store ? "store" : "load", pass);
            GRADER_CHECK(survey.fewest_distinct >= LAUNCH_SIM_WARP_SIZE,
                         "TODO(%s) %s: the 32 threads of a warp access only %.1f different "
                         "float4s on average (the fewest: %d), where each must move its own. "
                         "See %s, section %s.",
                         VEC_ELEMENTS.todo, what, memory_sectors_mean_distinct(&survey),
                         survey.fewest_distinct, VEC_ELEMENTS.handout, VEC_ELEMENTS.section);
            sim_expect_coalesced(&survey, what, metric, LAB4_MAX_SECTOR_RATIO,
                                 store ? "threadIdx.x must pick the float4 along a row of `out` "
                                         "(the tile's column of `out` comes from blockIdx.y)"
                                       : "threadIdx.x must pick the float4 along a row of `in`",
                                 VEC_ELEMENTS);
        }
}

/* ------------------------------------------- final stage: bank conflicts */

/* The worst warp of the 16 x 16 block (a warp is two block rows: ty = 2w,
 * 2w + 1) over every pass and component, for the tile write (after the
 * load) or the gather (for the store) at `pitch`. */
static worst_access vec_survey_access(int read, int pitch)
{
    worst_access worst = {0};
    for (int pass = 0; pass < LAB4_VEC_PASSES; ++pass)
        for (int k = 0; k < LAB4_VEC_WIDTH; ++k)
            for (int warp = 0; warp < LAB4_VEC_THREADS / 2; ++warp) {
                int words[LAUNCH_SIM_WARP_SIZE];
                for (int lane = 0; lane < LAUNCH_SIM_WARP_SIZE; ++lane) {
                    lab_dim3 t = sim_dim3(lane % LAB4_VEC_THREADS,
                                          2 * warp + lane / LAB4_VEC_THREADS, 0);
                    words[lane] = vec_tile_word(read, t, pass, k, pitch);
                    for (int j = 0; j < lane; ++j)
                        GRADER_CHECK(words[j] != words[lane],
                                     "TODO(%s) lanes %d and %d of warp %d (16x16 threads, pass "
                                     "%d, component %d) both %s word %d of the 64-float tile "
                                     "(pitch %d): every thread moves its own elements. See %s, "
                                     "section %s.",
                                     VEC_OFFSETS.todo, j, lane, warp, pass, k,
                                     read ? "read" : "write", words[lane], pitch,
                                     VEC_OFFSETS.handout, VEC_OFFSETS.section);
                }
                int bank = 0, degree = conflict_degree(words, &bank);
                if (degree > worst.degree) {
                    worst = (worst_access){degree, bank, warp, pass, NULL, {0}};
                    memcpy(worst.words, words, sizeof words);
                }
            }
    return worst;
}

/* The gather's conflict degree at `pitch` with the right offsets: lanes
 * (tx, ty) of warp 0 reading tile[4*tx][ty]. */
static int vec_gather_degree(int pitch)
{
    int words[LAUNCH_SIM_WARP_SIZE], bank = 0;
    for (int lane = 0; lane < LAUNCH_SIM_WARP_SIZE; ++lane)
        words[lane] = LAB4_VEC_WIDTH * (lane % LAB4_VEC_THREADS) * pitch +
                      lane / LAB4_VEC_THREADS;
    return conflict_degree(words, &bank);
}

void cpu_vector_bank_conflict_degree(void **state)
{
    (void)state;
    const int plain = lab4_vec_tile_pitch(0), padded = lab4_vec_tile_pitch(1);
    GRADER_CHECK(plain == LAB4_VEC_TILE,
                 "TODO(%s) lab4_vec_tile_pitch(0) returned %d: the unpadded 64-float tile has "
                 "rows %d words apart. See %s, section %s.",
                 VEC_PITCH.todo, plain, LAB4_VEC_TILE, VEC_PITCH.handout, VEC_PITCH.section);
    GRADER_CHECK(padded > LAB4_VEC_TILE && padded <= 2 * LAB4_VEC_TILE,
                 "TODO(%s) lab4_vec_tile_pitch(1) returned %d: a padded row is a little longer "
                 "than the tile's %d words (and not over twice as long). See %s, section %s.",
                 VEC_PITCH.todo, padded, LAB4_VEC_TILE, VEC_PITCH.handout, VEC_PITCH.section);

    const char *access[2] = {"write (after the float4 load)", "gather (for the float4 store)"};
    const int pitches[2] = {plain, padded};
    const char *metric[2][2] = {{"vector_plain_write_conflict_degree",
                                 "vector_plain_gather_conflict_degree"},
                                {"vector_padded_write_conflict_degree",
                                 "vector_padded_gather_conflict_degree"}};
    /* The gather first: it is what the pitch is chosen for. */
    for (int p = 0; p < 2; ++p)
        for (int read = 1; read >= 0; --read) {
            worst_access w = vec_survey_access(read, pitches[p]);
            grader_metric(metric[p][read], w.degree, "way");
            grader_note("64-float tile, pitch %d, tile %s: worst warp %d-way", pitches[p],
                        access[read], w.degree);
            if (p == 0 || w.degree <= LAB4_VEC_MAX_CONFLICT_DEGREE)
                continue;
            char lanes[160];
            describe_bank(&w, lanes, sizeof lanes);
            /* Whose fault: a pitch whose right gather is 2-way is right
             * (TODO(4.11)), and then the offsets do not use it (4.10). */
            if (vec_gather_degree(pitches[p]) <= LAB4_VEC_MAX_CONFLICT_DEGREE)
                GRADER_FAIL("TODO(%s) the padded 64-float tile (pitch %d) still has %d-way "
                            "bank conflicts: in the tile %s of warp %d (pass %d), %d different "
                            "words fall in bank %d (%s, ...). The pitch is right (TODO(%s)): "
                            "with rows %d words apart the gather is %d-way at worst. So %s "
                            "does not use it: tile rows are `pitch` words apart (row * pitch "
                            "+ column). See %s, section %s.",
                            VEC_OFFSETS.todo, pitches[p], w.degree, access[read], w.warp,
                            w.pass, w.degree, w.bank, lanes, VEC_PITCH.todo, pitches[p],
                            LAB4_VEC_MAX_CONFLICT_DEGREE,
                            read ? "lab4_vec_tile_read_offset" : "lab4_vec_tile_write_offset",
                            VEC_OFFSETS.handout, VEC_OFFSETS.section);
            GRADER_FAIL("TODO(%s) the padded 64-float tile (pitch %d) still has %d-way bank "
                        "conflicts: in the tile %s of warp %d (pass %d), %d different words "
                        "fall in bank %d (%s, ...), so the warp waits %d times. A lane's "
                        "component lies 4 tile rows past its neighbour's, 4 x %d words: work "
                        "out (4 * tx * pitch) mod 32 for tx = 0..15 and choose a pitch that "
                        "leaves no bank more than %d words of the gather. See %s, section %s.",
                        VEC_PITCH.todo, pitches[p], w.degree, access[read], w.warp, w.pass,
                        w.degree, w.bank, lanes, w.degree, pitches[p],
                        LAB4_VEC_MAX_CONFLICT_DEGREE, VEC_PITCH.handout, VEC_PITCH.section);
        }
}
