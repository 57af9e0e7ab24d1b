/* The mismatch classifier: see mismatch.h. */
#include "mismatch.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guard.h"

/* Images larger than this are not searched for an x/y swap (a byte per
 * element of scratch): the checks that look for one use small images. */
#define XY_SWAP_MAX_ELEMENTS ((size_t)1 << 24)

static int close_to(float got, double want, const mismatch_spec *spec)
{
    if (!isfinite(got))
        return 0;
    return fabs((double)got - want) <= spec->atol + spec->rtol * fabs(want);
}

mismatch_spec mismatch_spec_from_compare(const compare_spec *spec)
{
    mismatch_spec m = {.rows = spec->rows, .cols = spec->cols, .atol = spec->atol,
                       .rtol = spec->rtol, .tile = spec->tile};
    return m;
}

/* ---------------------------------------------------- whole-output patterns */

static int all_zeros(const float *got, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        if (got[i] != 0.0f)
            return 0;
    return 1;
}

static int transposed(const float *got, const double *ref, const mismatch_spec *s)
{
    if (s->rows < 2 || s->cols < 2)
        return 0;
    for (size_t r = 0; r < s->rows; ++r)
        for (size_t c = 0; c < s->cols; ++c)
            if (!close_to(got[c * s->rows + r], ref[r * s->cols + c], s))
                return 0;
    return 1;
}

/* got(r, c) holds ref(r + dr, c + dc) wherever both lie inside. */
static int shifted_by(const float *got, const double *ref, const mismatch_spec *s, int dr, int dc)
{
    size_t compared = 0;
    for (size_t r = 0; r < s->rows; ++r)
        for (size_t c = 0; c < s->cols; ++c) {
            long long rr = (long long)r + dr, cc = (long long)c + dc;
            if (rr < 0 || cc < 0 || rr >= (long long)s->rows || cc >= (long long)s->cols)
                continue;
            if (!close_to(got[r * s->cols + c], ref[(size_t)rr * s->cols + (size_t)cc], s))
                return 0;
            ++compared;
        }
    return compared > 0;
}

static int find_shift(const float *got, const double *ref, const mismatch_spec *s,
                      mismatch_verdict *v)
{
    static const int steps[][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; ++i) {
        int dr = steps[i][0], dc = steps[i][1];
        if ((dr && s->rows < 2) || (dc && s->cols < 2))
            continue;
        if (shifted_by(got, ref, s, dr, dc)) {
            v->shift_rows = dr;
            v->shift_cols = dc;
            return 1;
        }
    }
    return 0;
}

/* got = f * ref everywhere, for the f the largest reference element gives. */
static int scaled(const float *got, const double *ref, const mismatch_spec *s, double *factor)
{
    size_t n = s->rows * s->cols, pivot = 0;
    for (size_t i = 1; i < n; ++i)
        if (fabs(ref[i]) > fabs(ref[pivot]))
            pivot = i;
    if (fabs(ref[pivot]) < 1e-30 || !isfinite(got[pivot]))
        return 0;
    double f = (double)got[pivot] / ref[pivot];
    if (f == 0.0 || fabs(f - 1.0) < 1e-6)
        return 0;
    /* float rounding of a scaled value: a relative 1e-5 at least. */
    double rtol = s->rtol > 1e-5 ? s->rtol : 1e-5;
    for (size_t i = 0; i < n; ++i) {
        double want = f * ref[i];
        if (!isfinite(got[i]) ||
            fabs((double)got[i] - want) > s->atol * fabs(f) + rtol * fabs(want) + 1e-30)
            return 0;
    }
    *factor = f;
    return 1;
}

/* ------------------------------------------------------------ x/y swap */

/* An image of width = cols and height = rows, written by a kernel whose
 * thread (x, y) (x along the columns) uses the offset x * width + y, the
 * swap students write, for both reads and writes (elementwise kernels: the
 * element then holds its own right value) or only for the write (the
 * element holds the value of pixel (row y, column x)). Two bounds tests:
 *   swapped_bounds = 1: x < height && y < width (the swap made consistently:
 *     x picks the row), on the launch's grid of whole blocks;
 *   swapped_bounds = 0: x < width && y < height, offsets past the end
 *     written out of bounds (the grader's guard zones see those).
 * Returns 1 when the written elements are exactly those the swap reaches,
 * each with one of the values above, and every other is still poison. */
