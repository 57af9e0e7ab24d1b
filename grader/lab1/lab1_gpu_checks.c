/* Lab 1 GPU checks: the student's kernels on awkward sizes, with poisoned
 * outputs, canary guard zones, unchanged inputs, and one speed check. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime_api.h>

#include "cuda_check.h"
#include "device_buffer.h"
#include "device_verify.h"
#include "gpu_checks.h"
#include "guard.h"
#include "harness.h"
#include "lab1_checks.h"
#include "lab1_kernels.h"
#include "mismatch.h"
#include "rng.h"
#include "lab1_rubric.h"
#include "speed_check.h"

/* Inputs drawn per size for the 1D and 2D kernels: two seeds, so one lucky
 * draw cannot pass. (The 3D and grid-stride checks use integer-valued or
 * many sizes and one seed per size.) */
enum { SEEDS_PER_SIZE = 2 };

/* More than the 50 MiB L2 of an H100 as a float array (128 MiB): the data
 * really streams from device memory at least once. */
#define LARGER_THAN_L2 ((1 << 25) + 3)

static const char HINT_1D[] =
    "Check TODO(1.1) (global index, handout section 2), and TODO(1.2)/(1.3) (number of "
    "blocks and the bounds test, section 3).";
static const char HINT_2D[] =
    "Check TODO(1.4) (row from y, column from x, bounds) and TODO(1.5) (the grid), handout "
    "section 4.";
static const char HINT_3D[] =
    "Check TODO(1.7)-(1.9): coordinates, offset (x fastest) and grid, handout section 5.";
static const char HINT_STRIDE[] =
    "Check TODO(1.10): the loop must start at the global index and advance by the whole "
    "grid's thread count until it passes n, handout section 6.";

/* Where the bounds test of each kernel is taught, for out-of-bounds writes. */
static const char BOUNDS_1D[] = "TODO(1.3), handout section 3";
static const char BOUNDS_2D[] = "TODO(1.4), handout section 4";
static const char BOUNDS_3D[] = "TODO(1.8), handout section 5";

/* Whether the classifier's pattern says no more than the comparison's own
 * diagnosis already does. */
static int said_already(mismatch_kind kind, compare_diagnosis diagnosis)
{
    switch (kind) {
    case MISMATCH_NEVER_WRITTEN: return diagnosis == DIAG_NEVER_WRITTEN;
    case MISMATCH_TRANSPOSED: return diagnosis == DIAG_TRANSPOSED;
    case MISMATCH_PARTIAL_TILES: return diagnosis == DIAG_PARTIAL_TILE;
    case MISMATCH_PARTLY_UNWRITTEN: return diagnosis == DIAG_PARTLY_UNWRITTEN;
    case MISMATCH_UNKNOWN: return 1;
    default: return 0;
    }
}

/* Downloads `out` and compares it with ref. When it differs, fails with, in
 * order: `blame` when a helper the launch uses is wrong (fixing the kernel
 * cannot help until it is fixed; "" when none is), the comparison's report,
 * the pattern the classifier sees (mismatch.h: an x/y swap, a shift, ...)
 * and `hint`. Then no write may have landed outside it (`bounds` names
 * where the bounds test is taught). */
static void expect_output(const device_buffer *out, const double *ref, const compare_spec *spec,
                          const mismatch_spec *shape, const char *call, const char *hint,
                          const char *blame, const char *bounds)
{
    size_t n = spec->rows * spec->cols;
    float *got = grader_malloc(n * sizeof *got);
    dbuf_download(out, got);
    compare_result result;
    if (!compare_floats(got, ref, spec, &result)) {
        mismatch_verdict verdict;
        mismatch_kind kind = mismatch_classify(got, ref, shape, &verdict);
        free(got);
        int add = !said_already(kind, result.diagnosis);
        GRADER_FAIL("%s: %s%s%s%s%s. %s", call, blame, blame[0] ? " " : "", result.report,
                    add ? "; pattern: " : "", add ? verdict.text : "", hint);
    }
    free(got);
    gpu_expect_guards_intact_at(out, call, bounds);
}

