/* Lab 4 GPU checks: each version's kernel has its shared tile and transposes
 * awkward shapes exactly, nothing outside `out` is written, `in` is left as
 * it was, and bad input is refused. Speed: lab4_speed_checks.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "device_buffer.h"
#include "gpu_checks.h"
#include "guard.h"
#include "harness.h"
#include "lab4_checks.h"
#include "lab4_gpu_common.h"
#include "lab4_kernels.h"
#include "racecheck.h"
#include "rng.h"
#include "stage_identity.h"

/* Every shape of the issue, squares first: a kernel that is right on
 * squares only is told so when the first rectangle fails. */
static const int SHAPES[][2] = {{32, 32}, {1, 1},    {31, 33},    {33, 31},
                                {1, 4097}, {4097, 1}, {4097, 1023}, {8192, 8192}};
enum { SHAPE_COUNT = sizeof SHAPES / sizeof SHAPES[0] };

/* ------------------------------------------------------ shared tiles */

/* The compiled kernel must hold a tile in static shared memory and run the
 * block its launch uses. */
static void expect_shared_tile(lab4_version v)
{
    const lab4_version_info *info = lab4_version_about(v);
    struct cudaFuncAttributes attr;
    lab_status status = lab4_kernel_attributes(v, &attr);
    GRADER_CHECK(status == LAB_OK, "lab4_kernel_attributes(%s) returned %s: %s", info->name,
                 lab_status_name(status), lab_last_error());
    grader_metric("shared_bytes", (double)attr.sharedSizeBytes, "bytes");
    grader_metric("registers_per_thread", attr.numRegs, "registers");
    const int tile = info->tile, pitch = v == LAB4_SMEM ? tile : tile + 1;
    size_t need = (size_t)tile * (size_t)pitch * sizeof(float);
    GRADER_CHECK(attr.sharedSizeBytes >= need,
                 "TODO(%s): the %s kernel declares %zu bytes of static shared memory; its tile "
                 "needs at least %zu (%d rows of %d floats). Declare it as a __shared__ array "
                 "whose size is a compile-time constant. See %s, section %s.",
                 info->todo, info->name, attr.sharedSizeBytes, need, tile, pitch, LAB4_HANDOUT,
                 info->section);
    GRADER_CHECK(attr.maxThreadsPerBlock >= info->block_threads,
                 "TODO(%s): the compiled %s kernel can run at most %d threads per block (it "
                 "uses %d registers per thread), but it is launched with %d. See %s, section %s.",
                 info->todo, info->name, attr.maxThreadsPerBlock, attr.numRegs,
                 info->block_threads, LAB4_HANDOUT, info->section);
}

/* ------------------------------------------------------- correctness */

/* Only elements in the last, partial row or column of tiles (`tile`
 * floats on a side) are wrong. */
static int only_partial_tiles_wrong(const float *got, const float *in, int rows, int cols,
                                    int tile)
{
    const int full_rows = rows / tile * tile, full_cols = cols / tile * tile;
    for (int r = 0; r < cols; ++r)      /* r, c index `out` (cols x rows) */
        for (int c = 0; c < rows; ++c) {
            size_t i = (size_t)r * rows + c;
            int interior = r < full_cols && c < full_rows;
            if (interior && memcmp(&got[i], &in[(size_t)c * cols + r], sizeof(float)) != 0)
                return 0;
        }
    /* Some interior tile exists (and came out right) and some partial one. */
    return full_rows > 0 && full_cols > 0 && (full_rows < rows || full_cols < cols);
}

/* Compares the downloaded `out` with the transpose of `in`; on a mismatch,
 * fails with the first wrong elements and the pattern, if one is clear. */
