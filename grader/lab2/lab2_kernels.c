/* Lab 2's kernel table: the student's naive kernel against the grader's
 * uncoalesced one (x picks the row), as gpu_speed_vs_uncoalesced times
 * them; the student's C is checked against the baseline's. */
#include "lab2.h"
#include "lab2_kernels.h"
#include "matmul_baselines.h"
#include "matmul_kernels.h"

MATMUL_ADAPTER(uncoalesced, matmul_baseline_uncoalesced)
MATMUL_ADAPTER(naive, lab2_matmul_naive)

/* make bench: the naive kernel against the grader's baseline, with cuBLAS
 * FP32 as the ceiling (bench_ceilings.c: lab 2's grader does not link it). */
#define MATMUL KERNEL_BENCH_IN(0)

static const kernel_row ROWS[LAB2_ROW_COUNT] = {
    [LAB2_ROW_UNCOALESCED] = {.name = "x->row kernel", .launch = uncoalesced,
                              .modes = KERNEL_PROFILE, .yardstick = LAB2_ROW_UNCOALESCED,
                              .flops = matmul_flops,
                              .bench = {MATMUL, KERNEL_BENCH_BASELINE, "uncoalesced",
                                        "naive, x picks the row (grader's baseline)"}},
    /* Graded at 2*2048^3 = 17 GFLOP: about 2.5 ms for the naive kernel and
     * 35 ms for the baseline on an H100 (lab2_rubric.h). */
    [LAB2_ROW_NAIVE] = {.name = "lab2_matmul_naive", .launch = naive,
                        .modes = KERNEL_TIME | KERNEL_PROFILE, .yardstick = LAB2_ROW_UNCOALESCED,
                        .flops = matmul_flops, .want = KERNEL_WANT_YARDSTICK,
                        .tolerance = matmul_time_tolerance, .graded_size = {2048, 2048, 2048},
                        .bench = {MATMUL, KERNEL_BENCH_KERNEL, "naive",
                                  "naive, x picks the column (lab 2)"}},
};

static int setup(kernel_mode mode, const kernel_size size, kernel_problem *p)
{
    return matmul_kernels_setup("lab2", mode, size, p);
}

const kernel_table lab_kernel_table = {
    .lab = "lab2",
    .rows = ROWS,
    .count = LAB2_ROW_COUNT,
    .time = {3, 16384, "2048x2048x2048"},
    .profile = {1, 8192, "1024"}, /* square matrices of this size */
    .race = {3, 16384, "64x64x64"}, /* no race rows: lab 2 shares no memory */
    .setup = setup,
    /* 4096: the uncoalesced baseline takes about 0.3 s a call there. */
    .bench = {{"matmul", {{"1024", {1024, 1024, 1024}}, {"2048", {2048, 2048, 2048}},
                          {"4096", {4096, 4096, 4096}}},
               .compared = 1, .tolerance = matmul_time_tolerance,
               .outside_ceiling = "cublas_fp32"}},
    .bench_count = 1,
};