static float *random_floats(size_t n, uint64_t seed)
{
    float *host = grader_malloc(n * sizeof *host);
    rng_fill_uniform(host, n, seed, -1.0f, 1.0f);
    return host;
}

static double *doubles(size_t n)
{
    return grader_malloc(n * sizeof(double));
}

/* ---------------------------------------------------------- vector add */

void gpu_vector_add(void **state)
{
    (void)state;
    grader_require_gpu();
    const int sizes[] = {1, 31, 32, 33, 257, 1000003, LARGER_THAN_L2};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; ++k)
        for (int s = 0; s < SEEDS_PER_SIZE; ++s) {
            int n = sizes[k];
            uint64_t seed = grader_seed() + 100 * k + s;
            float *ha = random_floats((size_t)n, seed), *hb = random_floats((size_t)n, ~seed);
            double *ref = doubles((size_t)n);
            for (int i = 0; i < n; ++i)
                ref[i] = (double)ha[i] + hb[i];
            device_buffer a, b, c;
            dbuf_alloc(&a, "a", (size_t)n * 4);
            dbuf_alloc(&b, "b", (size_t)n * 4);
            dbuf_alloc(&c, "c", (size_t)n * 4);
            dbuf_upload(&a, ha);
            dbuf_upload(&b, hb);
            dbuf_poison(&c);
            char call[96];
            snprintf(call, sizeof call, "lab1_vector_add(n=%d, seed=%llu)", n,
                     (unsigned long long)seed);
            gpu_expect_ok(lab1_vector_add(a.data, b.data, c.data, n), call);
            compare_spec spec = {1, (size_t)n, 0.0, 1e-6, 0};
            mismatch_spec shape = mismatch_spec_from_compare(&spec);
            shape.tile = shape.block = LAB1_BLOCK_1D;
            char blame[256] = "";
            lab1_blame_blocks_for(n, LAB1_BLOCK_1D, blame, sizeof blame);
            expect_output(&c, ref, &spec, &shape, call, HINT_1D, blame, BOUNDS_1D);
            gpu_expect_unchanged(&a, ha, call);
            gpu_expect_unchanged(&b, hb, call);
            dbuf_free(&a);
            dbuf_free(&b);
            dbuf_free(&c);
            free(ha);
            free(hb);
            free(ref);
        }
}

/* --------------------------------------------------------------- image */

void gpu_image_double(void **state)
{
    (void)state;
    grader_require_gpu();
    const int shapes[][2] = {{76, 62}, {1, 4097}, {4097, 1}, {1, 1}, {15, 17}, {17, 15},
                             {1000, 3}, {2049, 2047}};
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; ++k)
        for (int s = 0; s < SEEDS_PER_SIZE; ++s) {
            int w = shapes[k][0], h = shapes[k][1];
            size_t n = (size_t)w * h;
            uint64_t seed = grader_seed() + 200 * k + s;
            float *host = random_floats(n, seed);
            double *ref = doubles(n);
            for (size_t i = 0; i < n; ++i)
                ref[i] = 2.0 * host[i];
            device_buffer in, out;
            dbuf_alloc(&in, "in", n * 4);
            dbuf_alloc(&out, "out", n * 4);
            dbuf_upload(&in, host);
            dbuf_poison(&out);
            char call[96];
            snprintf(call, sizeof call, "lab1_image_double(width=%d, height=%d, seed=%llu)", w,
                     h, (unsigned long long)seed);
            gpu_expect_ok(lab1_image_double(in.data, out.data, w, h), call);
            compare_spec spec = {(size_t)h, (size_t)w, 0.0, 0.0, LAB1_IMAGE_BLOCK_X};
            mismatch_spec shape = mismatch_spec_from_compare(&spec);
            shape.block_x = LAB1_IMAGE_BLOCK_X;
            shape.block_y = LAB1_IMAGE_BLOCK_Y;
            char blame[256] = "";
            lab1_blame_image_grid(w, h, blame, sizeof blame);
            expect_output(&out, ref, &spec, &shape, call, HINT_2D, blame, BOUNDS_2D);
            gpu_expect_unchanged(&in, host, call);
            dbuf_free(&in);
            dbuf_free(&out);
            free(host);
            free(ref);
        }
}

