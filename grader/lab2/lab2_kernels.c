/* Lab 2's kernel table: the student's naive kernel against the grader's
 * uncoalesced one (x picks the row), as gpu_speed_vs_uncoalesced times
 * them; the student's C is checked against the baseline's. */
#include "lab2.h"
#include "lab2_kernels.h"
#include "matmul_baselines.h"
#include "matmul_kernels.h"

MATMUL_ADAPTER(uncoalesced, matmul_baseline_uncoalesced)
MATMUL_ADAPTER(naive, lab2_matmul_naive)

static const kernel_row ROWS[LAB2_ROW_COUNT] = {
    [LAB2_ROW_UNCOALESCED] = {.name = "x->row kernel", .launch = uncoalesced,
                              .modes = KERNEL_PROFILE, .yardstick = LAB2_ROW_UNCOALESCED,
                              .flops = matmul_flops},
    /* Graded at 2*2048^3 = 17 GFLOP: about 2.5 ms for the naive kernel and
     * 35 ms for the baseline on an H100 (lab2_rubric.h). */
    [LAB2_ROW_NAIVE] = {.name = "lab2_matmul_naive", .launch = naive,
                        .modes = KERNEL_TIME | KERNEL_PROFILE, .yardstick = LAB2_ROW_UNCOALESCED,
                        .flops = matmul_flops, .want = KERNEL_WANT_YARDSTICK,
                        .tolerance = matmul_time_tolerance, .graded_size = {2048, 2048, 2048}},
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
};