static int xy_swap_fits(const float *got, const double *ref, const mismatch_spec *s,
                        int swapped_bounds, unsigned char *reached)
{
    size_t width = s->cols, height = s->rows, n = width * height;
    size_t grid_x = s->block_x ? (width + s->block_x - 1) / s->block_x * s->block_x : width;
    size_t grid_y = s->block_y ? (height + s->block_y - 1) / s->block_y * s->block_y : height;
    size_t x_end = swapped_bounds ? (height < grid_x ? height : grid_x) : width;
    size_t y_end = swapped_bounds ? (width < grid_y ? width : grid_y) : height;
    /* reached: 0 no thread writes there, 1 some do, 2 one of them writes
     * the value found there. */
    memset(reached, 0, n);
    for (size_t x = 0; x < x_end; ++x)
        for (size_t y = 0; y < y_end; ++y) {
            size_t offset = x * width + y;
            if (offset >= n)
                continue;
            if (reached[offset] == 0)
                reached[offset] = 1;
            int own_inside = y < height && x < width; /* the pixel (row y, column x) */
            if (close_to(got[offset], ref[offset], s) ||
                (own_inside && close_to(got[offset], ref[y * width + x], s)))
                reached[offset] = 2;
        }
    for (size_t i = 0; i < n; ++i)
        if (reached[i] == 1 || (reached[i] == 0) != !!guard_is_poison(got[i]))
            return 0;
    /* The caller knows the output is wrong: either some elements were never
     * reached, or some hold the value of the pixel with x and y swapped. */
    return 1;
}

static int xy_swapped(const float *got, const double *ref, const mismatch_spec *s)
{
    size_t n = s->rows * s->cols;
    if (s->rows < 2 || s->cols < 2 || s->rows == s->cols || n > XY_SWAP_MAX_ELEMENTS)
        return 0;
    unsigned char *reached = malloc(n);
    if (!reached)
        return 0;
    int fits = xy_swap_fits(got, ref, s, 1, reached) || xy_swap_fits(got, ref, s, 0, reached);
    free(reached);
    return fits;
}

/* --------------------------------------------------------- local patterns */

/* Every element of the first block right, every element after it wrong. */
static int past_first_block(const float *got, const double *ref, const mismatch_spec *s)
{
    size_t n = s->rows * s->cols;
    if (s->block == 0 || n <= s->block)
        return 0;
    for (size_t i = 0; i < n; ++i)
        if (close_to(got[i], ref[i], s) != (i < s->block))
            return 0;
    return 1;
}

/* The rows and columns that full tiles cover; 0 when there is no partial
 * tile or no full one. A vector (one row) is tiled along its columns only. */
static int full_tile_region(const mismatch_spec *s, size_t *full_rows, size_t *full_cols)
{
    if (s->tile == 0)
        return 0;
    *full_rows = s->rows == 1 ? 1 : s->rows / s->tile * s->tile;
    *full_cols = s->cols / s->tile * s->tile;
    if (*full_rows == 0 || *full_cols == 0)
        return 0;
    return *full_rows < s->rows || *full_cols < s->cols;
}

/* inside = 1: only elements of the full tiles are wrong; 0: only elements
 * of the partial ones. */
static int wrong_only_in(const float *got, const double *ref, const mismatch_spec *s,
                         int inside)
{
    size_t full_rows, full_cols;
    if (!full_tile_region(s, &full_rows, &full_cols))
        return 0;
    for (size_t r = 0; r < s->rows; ++r)
        for (size_t c = 0; c < s->cols; ++c) {
            int in_full = r < full_rows && c < full_cols;
            if (in_full != inside && !close_to(got[r * s->cols + c], ref[r * s->cols + c], s))
                return 0;
        }
    return 1;
}

/* ---------------------------------------------------------------- verdict */

const char *mismatch_kind_name(mismatch_kind kind)
{
    switch (kind) {
    case MISMATCH_NONE: return "right";
    case MISMATCH_NEVER_WRITTEN: return "never written";
    case MISMATCH_ALL_ZEROS: return "all zeros";
    case MISMATCH_TRANSPOSED: return "transposed";
    case MISMATCH_XY_SWAPPED: return "x/y swapped";
    case MISMATCH_SHIFTED: return "shifted";
    case MISMATCH_SCALED: return "off by one factor";
    case MISMATCH_PAST_FIRST_BLOCK: return "wrong past the first block";
    case MISMATCH_PARTIAL_TILES: return "only the partial tiles wrong";
    case MISMATCH_FULL_TILES_ONLY: return "only full tiles wrong";
    case MISMATCH_PARTLY_UNWRITTEN: return "partly unwritten";
    case MISMATCH_UNKNOWN: return "no known pattern";
    }
    return "?";
}

static void describe_shift(mismatch_verdict *v)
{
    const char *axis = v->shift_rows ? "row" : "column";
    int step = v->shift_rows ? v->shift_rows : v->shift_cols;
    snprintf(v->text, sizeof v->text,
             "the output is shifted by one %s: element (r, c) holds the value expected at "
             "(%s, %s), an off-by-one in the %s index",
             axis, v->shift_rows ? (step > 0 ? "r+1" : "r-1") : "r",
             v->shift_cols ? (step > 0 ? "c+1" : "c-1") : "c", axis);
}