/* -------------------------------------------------------------- volume */

void gpu_volume_depth_scale(void **state)
{
    (void)state;
    grader_require_gpu();
    const int shapes[][3] = {{1, 1, 1}, {7, 5, 3}, {33, 17, 9}, {65, 1, 70}, {3, 130, 5},
                             {8, 8, 4}, {129, 65, 33}};
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; ++k) {
        int nx = shapes[k][0], ny = shapes[k][1], nz = shapes[k][2];
        size_t n = (size_t)nx * ny * nz;
        uint64_t seed = grader_seed() + 300 * k;
        /* Integer values: in * (z+1) is exact, so any difference is a bug. */
        float *host = grader_malloc(n * sizeof *host);
        rng_fill_integers(host, n, seed, -1000, 1000);
        double *ref = doubles(n);
        for (size_t i = 0; i < n; ++i)
            ref[i] = (double)host[i] * (double)(i / ((size_t)nx * ny) + 1);
        device_buffer in, out;
        dbuf_alloc(&in, "in", n * 4);
        dbuf_alloc(&out, "out", n * 4);
        dbuf_upload(&in, host);
        dbuf_poison(&out);
        char call[112];
        snprintf(call, sizeof call, "lab1_volume_depth_scale(nx=%d, ny=%d, nz=%d, seed=%llu)",
                 nx, ny, nz, (unsigned long long)seed);
        gpu_expect_ok(lab1_volume_depth_scale(in.data, out.data, nx, ny, nz), call);
        /* Rows of the comparison are (z, y) pairs, columns are x. */
        compare_spec spec = {(size_t)ny * nz, (size_t)nx, 0.0, 0.0, 0};
        mismatch_spec shape = mismatch_spec_from_compare(&spec);
        char blame[256] = "";
        lab1_blame_volume_grid(nx, ny, nz, blame, sizeof blame);
        expect_output(&out, ref, &spec, &shape, call, HINT_3D, blame, BOUNDS_3D);
        gpu_expect_unchanged(&in, host, call);
        dbuf_free(&in);
        dbuf_free(&out);
        free(host);
        free(ref);
    }
}

/* --------------------------------------------------------- grid-stride */

/* The launch the lab fixes for the grid-stride kernel, at every n: graded
 * calls and timed calls alike. */
static const launch_shape STRIDE_SHAPE = {
    {LAB1_STRIDE_THREADS, 1, 1}, {LAB1_STRIDE_BLOCKS, 1, 1},
    "the given launch of LAB1_STRIDE_BLOCKS x LAB1_STRIDE_THREADS, whatever n is; TODO(1.10) "
    "and handout section 6 teach the loop that covers the rest"};

void gpu_scale_grid_stride(void **state)
{
    (void)state;
    grader_require_gpu();
    const int sizes[] = {1, 33, 32767, 32768, 32769, 1000003, LARGER_THAN_L2};
    const float factor = 3.0f;
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; ++k) {
        int n = sizes[k];
        uint64_t seed = grader_seed() + 400 * k;
        float *host = random_floats((size_t)n, seed);
        double *ref = doubles((size_t)n);
        for (int i = 0; i < n; ++i)
            ref[i] = (double)factor * host[i];
        device_buffer in, out;
        dbuf_alloc(&in, "in", (size_t)n * 4);
        dbuf_alloc(&out, "out", (size_t)n * 4);
        dbuf_upload(&in, host);
        dbuf_poison(&out);
        char call[112];
        snprintf(call, sizeof call, "lab1_scale_grid_stride(n=%d, %d threads, seed=%llu)", n,
                 LAB1_STRIDE_BLOCKS * LAB1_STRIDE_THREADS, (unsigned long long)seed);
        gpu_expect_ok(lab1_scale_grid_stride(in.data, out.data, factor, n), call);
        /* The lesson is the loop: one thread per element would pass the
         * values without it. */
        gpu_expect_launch_follows(call, &STRIDE_SHAPE);
        compare_spec spec = {1, (size_t)n, 0.0, 1e-6, 0};
        gpu_expect_floats(&out, ref, &spec, call, HINT_STRIDE);
        gpu_expect_unchanged(&in, host, call);
        dbuf_free(&in);
        dbuf_free(&out);
        free(host);
        free(ref);
    }
}

