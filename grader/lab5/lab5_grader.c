/* Lab 5 grader: the list of tests, their groups and their points (out of
 * 50, plus 16 bonus for stages (4)-(6)). Thresholds, partial-credit
 * floors and their calibration: lab5_rubric.h. */
#include "harness.h"
#include "lab5_checks.h"
#include "lab5_rubric.h"
#include "racecheck.h"

static const grader_test tests[] = {
    /* CPU: the helpers on simulated 256- and 1024-thread blocks. */
    /* The lesson, convergence, is graded here, on the mechanism: which
     * threads work in each step, warp by warp. Its speed on the GPU is not
     * (below). */
    GRADER_TEST(cpu_divergent_steps_add_up, GROUP_CPU, 5, "5.1"),
    GRADER_TEST(cpu_strided_steps_contiguous, GROUP_CPU, 7, "5.4"),
    GRADER_TEST(cpu_sequential_steps_convergent, GROUP_CPU, 12, "5.6"),
    /* GPU: every stage's whole sum on awkward sizes. */
    GRADER_TEST(gpu_divergent_sums, GROUP_GPU, 7, "5.2"),
    GRADER_TEST(gpu_strided_sums, GROUP_GPU, 5, "5.5"),
    GRADER_TEST(gpu_sequential_sums, GROUP_GPU, 5, "5.7"),
    /* racecheck on one small run of stages (1)-(3): a lucky race passes
     * every output check. */
    GRADER_ROW(gpu_reduction_race_free, GROUP_GPU, 3, NULL, RACECHECK_TEST_TIMEOUT_S,
               "5.2, 5.5, 5.7"),
    GRADER_TEST(gpu_sum_overwrites_out, GROUP_GPU, 3, "5.3"),
    GRADER_TEST(gpu_rejects_bad_input, GROUP_GPU, 3),            /* validation (given code) */
    /* The hook behind make time-lab5's no-atomic rows (given code): each
     * block's sum in its own slot, *out left alone. It checks only that the
     * kernels hand their sums to add_block_sum; the experiment is not graded. */
    GRADER_TEST(gpu_block_sums_without_atomic, GROUP_GPU, 0, "5.2, 5.5, 5.7"),
    /* Measured for the handout, never judged: your (3) against the grader's
     * own (1). On Hopper that ratio is the cost of (1)'s `%`, not of its
     * divergence, which measured nothing (lab5_rubric.h); it still checks
     * that every timed call did the work. */
    GRADER_TEST(gpu_sequential_speed_vs_divergent, GROUP_GPU, 0),
    GRADER_TEST(gpu_required_stages_vs_copy, GROUP_GPU, 0),
    /* Extension, stages (4)-(6): extra credit. */
    GRADER_BONUS(gpu_first_add_sums, GROUP_GPU, 2, "5.8"),
    GRADER_BONUS_SPEED(gpu_first_add_fraction_of_copy, GROUP_GPU, 2, "fraction_of_copy_bandwidth",
                       LAB5_FIRST_ADD_COPY_FRACTION_FLOOR,
                       LAB5_FIRST_ADD_COPY_FRACTION_REFERENCE),
    GRADER_BONUS(gpu_warp_shuffle_sums, GROUP_GPU, 2, "5.9"),
    GRADER_BONUS_SPEED(gpu_warp_shuffle_fraction_of_copy, GROUP_GPU, 2,
                       "fraction_of_copy_bandwidth", LAB5_WARP_SHUFFLE_COPY_FRACTION_FLOOR,
                       LAB5_WARP_SHUFFLE_COPY_FRACTION_REFERENCE),
    GRADER_BONUS(gpu_grid_stride_sums, GROUP_GPU, 2, "5.10, 5.11"),
    /* n close to INT_MAX: the loop's index must not overflow (8 GiB). Its
     * point came from gpu_grid_stride_sums, which had 3. */
    GRADER_BONUS_NEEDS_MEMORY(gpu_grid_stride_near_int_max, GROUP_GPU, 1, LAB5_NEAR_INT_MAX_GIB,
                              "5.11"),
    GRADER_BONUS_SPEED(gpu_grid_stride_fraction_of_copy, GROUP_GPU, 5, "fraction_of_copy_bandwidth",
                       LAB5_GRID_STRIDE_COPY_FRACTION_FLOOR,
                       LAB5_GRID_STRIDE_COPY_FRACTION_REFERENCE),
    GRADER_TEST(selftest_sequential_below_bonus_thresholds, GROUP_SELFTEST, 0),
};

int main(int argc, char **argv)
{
    grader_suite suite = {"lab5", "Lab 5 - parallel reduction",
                          "handouts/lab5-reduction-divergence.md", GRADER_IMPLEMENTATION, tests,
                          sizeof tests / sizeof tests[0], .concurrent_streams = 0};
    return grader_main(&suite, argc, argv);
}
