/* Lab 3's kernel table: the student's tiled kernel (TILE 32 and 16) and
 * thread tile (the extension) against lab 2's naive kernel (lab 2's
 * reference, lab2_reference), as the speed checks time them
 * (lab3_gpu_checks.c: gpu_tiled_speed_vs_naive and the others); each C is
 * checked against the naive kernel's. Lab 3's race runner is its race
 * demo (race_demo.cu), which also runs a kernel with a barrier missing. */
#include "lab2.h"
#include "lab3.h"
#include "lab3_kernels.h"
#include "matmul_kernels.h"

MATMUL_ADAPTER(naive, lab2_matmul_naive)
MATMUL_ADAPTER(tiled, lab3_matmul_tiled)
MATMUL_ADAPTER(thread_tile, lab3_matmul_thread_tile)

static int tiled_16(const kernel_args *a)
{
    return lab3_matmul_tiled_with(16, a->in[0], a->in[1], a->out, MATMUL_M(a), MATMUL_N(a),
                                  MATMUL_K(a));
}

/* The speed checks time every student row at 2048^3: 2*2048^3 = 17
 * GFLOP, about 1.8 ms per launch of the tiled kernel on an H100
 * (lab3_rubric.h). */
#define STUDENT(fn) .launch = fn, .modes = KERNEL_TIME | KERNEL_PROFILE, \
    .yardstick = LAB3_ROW_NAIVE, .flops = matmul_flops, .want = KERNEL_WANT_YARDSTICK, \
    .tolerance = matmul_time_tolerance, .graded_size = {2048, 2048, 2048}

/* Stage identity (kernel_table.h): the thread tile runs a kernel of its
 * own; the tiled entry's two tile sizes may be one kernel (a template on
 * the tile, as the reference's, or the tile as an argument). */
#define TILED_PAIR (KERNEL_ROW_BIT(LAB3_ROW_TILED) | KERNEL_ROW_BIT(LAB3_ROW_TILED_16))

/* make bench: the student's kernels against lab 2's naive one, with
 * cuBLAS FP32 as the ceiling (bench_ceilings.c: lab 3's grader does not
 * link it). */
#define MATMUL KERNEL_BENCH_IN(0)
#define BENCH(key, label) .bench = {MATMUL, KERNEL_BENCH_KERNEL, key, label}

static const kernel_row ROWS[LAB3_ROW_COUNT] = {
    [LAB3_ROW_NAIVE] = {.name = "lab 2's naive", .launch = naive, .modes = KERNEL_PROFILE,
                        .yardstick = LAB3_ROW_NAIVE, .flops = matmul_flops,
                        .bench = {MATMUL, KERNEL_BENCH_BASELINE, "naive",
                                  "naive, x picks the column (lab 2)"}},
    [LAB3_ROW_TILED] = {.name = "lab3_matmul_tiled (TILE 32)", STUDENT(tiled), .stage = 1,
                        .shares = TILED_PAIR, BENCH("tiled", "shared tiles, 32 x 32")},
    [LAB3_ROW_TILED_16] = {.name = "lab3_matmul_tiled_with(16)", STUDENT(tiled_16),
                           .stage = 1, .shares = TILED_PAIR,
                           BENCH("tiled_16", "shared tiles, 16 x 16")},
    /* Not "extension" here: make time-lab3 always counted it. */
    [LAB3_ROW_THREAD_TILE] = {.name = "lab3_matmul_thread_tile (ext.)", STUDENT(thread_tile),
                              .stage = 1, BENCH("thread_tile", "1D thread tile (bonus)")},
};

static int setup(kernel_mode mode, const kernel_size size, kernel_problem *p)
{
    return matmul_kernels_setup("lab3", mode, size, p);
}

const kernel_table lab_kernel_table = {
    .lab = "lab3",
    .rows = ROWS,
    .count = LAB3_ROW_COUNT,
    .time = {3, 16384, "2048x2048x2048"},
    .profile = {1, 8192, "1024"}, /* square matrices of this size */
    .race = {3, 16384, "64x64x96"},
    .setup = setup,
    .bench = {{"matmul", {{"1024", {1024, 1024, 1024}}, {"2048", {2048, 2048, 2048}},
                          {"4096", {4096, 4096, 4096}}},
               .compared = 1, .tolerance = matmul_time_tolerance,
               .outside_ceiling = "cublas_fp32"}},
    .bench_count = 1,
};