/* The contract's n is an int, so n may be close to INT_MAX. In the last
 * pass of the loop i + step then passes INT_MAX: an int index wraps to a
 * negative number, which is still below n, and the loop goes on writing
 * below the array (a fault, or a loop that never ends). One call on 2^31 - 3
 * elements (8 GiB each way), its input filled and its output checked whole
 * on the GPU by the grader's kernels (a host copy would take seconds). The
 * runner does not run it on a GPU with less than LAB1_NEAR_INT_MAX_GIB
 * (not gradable there). */
void gpu_scale_grid_stride_near_int_max(void **state)
{
    (void)state;
    grader_require_gpu();
    const int n = INT_MAX - 2;
    const float factor = 3.0f;
    const size_t bytes = (size_t)n * sizeof(float);
    /* Free memory is the whole GPU's: no other grader's test beside this. */
    grader_gpu_exclusive();
    size_t free_bytes = 0, total_bytes = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    const size_t margin = (size_t)512 << 20;
    GRADER_CHECK(free_bytes >= 2 * bytes + margin,
                 "the grader could not run lab1_scale_grid_stride with n=%d: it needs %.1f GiB of "
                 "device memory and only %.1f GiB of %.1f GiB is free. Other processes hold the "
                 "rest; this says nothing about your code: grade again on an idle GPU.",
                 n, (double)(2 * bytes + margin) / (1 << 30), (double)free_bytes / (1 << 30),
                 (double)total_bytes / (1 << 30));
    uint64_t seed = grader_seed() + 450;
    device_buffer in, out;
    dbuf_alloc(&in, "in", bytes);
    dbuf_alloc(&out, "out", bytes);
    device_fill_uniform(in.data, (size_t)n, seed, -1.0f, 1.0f);
    dbuf_poison(&out);
    char call[200];
    snprintf(call, sizeof call,
             "lab1_scale_grid_stride(n=%d, close to INT_MAX, %d threads, seed=%llu)", n,
             LAB1_STRIDE_BLOCKS * LAB1_STRIDE_THREADS, (unsigned long long)seed);
    /* The watchdog's limit: the copy at a slow GPU's rate. A wrapped index
     * that never leaves the loop ends here as a hang naming the call. */
    static const char OVERFLOW_HINT[] =
        "With n this close to INT_MAX, i + step passes INT_MAX in the loop's last pass: an int "
        "index wraps to a negative value, which is still below n. Keep the index in 64 bits "
        "(long long or size_t) in TODO(1.10)'s loop, handout section 6.";
    grader_watch(call, grader_call_limit_s(2.0 * (double)bytes, 0.0));
    lab_status status = (lab_status)GPU_STUDENT_CALL(
        call, lab1_scale_grid_stride(in.data, out.data, factor, n));
    cudaError_t err = cudaDeviceSynchronize();
    grader_unwatch();
    GRADER_CHECK(status == LAB_OK, "%s returned %s: %s", call, lab_status_name(status),
                 lab_last_error());
    GRADER_CHECK(err == cudaSuccess, "%s: the kernel failed while running: %s (%s). %s", call,
                 cudaGetErrorName(err), cudaGetErrorString(err), OVERFLOW_HINT);
    gpu_expect_guards_intact_at(&out, call, OVERFLOW_HINT);
    size_t first_bad = 0;
    size_t bad = device_count_scaled_uniform_mismatches(out.data, (size_t)n, seed, -1.0f, 1.0f,
                                                        factor, 1e-6, &first_bad);
    GRADER_CHECK(bad == 0,
                 "%s: %zu of %d elements of out are wrong, the first at index %zu. %s", call, bad,
                 n, first_bad, first_bad >= (size_t)n - LAB1_STRIDE_BLOCKS * LAB1_STRIDE_THREADS
                                   ? OVERFLOW_HINT : HINT_STRIDE);
    bad = device_count_scaled_uniform_mismatches(in.data, (size_t)n, seed, -1.0f, 1.0f, 1.0f,
                                                 0.0, &first_bad);
    GRADER_CHECK(bad == 0,
                 "%s: the input `in` was modified (%zu elements, the first at index %zu); inputs "
                 "are read-only. %s", call, bad, first_bad, OVERFLOW_HINT);
    dbuf_free(&in);
    dbuf_free(&out);
}

