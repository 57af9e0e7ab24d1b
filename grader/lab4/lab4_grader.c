/* Lab 4 grader: the list of tests, their groups and their points (out of
 * 50, plus 12 bonus for the final stage (e)). Thresholds, partial-credit floors and
 * their calibration: lab4_rubric.h. */
#include "harness.h"
#include "lab4_checks.h"
#include "lab4_rubric.h"
#include "racecheck.h"

static const grader_test tests[] = {
    /* CPU: the index helpers on simulated launches. */
    GRADER_TEST(cpu_tile_grid, GROUP_CPU, 3, "4.1"),
    GRADER_TEST(cpu_every_element_moved_once, GROUP_CPU, 6, "4.2-4.4"),
    GRADER_TEST(cpu_global_accesses_coalesced, GROUP_CPU, 4, "4.2, 4.3"),
    GRADER_TEST(cpu_bank_conflict_degree, GROUP_CPU, 5, "4.4, 4.5"),
    /* GPU: each version on awkward shapes, with its shared tile. */
    GRADER_TEST(gpu_smem_correct, GROUP_GPU, 4, "4.6"),
    GRADER_TEST(gpu_padded_correct, GROUP_GPU, 5, "4.5, 4.6"),
    GRADER_TEST(gpu_multirow_correct, GROUP_GPU, 5, "4.7"),
    /* racecheck on one small run of each version: a lucky race passes
     * every output check. */
    GRADER_ROW(gpu_transpose_race_free, GROUP_GPU, 3, "gpu_smem_correct", RACECHECK_TEST_TIMEOUT_S,
               "4.6, 4.7"),
    GRADER_TEST(gpu_rejects_bad_input, GROUP_GPU, 2),         /* validation (given code) */
    /* GPU speed at 8192 x 8192, against the grader's yardsticks. */
    GRADER_SPEED(gpu_smem_speed_vs_naive, GROUP_GPU, 5, "speedup_vs_naive",
                 LAB4_SMEM_SPEEDUP_FLOOR, LAB4_SMEM_SPEEDUP_REFERENCE),
    GRADER_SPEED(gpu_padded_speed_vs_unpadded, GROUP_GPU, 5, "speedup_vs_unpadded",
                 LAB4_PADDED_SPEEDUP_FLOOR, LAB4_PADDED_SPEEDUP_REFERENCE),
    GRADER_SPEED(gpu_multirow_fraction_of_copy, GROUP_GPU, 3, "fraction_of_copy",
                 LAB4_MULTIROW_COPY_FRACTION_FLOOR, LAB4_MULTIROW_COPY_FRACTION_REFERENCE),
    /* Every kernel in GB/s and as a share of cudaMemcpy: reported, not judged. */
    GRADER_TEST(gpu_bandwidth_table, GROUP_GPU, 0),
    /* Final stage (e), optional: bonus points, outside the possible total.
     * The speed test cannot tell (e) from (d) (lab4_rubric.h says why): the
     * stage's lesson, the gather's bank conflicts, is graded on the CPU. */
    GRADER_BONUS(cpu_vector_every_element_moved_once, GROUP_CPU, 2, "4.8-4.10"),
    GRADER_BONUS(cpu_vector_accesses_coalesced, GROUP_CPU, 1, "4.9"),
    GRADER_BONUS(cpu_vector_bank_conflict_degree, GROUP_CPU, 2, "4.10, 4.11"),
    GRADER_BONUS(gpu_vector_correct, GROUP_GPU, 3, "4.12"),
    GRADER_BONUS_ROW(gpu_vector_race_free, GROUP_GPU, 1, "gpu_vector_correct",
                     RACECHECK_TEST_TIMEOUT_S, "4.12"),
    GRADER_BONUS_SPEED(gpu_vector_fraction_of_copy, GROUP_GPU, 3, "fraction_of_copy",
                       LAB4_VECTOR_COPY_FRACTION_FLOOR, LAB4_VECTOR_COPY_FRACTION_REFERENCE),
    GRADER_TEST(selftest_naive_below_smem_threshold, GROUP_SELFTEST, 0),
    GRADER_TEST(selftest_unpadded_below_padded_threshold, GROUP_SELFTEST, 0),
    GRADER_TEST(selftest_unpadded_below_copy_threshold, GROUP_SELFTEST, 0),
    GRADER_TEST(selftest_unpadded_below_vector_threshold, GROUP_SELFTEST, 0),
};

int main(int argc, char **argv)
{
    grader_suite suite = {"lab4", "Lab 4 - transpose and bank conflicts",
                          "handouts/lab4-transpose-bank-conflicts.md", GRADER_IMPLEMENTATION,
                          tests, sizeof tests / sizeof tests[0], .concurrent_streams = 0};
    return grader_main(&suite, argc, argv);
}
