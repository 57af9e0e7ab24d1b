/* Lab 2 grader: the list of tests, their groups and their points (out of
 * 70). Thresholds, partial-credit floors and
 * their calibration: lab2_rubric.h. */
#include "harness.h"
#include "lab2_checks.h"
#include "lab2_rubric.h"

static const grader_test tests[] = {
    /* CPU: the index helpers on simulated launches. */
    GRADER_TEST(cpu_row_col_layout, GROUP_CPU, 5, "2.1"),        /* row from y, column from x */
    GRADER_TEST(cpu_threads_cover_c, GROUP_CPU, 5, "2.1"),       /* with the bounds test */
    GRADER_TEST(cpu_launch_grid_covers_c, GROUP_CPU, 5, "2.3"),
    GRADER_TEST(cpu_warp_sectors_coalesced, GROUP_CPU, 5, "2.1"), /* coalesced accesses */
    GRADER_TEST(cpu_gflops_worked_cases, GROUP_CPU, 2, "2.10"),
    /* GPU. */
    GRADER_TEST(gpu_naive_awkward_shapes, GROUP_GPU, 14, "2.2, 2.4"),
    GRADER_TEST(gpu_host_flow, GROUP_GPU, 10, "2.5-2.9"),
    GRADER_TEST(gpu_host_flow_fails_cleanly, GROUP_GPU, 4, "2.5-2.9"), /* error paths */
    GRADER_TEST(gpu_rejects_bad_input, GROUP_GPU, 6, "2.4"),     /* validation */
    GRADER_SPEED(gpu_speed_vs_uncoalesced, GROUP_GPU, 6, "speedup_over_uncoalesced",
                 LAB2_SPEEDUP_OVER_UNCOALESCED_FLOOR, LAB2_SPEEDUP_OVER_UNCOALESCED_REFERENCE),
    GRADER_TEST(gpu_timing_rejects_bad_input, GROUP_GPU, 2, "2.11"),
    GRADER_TEST(gpu_timing_matches_device, GROUP_GPU, 6, "2.11"),
    /* Reported, never judged: worth no points. */
    GRADER_TEST(gpu_metrics_vs_cpu_reference, GROUP_GPU, 0),
    GRADER_TEST(selftest_uncoalesced_baseline_is_slow, GROUP_SELFTEST, 0),
};

int main(int argc, char **argv)
{
    grader_suite suite = {"lab2", "Lab 2 - naive matrix multiply", "handouts/lab2-naive-matmul.md",
                          GRADER_IMPLEMENTATION, tests, sizeof tests / sizeof tests[0],
                          .concurrent_streams = 0};
    return grader_main(&suite, argc, argv);
}