/* ------------------------------------------------------------ who am I */

static lab1_whoami_record expected_record(int row, int col)
{
    int bx = col / LAB1_WHOAMI_BLOCK_X, by = row / LAB1_WHOAMI_BLOCK_Y;
    int tx = col % LAB1_WHOAMI_BLOCK_X, ty = row % LAB1_WHOAMI_BLOCK_Y;
    int linear = tx + LAB1_WHOAMI_BLOCK_X * ty;
    lab1_whoami_record r = {bx, by, tx, ty, linear / 32, linear % 32};
    return r;
}

static int same_record(const lab1_whoami_record *a, const lab1_whoami_record *b)
{
    return a->block_x == b->block_x && a->block_y == b->block_y &&
           a->thread_x == b->thread_x && a->thread_y == b->thread_y && a->warp == b->warp &&
           a->lane == b->lane;
}

void gpu_whoami(void **state)
{
    (void)state;
    grader_require_gpu();
    const int shapes[][2] = {{76, 62}, {40, 9}, {1, 1}, {33, 17}};
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; ++k) {
        int w = shapes[k][0], h = shapes[k][1];
        size_t n = (size_t)w * h;
        lab1_whoami_record *got = grader_malloc(n * sizeof *got);
        device_buffer out;
        dbuf_alloc(&out, "out", n * sizeof *got);
        dbuf_poison(&out);
        char call[80];
        snprintf(call, sizeof call, "lab1_whoami(width=%d, height=%d)", w, h);
        gpu_expect_ok(lab1_whoami(out.data, w, h), call);
        gpu_expect_guards_intact(&out, call);
        dbuf_download(&out, got);
        dbuf_free(&out);
        size_t wrong = 0, first = 0;
        for (size_t i = 0; i < n; ++i) {
            lab1_whoami_record want = expected_record((int)(i / w), (int)(i % w));
            if (!same_record(&got[i], &want) && wrong++ == 0)
                first = i;
        }
        if (wrong) {
            int row = (int)(first / w), col = (int)(first % w);
            lab1_whoami_record want = expected_record(row, col), g = got[first];
            free(got);
            GRADER_FAIL("%s: %zu of %zu records wrong. First at row %d, column %d: got "
                        "block (%d,%d) thread (%d,%d) warp %d lane %d; expected block (%d,%d) "
                        "thread (%d,%d) warp %d lane %d.%s Check TODO(1.11), handout section 7.",
                        call, wrong, n, row, col, g.block_x, g.block_y, g.thread_x, g.thread_y,
                        g.warp, g.lane, want.block_x, want.block_y, want.thread_x,
                        want.thread_y, want.warp, want.lane,
                        g.block_x == GUARD_POISON_INT ? " (never written: still poison)" : "");
        }
        free(got);
    }
}

/* ----------------------------------------------------------- bad input */