static void describe(const mismatch_spec *s, mismatch_verdict *v)
{
    switch (v->kind) {
    case MISMATCH_NONE:
        snprintf(v->text, sizeof v->text, "every element is right");
        break;
    case MISMATCH_NEVER_WRITTEN:
        snprintf(v->text, sizeof v->text,
                 "the output was never written: every element still holds the NaN poison (no "
                 "kernel ran, or it wrote somewhere else)");
        break;
    case MISMATCH_ALL_ZEROS:
        snprintf(v->text, sizeof v->text,
                 "every element is 0: nothing was accumulated, or only an initial value was "
                 "stored");
        break;
    case MISMATCH_TRANSPOSED:
        snprintf(v->text, sizeof v->text,
                 "the output is the transpose of the expected one: element (r, c) holds the "
                 "value expected at (c, r), rows and columns are swapped");
        break;
    case MISMATCH_XY_SWAPPED:
        snprintf(v->text, sizeof v->text,
                 "x and y are swapped: the elements written are those the offset x * width + y "
                 "reaches (x must pick the column and y the row: row * width + column)");
        break;
    case MISMATCH_SHIFTED:
        describe_shift(v);
        break;
    case MISMATCH_SCALED:
        snprintf(v->text, sizeof v->text,
                 "every element is %.6g times the expected value: a factor is missing or "
                 "applied twice",
                 v->factor);
        break;
    case MISMATCH_PAST_FIRST_BLOCK:
        snprintf(v->text, sizeof v->text,
                 "the first block's %zu elements are right and every element after them is "
                 "wrong: the index leaves out blockIdx (or blockDim)",
                 s->block);
        break;
    case MISMATCH_PARTIAL_TILES:
        snprintf(v->text, sizeof v->text,
                 "only the last, partial tiles are wrong (every full %zu-wide tile is right): "
                 "the boundary (size not a multiple of the tile) is not handled",
                 s->tile);
        break;
    case MISMATCH_FULL_TILES_ONLY:
        snprintf(v->text, sizeof v->text,
                 "the partial tiles at the edges are right but elements of full tiles are "
                 "wrong: not a boundary problem");
        break;
    case MISMATCH_PARTLY_UNWRITTEN:
        snprintf(v->text, sizeof v->text,
                 "%zu elements were never written (they still hold the NaN poison): too few "
                 "threads, or an index that skips elements",
                 v->poisoned);
        break;
    case MISMATCH_UNKNOWN:
        snprintf(v->text, sizeof v->text, "%zu elements wrong, in no pattern the grader knows",
                 v->wrong);
        break;
    }
}

static mismatch_kind classify(const float *got, const double *ref, const mismatch_spec *s,
                              mismatch_verdict *v)
{
    size_t n = s->rows * s->cols;
    for (size_t i = 0; i < n; ++i)
        if (!close_to(got[i], ref[i], s)) {
            ++v->wrong;
            v->poisoned += guard_is_poison(got[i]) != 0;
        }
    if (v->wrong == 0)
        return MISMATCH_NONE;
    if (v->poisoned == n)
        return MISMATCH_NEVER_WRITTEN;
    if (all_zeros(got, n))
        return MISMATCH_ALL_ZEROS;
    if (transposed(got, ref, s))
        return MISMATCH_TRANSPOSED;
    if (xy_swapped(got, ref, s))
        return MISMATCH_XY_SWAPPED;
    if (find_shift(got, ref, s, v))
        return MISMATCH_SHIFTED;
    if (scaled(got, ref, s, &v->factor))
        return MISMATCH_SCALED;
    if (past_first_block(got, ref, s))
        return MISMATCH_PAST_FIRST_BLOCK;
    if (wrong_only_in(got, ref, s, 0))
        return MISMATCH_PARTIAL_TILES;
    if (wrong_only_in(got, ref, s, 1))
        return MISMATCH_FULL_TILES_ONLY;
    if (v->poisoned > 0)
        return MISMATCH_PARTLY_UNWRITTEN;
    return MISMATCH_UNKNOWN;
}

mismatch_kind mismatch_classify(const float *got, const double *ref, const mismatch_spec *spec,
                                mismatch_verdict *verdict)
{
    memset(verdict, 0, sizeof *verdict);
    verdict->kind = classify(got, ref, spec, verdict);
    describe(spec, verdict);
    return verdict->kind;
}

size_t mismatch_runs_differ(const float *first, const float *second, size_t n,
                            size_t *first_index)
{
    size_t differ = 0;
    for (size_t i = 0; i < n; ++i) {
        uint32_t a, b;
        memcpy(&a, &first[i], sizeof a);
        memcpy(&b, &second[i], sizeof b);
        if (a != b && differ++ == 0 && first_index)
            *first_index = i;
    }
    return differ;
}
