/* The mismatch classifier (mismatch.h) on wrong outputs built from right
 * ones: each pattern the graders name must be recognised, and a right
 * output, random garbage and scattered errors must not be taken for one. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "guard.h"
#include "harness.h"
#include "mismatch.h"
#include "rng.h"

/* 37 x 53: neither edge a multiple of the 16-wide tile, so full and partial
 * tiles both exist. */
enum { ROWS = 37, COLS = 53, TILE = 16 };

typedef struct {
    size_t n;
    double *ref;
    float *got;
    mismatch_spec spec;
} case_data;

static void make_case(case_data *c, size_t rows, size_t cols, uint64_t seed)
{
    c->n = rows * cols;
    c->ref = grader_malloc(c->n * sizeof *c->ref);
    c->got = grader_malloc(c->n * sizeof *c->got);
    rng_fill_uniform(c->got, c->n, seed, -1.0f, 1.0f);
    for (size_t i = 0; i < c->n; ++i)
        c->ref[i] = c->got[i];
    mismatch_spec spec = {.rows = rows, .cols = cols, .atol = 1e-6, .rtol = 1e-6};
    c->spec = spec;
}

static void free_case(case_data *c)
{
    free(c->ref);
    free(c->got);
}

static void expect_kind(case_data *c, mismatch_kind want, const char *what)
{
    mismatch_verdict v;
    mismatch_kind got = mismatch_classify(c->got, c->ref, &c->spec, &v);
    GRADER_CHECK(got == want, "%s: classified as \"%s\" (%s), expected \"%s\"", what,
                 mismatch_kind_name(got), v.text, mismatch_kind_name(want));
    GRADER_CHECK(v.text[0] != '\0', "%s: the verdict has no text", what);
}

static void expect_text(case_data *c, const char *part, const char *what)
{
    mismatch_verdict v;
    mismatch_classify(c->got, c->ref, &c->spec, &v);
    GRADER_CHECK(strstr(v.text, part) != NULL, "%s: \"%s\" does not say \"%s\"", what, v.text,
                 part);
}

void cpu_right_output_is_none(void **state)
{
    (void)state;
    case_data c;
    make_case(&c, ROWS, COLS, 1);
    c.spec.tile = TILE;
    c.spec.block = 256;
    expect_kind(&c, MISMATCH_NONE, "the reference itself");
    /* Within the tolerance is right too. */
    c.got[5] += 5e-7f;
    expect_kind(&c, MISMATCH_NONE, "one element off by less than the tolerance");
    free_case(&c);
}

void cpu_never_written_and_zeros(void **state)
{
    (void)state;
    case_data c;
    make_case(&c, ROWS, COLS, 2);
    guard_fill_poison_floats(c.got, c.n);
    expect_kind(&c, MISMATCH_NEVER_WRITTEN, "all poison");
    expect_text(&c, "never written", "all poison");
    memset(c.got, 0, c.n * sizeof *c.got);
    expect_kind(&c, MISMATCH_ALL_ZEROS, "all zeros");
    free_case(&c);
}

void cpu_transposed(void **state)
{
    (void)state;
    case_data c;
    make_case(&c, ROWS, COLS, 3);
    for (size_t r = 0; r < ROWS; ++r)
        for (size_t col = 0; col < COLS; ++col)
            c.got[col * ROWS + r] = (float)c.ref[r * COLS + col];
    c.spec.tile = TILE;
    expect_kind(&c, MISMATCH_TRANSPOSED, "C stored column-major");
    free_case(&c);
}

/* An elementwise image kernel (out = 2 * in) on a width x height image with
 * 16 x 16 blocks, as a student writes it with x and y swapped:
 *   swapped_bounds 1:  row = x-index, col = y-index, if (row < height && col < width)
 *                      out[row * width + col]            (x picks the row)
 *   swapped_bounds 0:  if (x < width && y < height) out[x * width + y]
 * own_value 1 (with swapped_bounds 0) writes 2 * in[y * width + x], the
 * pixel the thread owns, instead of 2 * in at the offset it writes. */
static void swapped_image_kernel(case_data *c, const float *in, size_t width, size_t height,
                                 int swapped_bounds, int own_value)
{
    guard_fill_poison_floats(c->got, c->n);
    size_t grid_x = (width + 15) / 16 * 16, grid_y = (height + 15) / 16 * 16;
    for (size_t y = 0; y < grid_y; ++y)
        for (size_t x = 0; x < grid_x; ++x) {
            int inside = swapped_bounds ? (x < height && y < width) : (x < width && y < height);
            size_t offset = x * width + y;
            if (!inside || offset >= c->n) /* past the end: the guard zone's business */
                continue;
            c->got[offset] = own_value ? 2.0f * in[y * width + x] : 2.0f * in[offset];
        }
}