void gpu_rejects_bad_input(void **state)
{
    (void)state;
    grader_require_gpu();
    device_buffer in, out;
    dbuf_alloc(&in, "in", 64 * 4);
    dbuf_alloc(&out, "out", 64 * 4);
    float zeros[64] = {0};
    dbuf_upload(&in, zeros);
    const float *i = in.data;
    float *o = out.data;
    struct {
        const char *call;
        lab_status expected;
    } cases[] = {
        {"lab1_vector_add(n=0)", LAB_ERR_INVALID_SIZE},
        {"lab1_vector_add(n=-5)", LAB_ERR_INVALID_SIZE},
        {"lab1_vector_add(a=NULL)", LAB_ERR_NULL_POINTER},
        {"lab1_image_double(width=0, height=62)", LAB_ERR_INVALID_SIZE},
        {"lab1_image_double(width=76, height=-1)", LAB_ERR_INVALID_SIZE},
        {"lab1_image_double(width=100000, height=100000)", LAB_ERR_INVALID_SIZE},
        {"lab1_volume_depth_scale(nx=4, ny=0, nz=4)", LAB_ERR_INVALID_SIZE},
        {"lab1_volume_depth_scale(2000x2000x2000)", LAB_ERR_INVALID_SIZE},
        {"lab1_scale_grid_stride(n=0)", LAB_ERR_INVALID_SIZE},
        {"lab1_whoami(width=-1, height=8)", LAB_ERR_INVALID_SIZE},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        dbuf_poison(&out);
        lab_status st;
        switch (k) {
        case 0: st = lab1_vector_add(i, i, o, 0); break;
        case 1: st = lab1_vector_add(i, i, o, -5); break;
        case 2: st = lab1_vector_add(NULL, i, o, 64); break;
        case 3: st = lab1_image_double(i, o, 0, 62); break;
        case 4: st = lab1_image_double(i, o, 76, -1); break;
        case 5: st = lab1_image_double(i, o, 100000, 100000); break;
        case 6: st = lab1_volume_depth_scale(i, o, 4, 0, 4); break;
        case 7: st = lab1_volume_depth_scale(i, o, 2000, 2000, 2000); break;
        case 8: st = lab1_scale_grid_stride(i, o, 2.0f, 0); break;
        default: st = lab1_whoami((lab1_whoami_record *)o, -1, 8); break;
        }
        gpu_expect_rejected(st, cases[k].expected, &out, cases[k].call);
    }
    dbuf_free(&in);
    dbuf_free(&out);
}

/* --------------------------------------------------------------- speed */

/* Elementwise out = factor * in: a row of lab 1's kernel table
 * (lab1_kernels.c) timed against its yardstick there, the copy kernel
 * moving the same bytes, at the size the table grades it at. Every run
 * gets fresh inputs and a poisoned output, and after it the whole output
 * is compared with the grader's own factor * in, so a timed call that
 * skips its work fails. */
typedef struct {
    device_buffer in, out, want;
    size_t n;
    float factor;
    uint64_t seed;
} elementwise_run;

/* The device buffers of n elements. */
static void elementwise_run_init(elementwise_run *e, size_t n, float factor, uint64_t seed)
{
    dbuf_alloc(&e->in, "in", n * 4);
    dbuf_alloc(&e->out, "out", n * 4);
    dbuf_alloc(&e->want, "want", n * 4);
    e->n = n;
    e->factor = factor;
    e->seed = seed;
}

static void elementwise_run_free(elementwise_run *e)
{
    dbuf_free(&e->in);
    dbuf_free(&e->out);
    dbuf_free(&e->want);
}

static int elementwise_prepare(void *ctx, int run)
{
    elementwise_run *e = ctx;
    device_fill_uniform(e->in.data, e->n, e->seed + (uint64_t)run, -1.0f, 1.0f);
    device_fill_u32(e->out.data, GUARD_POISON_BITS, e->n);
    device_scale(e->in.data, e->want.data, e->factor, e->n);
    return 0;
}

static int elementwise_verify(void *ctx, int run)
{
    (void)run;
    elementwise_run *e = ctx;
    return device_count_mismatches(e->out.data, e->want.data, e->n, 0.0, 0.0) != 0;
}

