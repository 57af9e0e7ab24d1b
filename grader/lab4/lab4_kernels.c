/* Lab 4's kernel table: the student's three transposes of an R x C matrix,
 * and the optional final stage, each against the yardstick the speed checks
 * grade it with (smem against the naive transpose, padded against the
 * unpadded tile, multirow and vector against a cudaMemcpy of the same
 * bytes), and those yardsticks. A transpose only
 * moves floats, so every output is compared exactly with the grader's
 * naive transpose of the same input. */
#include "lab4_kernels.h"

#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime_api.h>

#include "copy_baseline.h"
#include "lab4.h"
#include "lab4_baselines.h"
#include "lab4_rubric.h"
#include "time_kernels.h"

/* ------------------------------------------------------------ adapters */

static int rows_of(const kernel_args *a) { return (int)a->size[0]; }
static int cols_of(const kernel_args *a) { return (int)a->size[1]; }

static int naive(const kernel_args *a)
{
    return lab4_baseline_naive(a->in[0], a->out, rows_of(a), cols_of(a));
}

static int unpadded(const kernel_args *a)
{
    return lab4_baseline_unpadded(a->in[0], a->out, rows_of(a), cols_of(a));
}

static int memcpy_same_bytes(const kernel_args *a)
{
    return baseline_memcpy_floats(a->in[0], a->out, (size_t)rows_of(a) * (size_t)cols_of(a));
}

static int smem(const kernel_args *a)
{
    return lab4_transpose(LAB4_SMEM, a->in[0], a->out, rows_of(a), cols_of(a));
}

static int padded(const kernel_args *a)
{
    return lab4_transpose(LAB4_PADDED, a->in[0], a->out, rows_of(a), cols_of(a));
}

static int multirow(const kernel_args *a)
{
    return lab4_transpose(LAB4_MULTIROW, a->in[0], a->out, rows_of(a), cols_of(a));
}

static int vector(const kernel_args *a)
{
    return lab4_transpose(LAB4_VECTOR, a->in[0], a->out, rows_of(a), cols_of(a));
}

double lab4_transpose_bytes(const kernel_size size)
{
    return 2.0 * (double)size[0] * (double)size[1] * sizeof(float);
}

/* ---------------------------------------------------------------- rows */

#define STUDENT (KERNEL_TIME | KERNEL_PROFILE | KERNEL_RACE)
/* Stage identity (kernel_table.h): each version runs a kernel of its own,
 * except that the tile and the padded tile may be one kernel with the
 * padding as its argument: what padding buys is graded by the padded
 * version's speed against the grader's unpadded tile, not by its name. */
#define TILE_PAIR (KERNEL_ROW_BIT(LAB4_ROW_SMEM) | KERNEL_ROW_BIT(LAB4_ROW_PADDED))
/* The square matrix the speed checks time every version on (lab4_rubric.h). */
#define GRADED .graded_size = {LAB4_SPEED_SIZE, LAB4_SPEED_SIZE}

/* make bench: every version on three squares against the naive transpose,
 * beside the grader's unpadded tile, with cudaMemcpy of the same bytes as
 * the ceiling (the result file's keys and labels). */
#define TRANSPOSE KERNEL_BENCH_IN(0)
#define BENCH(role, key, label) .bench = {TRANSPOSE, KERNEL_BENCH_##role, key, label}

static const kernel_row ROWS[LAB4_ROW_COUNT] = {
    [LAB4_ROW_NAIVE] = {.name = "naive transpose", .launch = naive, .modes = KERNEL_PROFILE,
                        .yardstick = LAB4_ROW_NAIVE, .bytes = lab4_transpose_bytes,
                        BENCH(BASELINE, "naive", "naive transpose (grader's baseline)")},
    [LAB4_ROW_UNPADDED] = {.name = "unpadded tile", .launch = unpadded,
                           .modes = KERNEL_PROFILE, .yardstick = LAB4_ROW_UNPADDED,
                           .bytes = lab4_transpose_bytes,
                           BENCH(BESIDE, "unpadded", "unpadded tile (grader's baseline for (c))")},
    [LAB4_ROW_MEMCPY] = {.name = "cudaMemcpy device-to-device", .launch = memcpy_same_bytes,
                         .yardstick = LAB4_ROW_MEMCPY, .bytes = lab4_transpose_bytes,
                         .bench = {TRANSPOSE, KERNEL_BENCH_CEILING, "memcpy",
                                   "cudaMemcpy, device to device", .ceiling = "memcpy_d2d"}},
    [LAB4_ROW_SMEM] = {.name = "lab4_transpose(smem)", .launch = smem, .modes = STUDENT,
                       .yardstick = LAB4_ROW_NAIVE, .bytes = lab4_transpose_bytes,
                       .want = KERNEL_WANT_REFERENCE_0, GRADED, .stage = 1,
                       .shares = TILE_PAIR,
                       BENCH(KERNEL, "smem", "(b) shared tile, 32 x 32 threads (lab 4)")},
    [LAB4_ROW_PADDED] = {.name = "lab4_transpose(padded)", .launch = padded, .modes = STUDENT,
                         .yardstick = LAB4_ROW_UNPADDED, .bytes = lab4_transpose_bytes,
                         .want = KERNEL_WANT_REFERENCE_0, GRADED, .stage = 1,
                         .shares = TILE_PAIR, BENCH(KERNEL, "padded", "(c) padded tile (lab 4)")},
    [LAB4_ROW_MULTIROW] = {.name = "lab4_transpose(multirow)", .launch = multirow,
                           .modes = STUDENT, .yardstick = LAB4_ROW_MEMCPY,
                           .bytes = lab4_transpose_bytes, .want = KERNEL_WANT_REFERENCE_0,
                           GRADED, .stage = 1,
                           BENCH(KERNEL, "multirow",
                                 "(d) padded, 32 x 8 threads, 4 rows each (lab 4)")},
    /* The final stage: an extension (the default race run leaves it out;
     * its own race test asks for it with --all --rows vector). Its race
     * size has partial 64-float tiles at both edges with rows and cols
     * multiples of 4, so the float4 paths run beside the edges' tests. */
    [LAB4_ROW_VECTOR] = {.name = "lab4_transpose(vector) (ext.)", .launch = vector,
                         .modes = STUDENT, .yardstick = LAB4_ROW_MEMCPY, .extension = 1,
                         .bytes = lab4_transpose_bytes, .want = KERNEL_WANT_REFERENCE_0,
                         .race_size = "132x136", GRADED, .stage = 1,
                         .bench = {TRANSPOSE, KERNEL_BENCH_KERNEL, "vector",
                                   "(e) 64 x 64 tile moved as float4s (final stage)",
                                   .optional = 1}},
};