void cpu_xy_swapped_image(void **state)
{
    (void)state;
    /* The course's 76 x 62 image (wider than high) and its 62 x 76 turn. */
    const size_t shapes[][2] = {{76, 62}, {62, 76}, {17, 15}};
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; ++k) {
        size_t width = shapes[k][0], height = shapes[k][1];
        case_data c;
        make_case(&c, height, width, 4 + k);
        float *in = grader_malloc(c.n * sizeof *in);
        for (size_t i = 0; i < c.n; ++i) {
            in[i] = (float)c.ref[i];
            c.ref[i] = 2.0 * in[i];
        }
        c.spec.tile = 16;
        c.spec.block_x = c.spec.block_y = 16;
        /* With the swapped bounds the thread's own pixel is the one at the
         * offset it writes; only the other swap can write someone else's. */
        static const int variants[][2] = {{1, 0}, {0, 0}, {0, 1}};
        for (size_t j = 0; j < sizeof variants / sizeof variants[0]; ++j) {
            int bounds = variants[j][0], own = variants[j][1];
            swapped_image_kernel(&c, in, width, height, bounds, own);
            mismatch_verdict v;
            if (mismatch_classify(c.got, c.ref, &c.spec, &v) == MISMATCH_NONE)
                continue; /* this swap happens to write every element right */
            GRADER_CHECK(v.kind == MISMATCH_XY_SWAPPED,
                         "%zux%zu image, swapped bounds %d, own value %d: classified as "
                         "\"%s\" (%s)",
                         width, height, bounds, own, mismatch_kind_name(v.kind), v.text);
            GRADER_CHECK(strstr(v.text, "x must pick the column") != NULL,
                         "the swap's text must say which index picks the column: %s", v.text);
        }
        /* The course's image with the swap made consistently must be
         * recognised (it leaves columns 64-75 unwritten). */
        swapped_image_kernel(&c, in, width, height, 1, 0);
        if (width == 76)
            expect_kind(&c, MISMATCH_XY_SWAPPED, "76x62, x picks the row");
        free(in);
        free_case(&c);
    }
}