static const timing_plan ELEMENTWISE_PLAN = {
    .warmup = 3, .runs = 31, .launches_per_run = 1, .flush_l2 = 1};

/* A call's arguments on e's buffers, at the size the row `graded` is
 * graded at. */
static kernel_args graded_args(int graded, const elementwise_run *e)
{
    const kernel_row *row = &lab_kernel_table.rows[graded];
    kernel_args args = {.size = {row->graded_size[0], row->graded_size[1]},
                        .in = {e->in.data, NULL}, .out = e->out.data};
    return args;
}

static size_t graded_elements(int graded)
{
    const kernel_row *row = &lab_kernel_table.rows[graded];
    return (size_t)row->graded_size[0] * (size_t)row->graded_size[1];
}

/* Times the row `timed` (the student's kernel, or the grader's mistake
 * standing in for it) against the yardstick of the row `graded`, on e's
 * buffers at that row's graded size; judge = 1 fails below
 * spec->threshold. Returns the fraction of copy bandwidth. */
static double elementwise_copy_fraction(elementwise_run *e, int timed, int graded,
                                        speed_spec *spec, int judge)
{
    const kernel_row *rows = lab_kernel_table.rows;
    device_buffer copy_out;
    dbuf_alloc(&copy_out, "copy_out", e->n * 4);
    kernel_call student = {&rows[timed], graded_args(graded, e)};
    kernel_call copy = {&rows[rows[graded].yardstick], graded_args(graded, e)};
    copy.args.out = copy_out.data;
    timing_guard guard = {elementwise_prepare, elementwise_verify, e};
    spec->bytes_per_launch = kernel_row_bytes(student.row, student.args.size);
    double ratio;
    if (judge) {
        ratio = speed_check(kernel_call_launch, &student, kernel_call_launch, &copy,
                            &ELEMENTWISE_PLAN, &guard, spec);
    } else {
        timing_ab_result r;
        speed_measure(kernel_call_launch, &student, kernel_call_launch, &copy,
                      &ELEMENTWISE_PLAN, &guard, spec, &r);
        speed_report(&r, spec);
        ratio = r.ratio;
    }
    dbuf_free(&copy_out);
    return ratio;
}

/* ---- the 2D image kernel ---- */

/* Runs the row `timed` on seeded host inputs against the CPU reference,
 * then measures it on the image kernel's graded image against the copy
 * kernel. Returns the fraction of copy bandwidth. The host check comes
 * first because it needs no GPU to itself: after the measurement it would
 * keep the next lab's measurement waiting for about a second. */
static double image_copy_fraction(int timed, int judge, const char *description)
{
    const kernel_size *size = &lab_kernel_table.rows[LAB1_ROW_IMAGE].graded_size;
    const int w = (int)(*size)[0], h = (int)(*size)[1];
    size_t n = graded_elements(LAB1_ROW_IMAGE);
    elementwise_run e;
    elementwise_run_init(&e, n, 2.0f, grader_seed() + 500);
    speed_spec spec = {
        .ratio_name = "fraction_of_copy_bandwidth",
        .description = description,
        .threshold = LAB1_IMAGE_COPY_FRACTION_MIN,
        .hint = "A kernel reading and writing each pixel once should run near copy speed. "
                "If threadIdx.x selects the row, a warp of a 16x16 block touches 16 different "
                "rows, 8 bytes in each, instead of two 64-byte runs: handout section 4.",
        .verify_hint = HINT_2D};
    /* The kernel on the seeded host image, against the CPU. */
    float *host = random_floats(n, grader_seed() + 500);
    double *ref = doubles(n);
    for (size_t i = 0; i < n; ++i)
        ref[i] = 2.0 * host[i];
    dbuf_upload(&e.in, host);
    /* Into another output than the timed calls': a kernel that skips a call
     * repeating its last arguments must still compute the first timed call,
     * so that the measurement tells what it did. */
    dbuf_poison(&e.want);
    kernel_args args = graded_args(LAB1_ROW_IMAGE, &e);
    args.out = e.want.data;
    gpu_expect_ok(lab_kernel_table.rows[timed].launch(&args), description);
    compare_spec cmp = {(size_t)h, (size_t)w, 0.0, 0.0, LAB1_IMAGE_BLOCK_X};
    gpu_expect_floats(&e.want, ref, &cmp, description, HINT_2D);
    free(ref);
    free(host);

    double ratio = elementwise_copy_fraction(&e, timed, LAB1_ROW_IMAGE, &spec, judge);
    elementwise_run_free(&e);
    return ratio;
}