static void expect_transpose(const float *got, const float *in, int rows, int cols,
                             int squares_passed, int tile, const char *call, const char *hint)
{
    size_t n = (size_t)rows * (size_t)cols, wrong = 0, poisoned = 0, copied = 0;
    char first[320] = "";
    size_t used = 0;
    for (int r = 0; r < cols; ++r)
        for (int c = 0; c < rows; ++c) {
            size_t i = (size_t)r * rows + c;
            float want = in[(size_t)c * cols + r];
            if (memcmp(&got[i], &want, sizeof want) == 0)
                continue;
            poisoned += guard_is_poison(got[i]);
            copied += memcmp(&got[i], &in[i], sizeof(float)) == 0;
            if (++wrong > 3 || used >= sizeof first)
                continue;
            char value[32];
            if (guard_is_poison(got[i]))
                snprintf(value, sizeof value, "never written");
            else
                snprintf(value, sizeof value, "%g", (double)got[i]);
            used += (size_t)snprintf(first + used, sizeof first - used,
                                     "%sout[%d][%d] = %s, expected in[%d][%d] = %g",
                                     wrong > 1 ? "; " : "", r, c, value, c, r, (double)want);
        }
    if (wrong == 0)
        return;
    const char *pattern = "";
    if (copied == wrong && rows > 1 && cols > 1)
        pattern = " The wrong elements hold `in` as it was, at the same index: the data was "
                  "copied, not transposed.";
    else if (only_partial_tiles_wrong(got, in, rows, cols, tile))
        pattern = " Only elements in the last, partial tiles are wrong: the bounds tests "
                  "(section 6) are the usual cause.";
    else if (squares_passed && rows != cols)
        pattern = " Square matrices came out right, this rectangle did not: `out` is cols x "
                  "rows, so a row of `out` is `rows` floats long, and the store's bounds test "
                  "uses the extents of `out` (sections 3 and 6).";
    else if (poisoned == wrong)
        pattern = " None of the wrong elements was written at all.";
    GRADER_FAIL("%s: %zu of %zu elements of `out` are wrong (%zu never written); first: %s.%s "
                "%s",
                call, wrong, n, poisoned, first, pattern, hint);
}

/* One call on one shape: fresh random `in`, poisoned `out` with canaries.
 * `shift` > 0 hands the kernel `in` and `out` that many floats past their
 * buffers' 256-byte aligned starts (the buffers are that much longer, the
 * floats before them poisoned or zero), so that a float4 there would be
 * misaligned. */
static void expect_version_shifted(lab4_version v, int rows, int cols, int squares_passed,
                                   int shift)
{
    const lab4_version_info *info = lab4_version_about(v);
    size_t n = (size_t)rows * (size_t)cols, total = n + (size_t)shift;
    float *in = grader_malloc(total * sizeof *in), *got = grader_malloc(total * sizeof *got);
    memset(in, 0, total * sizeof *in);
    rng_fill_uniform(in + shift, n, grader_seed() + (uint64_t)rows * 7919u + (uint64_t)cols,
                     -1000.0f, 1000.0f);
    device_buffer d_in, d_out;
    dbuf_alloc(&d_in, "in", total * sizeof(float));
    dbuf_alloc(&d_out, "out", total * sizeof(float));
    dbuf_upload(&d_in, in);
    dbuf_poison(&d_out);

    char call[160];
    snprintf(call, sizeof call, "lab4_transpose(%s) on a %dx%d `in`%s", info->name, rows, cols,
             shift ? " (in and out 4 bytes past a 16-byte boundary)" : "");
    const float *arg_in = (const float *)d_in.data + shift;
    float *arg_out = (float *)d_out.data + shift;
    grader_watch(call, grader_call_limit_s(2.0 * (double)n * sizeof(float), 0.0));
    gpu_expect_ok_status(
        (lab_status)GPU_STUDENT_CALL(call, lab4_transpose(v, arg_in, arg_out, rows, cols)),
        call);
    grader_unwatch();
    /* The wrong values first: their pattern says more than stray writes do. */
    dbuf_download(&d_out, got);
    expect_transpose(got + shift, in + shift, rows, cols, squares_passed, info->tile, call,
                     info->hint);
    for (int i = 0; i < shift; ++i)
        GRADER_CHECK(guard_is_poison(got[i]),
                     "%s: float %d before `out` (inside its buffer, outside the matrix) was "
                     "written: a store past the start of `out`. %s",
                     call, shift - i, info->hint);
    gpu_expect_guards_intact(&d_out, call);
    gpu_expect_unchanged(&d_in, in, call);
    dbuf_free(&d_in);
    dbuf_free(&d_out);
    free(in);
    free(got);
}

static void expect_version_on(lab4_version v, int rows, int cols, int squares_passed)
{
    expect_version_shifted(v, rows, cols, squares_passed, 0);
}

static void expect_version_correct(lab4_version v)
{
    grader_require_gpu();
    expect_shared_tile(v);
    int squares_passed = 0;
    for (int i = 0; i < SHAPE_COUNT; ++i) {
        expect_version_on(v, SHAPES[i][0], SHAPES[i][1], squares_passed);
        squares_passed |= SHAPES[i][0] == SHAPES[i][1] && SHAPES[i][0] > 1;
    }
    /* ... from a kernel of the version's own (stage_identity.h). */
    stage_identity_expect_own(&lab_kernel_table, LAB4_ROW_SMEM + (int)v);
}

void gpu_smem_correct(void **state)
{
    (void)state;
    expect_version_correct(LAB4_SMEM);
}

void gpu_padded_correct(void **state)
{
    (void)state;
    expect_version_correct(LAB4_PADDED);
}