void cpu_shifted_by_a_row_or_column(void **state)
{
    (void)state;
    static const int steps[][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    for (size_t k = 0; k < sizeof steps / sizeof steps[0]; ++k) {
        int dr = steps[k][0], dc = steps[k][1];
        case_data c;
        make_case(&c, ROWS, COLS, 10 + k);
        c.spec.tile = TILE;
        for (size_t r = 0; r < ROWS; ++r)
            for (size_t col = 0; col < COLS; ++col) {
                long long rr = (long long)r + dr, cc = (long long)col + dc;
                int inside = rr >= 0 && cc >= 0 && rr < ROWS && cc < COLS;
                c.got[r * COLS + col] = inside ? (float)c.ref[rr * COLS + cc] : 0.0f;
            }
        expect_kind(&c, MISMATCH_SHIFTED, "shifted by one step");
        expect_text(&c, dr ? "one row" : "one column", "shift's axis");
        free_case(&c);
    }
    /* A vector read one element late: shifted by one column. */
    case_data v;
    make_case(&v, 1, 1000, 20);
    for (size_t i = 0; i + 1 < 1000; ++i)
        v.got[i] = (float)v.ref[i + 1];
    v.spec.block = 256;
    v.spec.tile = 256;
    expect_kind(&v, MISMATCH_SHIFTED, "a vector off by one element");
    free_case(&v);
}

void cpu_off_by_one_factor(void **state)
{
    (void)state;
    const double factors[] = {2.0, 0.5, 1.0 / 1.5, -1.0};
    for (size_t k = 0; k < sizeof factors / sizeof factors[0]; ++k) {
        case_data c;
        make_case(&c, ROWS, COLS, 30 + k);
        c.spec.tile = TILE;
        for (size_t i = 0; i < c.n; ++i)
            c.got[i] = (float)(factors[k] * c.ref[i]);
        mismatch_verdict v;
        mismatch_classify(c.got, c.ref, &c.spec, &v);
        GRADER_CHECK(v.kind == MISMATCH_SCALED && fabs(v.factor - factors[k]) < 1e-5,
                     "every element times %g: classified as \"%s\" with factor %g (%s)",
                     factors[k], mismatch_kind_name(v.kind), v.factor, v.text);
        free_case(&c);
    }
}

void cpu_past_first_block(void **state)
{
    (void)state;
    case_data c;
    make_case(&c, 1, 1000, 40);
    c.spec.block = 256;
    /* Every block wrote the first block's elements (the index forgot
     * blockIdx): the rest was never written. */
    guard_fill_poison_floats(c.got + 256, 1000 - 256);
    expect_kind(&c, MISMATCH_PAST_FIRST_BLOCK, "blockIdx left out, rest unwritten");
    /* ... or written with other elements' values. */
    for (size_t i = 256; i < 1000; ++i)
        c.got[i] = (float)c.ref[i % 256];
    expect_kind(&c, MISMATCH_PAST_FIRST_BLOCK, "blockIdx left out, rest overwritten");
    /* One block's worth of data is not "past the first block". */
    c.spec.block = 0;
    expect_kind(&c, MISMATCH_UNKNOWN, "no block size given");
    free_case(&c);
}

void cpu_partial_tiles_only_when_true(void **state)
{
    (void)state;
    case_data c;
    make_case(&c, ROWS, COLS, 50);
    c.spec.tile = TILE;
    /* Rows 32-36 and columns 48-52 lie in partial tiles. */
    c.got[33 * COLS + 5] += 1.0f;
    c.got[2 * COLS + 50] += 1.0f;
    expect_kind(&c, MISMATCH_PARTIAL_TILES, "wrong only in partial tiles");
    /* One wrong element inside a full tile as well: no longer a boundary. */
    c.got[7 * COLS + 7] += 1.0f;
    expect_kind(&c, MISMATCH_UNKNOWN, "wrong in partial and full tiles");
    /* Only inside full tiles: the partial ones are right. */
    c.got[33 * COLS + 5] = (float)c.ref[33 * COLS + 5];
    c.got[2 * COLS + 50] = (float)c.ref[2 * COLS + 50];
    expect_kind(&c, MISMATCH_FULL_TILES_ONLY, "wrong only in a full tile");
    /* Without a tile size neither tile pattern is given. */
    c.spec.tile = 0;
    expect_kind(&c, MISMATCH_UNKNOWN, "no tile size");
    /* A size that is a multiple of the tile has no partial tiles. */
    case_data even;
    make_case(&even, 32, 48, 51);
    even.spec.tile = TILE;
    even.got[3] += 1.0f;
    expect_kind(&even, MISMATCH_UNKNOWN, "no partial tiles at all");
    free_case(&even);
    /* A vector's last partial block. */
    case_data v;
    make_case(&v, 1, 1000, 52);
    v.spec.tile = 256;
    v.spec.block = 256;
    guard_fill_poison_floats(v.got + 768, 1000 - 768);
    expect_kind(&v, MISMATCH_PARTIAL_TILES, "a vector's last partial block unwritten");
    free_case(&v);
    free_case(&c);
}

void cpu_garbage_and_scattered_errors(void **state)
{
    (void)state;
    case_data c;
    make_case(&c, ROWS, COLS, 60);
    c.spec.tile = TILE;
    c.spec.block = 256;
    c.spec.block_x = c.spec.block_y = 16;
    rng_fill_uniform(c.got, c.n, 61, -1.0f, 1.0f);
    expect_kind(&c, MISMATCH_UNKNOWN, "random garbage");
    /* A race: scattered wrong elements in full and partial tiles. */
    for (size_t i = 0; i < c.n; ++i)
        c.got[i] = (float)c.ref[i];
    for (size_t i = 0; i < c.n; i += 97)
        c.got[i] += 0.25f;
    expect_kind(&c, MISMATCH_UNKNOWN, "scattered errors");
    /* A few elements never written, with no other pattern. */
    for (size_t i = 0; i < c.n; ++i)
        c.got[i] = (float)c.ref[i];
    guard_fill_poison_floats(c.got + 100, 3);
    expect_kind(&c, MISMATCH_PARTLY_UNWRITTEN, "three unwritten elements");
    /* NaN that is not the poison is wrong, and no pattern. */
    c.got[100] = c.got[101] = c.got[102] = NAN;
    expect_kind(&c, MISMATCH_UNKNOWN, "computed NaN");
    free_case(&c);
}

void cpu_runs_differ(void **state)
{
    (void)state;
    enum { N = 300 };
    float a[N], b[N];
    rng_fill_uniform(a, N, 70, -1.0f, 1.0f);
    memcpy(b, a, sizeof a);
    guard_fill_poison_floats(a + 10, 5);
    guard_fill_poison_floats(b + 10, 5);
    size_t first = 12345;
    GRADER_CHECK(mismatch_runs_differ(a, b, N, &first) == 0 && first == 12345,
                 "identical runs (poison included) reported as different");
    b[200] = nextafterf(b[200], 2.0f);
    b[250] = 0.0f;
    size_t differ = mismatch_runs_differ(a, b, N, &first);
    GRADER_CHECK(differ == 2 && first == 200, "two differing elements: got %zu, first %zu",
                 differ, first);
    GRADER_CHECK(mismatch_runs_differ(a, b, N, NULL) == 2, "without first_index");
}

#define TEST(fn) GRADER_TEST(fn, GROUP_CPU, 0)

static const grader_test tests[] = {
    TEST(cpu_right_output_is_none),
    TEST(cpu_never_written_and_zeros),
    TEST(cpu_transposed),
    TEST(cpu_xy_swapped_image),
    TEST(cpu_shifted_by_a_row_or_column),
    TEST(cpu_off_by_one_factor),
    TEST(cpu_past_first_block),
    TEST(cpu_partial_tiles_only_when_true),
    TEST(cpu_garbage_and_scattered_errors),
    TEST(cpu_runs_differ),
};

int main(int argc, char **argv)
{
    grader_suite suite = {"mismatch", "mismatch classifier", "grader/harness/checks/mismatch.h",
                          GRADER_IMPLEMENTATION, tests, sizeof tests / sizeof tests[0],
                          .concurrent_streams = 0};
    return grader_main(&suite, argc, argv);
}