void gpu_image_bandwidth(void **state)
{
    (void)state;
    grader_require_gpu();
    image_copy_fraction(LAB1_ROW_IMAGE, 1, "lab1_image_double 8192x8192 vs copy kernel");
}

void selftest_swapped_mapping_is_slow(void **state)
{
    (void)state;
    grader_require_gpu();
    double ratio = image_copy_fraction(LAB1_ROW_SWAPPED, 0,
                                       "swapped-mapping baseline 8192x8192 vs copy kernel");
    GRADER_CHECK(ratio < LAB1_IMAGE_COPY_FRACTION_MIN,
                 "the swapped (uncoalesced) baseline reached %.3f of copy bandwidth, not below "
                 "the threshold %.3f: on this GPU the speed check cannot tell a swapped "
                 "mapping apart. Recalibrate LAB1_IMAGE_COPY_FRACTION_MIN in "
                 "grader/lab1/lab1_rubric.h.",
                 ratio, LAB1_IMAGE_COPY_FRACTION_MIN);
}

/* ---- the grid-stride loop ---- */

static double stride_copy_fraction(int timed, int judge, const char *description)
{
    elementwise_run e;
    elementwise_run_init(&e, graded_elements(LAB1_ROW_GRID_STRIDE), LAB1_STRIDE_FACTOR,
                         grader_seed() + 600);
    speed_spec spec = {
        .ratio_name = "fraction_of_copy_bandwidth",
        .description = description,
        .threshold = LAB1_GRID_STRIDE_COPY_FRACTION_MIN,
        .hint = "Right values but far too slow: the grid-stride loop must advance by the whole "
                "grid's thread count (gridDim.x * blockDim.x), so that the threads share the "
                "array; a loop that advances by blockDim.x makes every block walk the whole "
                "array. Check TODO(1.10), handout section 6.",
        .verify_hint = HINT_STRIDE,
        /* The student's kernel only: a self-test times a baseline here. */
        .shape = timed == LAB1_ROW_GRID_STRIDE ? &STRIDE_SHAPE : NULL};
    double ratio = elementwise_copy_fraction(&e, timed, LAB1_ROW_GRID_STRIDE, &spec, judge);
    elementwise_run_free(&e);
    return ratio;
}

void gpu_grid_stride_bandwidth(void **state)
{
    (void)state;
    grader_require_gpu();
    stride_copy_fraction(LAB1_ROW_GRID_STRIDE, 1,
                         "lab1_scale_grid_stride (grid-stride loop, n=4194307) vs copy kernel");
}

void selftest_block_stride_is_slow(void **state)
{
    (void)state;
    grader_require_gpu();
    double ratio = stride_copy_fraction(LAB1_ROW_BLOCK_STRIDE, 0,
                                        "block-stride baseline (n=4194307) vs copy kernel");
    GRADER_CHECK(ratio < LAB1_GRID_STRIDE_COPY_FRACTION_MIN,
                 "the block-stride baseline reached %.3f of copy bandwidth, not below the "
                 "threshold %.3f: on this GPU the check cannot tell a loop that steps by one "
                 "block apart. Recalibrate LAB1_GRID_STRIDE_COPY_FRACTION_MIN in "
                 "grader/lab1/lab1_rubric.h.",
                 ratio, LAB1_GRID_STRIDE_COPY_FRACTION_MIN);
}