void gpu_multirow_correct(void **state)
{
    (void)state;
    expect_version_correct(LAB4_MULTIROW);
}

/* The final stage on the lab's shapes, then on shapes around its own
 * edges: whole and partial 64-float tiles, rows and cols that are and are
 * not multiples of 4 (the float4 paths and the single-float ones), and
 * pointers that are not 16-byte aligned. */
static const int VECTOR_SHAPES[][2] = {{64, 64},  {128, 132}, {132, 128}, {63, 65},
                                       {65, 63},  {132, 130}, {130, 132}, {4, 4},
                                       {3, 1027}, {1026, 3},  {1000, 999}};
enum { VECTOR_SHAPE_COUNT = sizeof VECTOR_SHAPES / sizeof VECTOR_SHAPES[0] };

void gpu_vector_correct(void **state)
{
    (void)state;
    expect_version_correct(LAB4_VECTOR);
    for (int i = 0; i < VECTOR_SHAPE_COUNT; ++i)
        expect_version_on(LAB4_VECTOR, VECTOR_SHAPES[i][0], VECTOR_SHAPES[i][1], 1);
    /* rows and cols multiples of 4, but `in` and `out` not on 16 bytes. */
    expect_version_shifted(LAB4_VECTOR, 128, 192, 1, 1);
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
        {"lab4_transpose(rows=0, cols=8)", LAB_ERR_INVALID_SIZE},
        {"lab4_transpose(rows=8, cols=-1)", LAB_ERR_INVALID_SIZE},
        {"lab4_transpose(rows=65536, cols=65536)", LAB_ERR_INVALID_SIZE},
        {"lab4_transpose(in=NULL)", LAB_ERR_NULL_POINTER},
        {"lab4_transpose(out=NULL)", LAB_ERR_NULL_POINTER},
        {"lab4_transpose(in == out)", LAB_ERR_UNSUPPORTED},
        {"lab4_transpose(out overlapping in)", LAB_ERR_UNSUPPORTED},
        {"lab4_transpose(version=7)", LAB_ERR_UNSUPPORTED},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        dbuf_poison(&out);
        lab4_version v = (lab4_version)(k % 3);
        lab_status st;
        switch (k) {
        case 0: st = lab4_transpose(v, i, o, 0, 8); break;
        case 1: st = lab4_transpose(v, i, o, 8, -1); break;
        case 2: st = lab4_transpose(v, i, o, 65536, 65536); break;
        case 3: st = lab4_transpose(v, NULL, o, 8, 8); break;
        case 4: st = lab4_transpose(v, i, NULL, 8, 8); break;
        case 5: st = lab4_transpose(v, o, o, 8, 8); break;
        case 6: st = lab4_transpose(v, o, o + 4, 4, 4); break;
        default: st = lab4_transpose((lab4_version)7, i, o, 8, 8); break;
        }
        gpu_expect_rejected(st, cases[k].expected, &out, cases[k].call);
    }
    dbuf_free(&in);
    dbuf_free(&out);
}

/* ------------------------------------------------------------- races */

/* Each version once under racecheck on 70 x 45 (the race rows of lab4_kernels.c): partial
 * tiles at both edges, where a barrier inside `if (in bounds)` would hang or
 * race. */
void gpu_transpose_race_free(void **state)
{
    (void)state;
    racecheck_spec spec = {
        .runner = GRADER_RACE_RUNNER,
        .lab_number = "4",
        .what = "lab4_transpose(smem, padded, multirow) on 70x45",
        .args = NULL,
        .fix_hint = "TODO(4.6) and TODO(4.7): one __syncthreads() between storing the tile and "
                    "reading it back, outside every bounds test so that all threads reach it; "
                    LAB4_HANDOUT ", section 6 (bounds and the barrier).",
        .limit_s = RACECHECK_RUN_LIMIT_S,
    };
    racecheck_expect_clean(&spec);
}

/* The final stage once under racecheck on 132 x 136 (its row's race size in
 * lab4_kernels.c): an extension, so the race runner runs it only when asked
 * (--all), and only it (--rows). */
void gpu_vector_race_free(void **state)
{
    (void)state;
    static const char *const args[] = {"--all", "--rows", "vector", NULL};
    racecheck_spec spec = {
        .runner = GRADER_RACE_RUNNER,
        .lab_number = "4",
        .what = "lab4_transpose(vector) on 132x136",
        .args = args,
        .fix_hint = "TODO(4.12): one __syncthreads() between the loads' loop and the stores' "
                    "loop, outside every bounds test so that all threads reach it; "
                    LAB4_HANDOUT ", section 8.5.",
        .limit_s = RACECHECK_RUN_LIMIT_S,
    };
    racecheck_expect_clean(&spec);
}