/* --------------------------------------------------------------- setup */

static const char *size_problem(kernel_mode mode, const kernel_size size)
{
    if (mode == KERNEL_PROFILE && (double)size[0] * (double)size[1] > (double)(1L << 30))
        return "at most 2^30 floats";
    return NULL;
}

/* Time: random input, both outputs, and the naive transpose every version
 * must match, made once. */
static int setup_time(const kernel_size size, kernel_problem *p)
{
    size_t n = (size_t)size[0] * (size_t)size[1];
    const float *in = time_device_floats("lab4", n, 1);
    float *out = time_device_floats("lab4", n, 2), *out_base = time_device_floats("lab4", n, 3);
    float *want = time_device_floats("lab4", n, 4);
    if (!in || !out || !out_base || !want)
        return 0;
    if (lab4_baseline_naive(in, want, (int)size[0], (int)size[1]) != LAB_OK ||
        cudaDeviceSynchronize() != cudaSuccess) {
        printf("make time-lab4: the grader's naive transpose failed at SIZE=%ldx%ld (%s)\n",
               size[0], size[1], lab_last_error());
        return 0;
    }
    p->args.in[0] = in;
    p->args.out = out;
    p->yardstick_out = out_base;
    p->reference[0] = want;
    p->checked = n;
    return 1;
}

/* Race: integers in [-1000, 1000] and their transpose on the host. */
static int setup_race(const kernel_size size, kernel_problem *p)
{
    int rows = (int)size[0], cols = (int)size[1];
    size_t n = (size_t)rows * (size_t)cols;
    float *host_in = kernel_host_integers(n, 4, -1000, 1000);
    float *want = malloc(n * sizeof *want);
    if (!host_in || !want)
        return 0;
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
            want[(size_t)c * rows + r] = host_in[(size_t)r * cols + c];
    p->args.in[0] = kernel_device_array("race runner", host_in, n);
    p->args.out = kernel_device_array("race runner", NULL, n);
    p->reference[0] = want;
    p->checked = n;
    return p->args.in[0] && p->args.out;
}

/* Bench: random input from the bench's seed, one output every version
 * writes (compared with the naive transpose's). */
static int setup_bench(const kernel_size size, kernel_problem *p)
{
    size_t n = (size_t)size[0] * (size_t)size[1];
    p->args.in[0] = kernel_bench_array(n, p->seed, 0.0f);
    p->args.out = kernel_bench_array(n, 0, 0.0f);
    p->checked = n;
    return p->args.in[0] && p->args.out;
}

static int setup(kernel_mode mode, const kernel_size size, kernel_problem *p)
{
    p->args.size[0] = size[0];
    p->args.size[1] = size[1];
    if (mode == KERNEL_BENCH)
        return setup_bench(size, p);
    if (mode == KERNEL_TIME)
        return setup_time(size, p);
    if (mode == KERNEL_RACE)
        return setup_race(size, p);
    size_t n = (size_t)size[0] * (size_t)size[1];
    p->args.in[0] = kernel_device_array("lab4_profile", NULL, n);
    p->args.out = kernel_device_array("lab4_profile", NULL, n);
    return p->args.in[0] && p->args.out;
}

const kernel_table lab_kernel_table = {
    .lab = "lab4",
    .rows = ROWS,
    .count = LAB4_ROW_COUNT,
    .time = {2, 1L << 15, "8192x8192"},
    .profile = {2, 1L << 15, "8192x8192"},
    /* 3 x 2 tiles, both partial: where a barrier inside `if (in bounds)`
     * would hang or race. */
    .race = {2, 4096, "70x45"},
    .size_problem = size_problem,
    .setup = setup,
    .bench = {{"transpose", {{"2048x2048", {2048, 2048}}, {"4096x4096", {4096, 4096}},
                             {"8192x8192", {8192, 8192}}}, .compared = 1}},
    .bench_count = 1,
};
