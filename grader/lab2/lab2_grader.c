/* Lab 2 grader: the list of tests, their groups and their points. */
#include "harness.h"
#include "lab2_checks.h"
#include "rubric.h"

static const grader_test tests[] = {
    {"cpu_row_col_layout", GROUP_CPU, cpu_row_col_layout, LAB2_POINTS_ROW_COL_LAYOUT, 0},
    {"cpu_threads_cover_c", GROUP_CPU, cpu_threads_cover_c, LAB2_POINTS_THREADS_COVER_C, 0},
    {"cpu_launch_grid_covers_c", GROUP_CPU, cpu_launch_grid_covers_c, LAB2_POINTS_LAUNCH_GRID,
     0},
    {"cpu_warp_sectors_coalesced", GROUP_CPU, cpu_warp_sectors_coalesced,
     LAB2_POINTS_WARP_SECTORS, 0},
    {"gpu_naive_awkward_shapes", GROUP_GPU, gpu_naive_awkward_shapes, LAB2_POINTS_GPU_NAIVE, 0},
    {"gpu_host_flow", GROUP_GPU, gpu_host_flow, LAB2_POINTS_GPU_HOST_FLOW, 0},
    {"gpu_rejects_bad_input", GROUP_GPU, gpu_rejects_bad_input, LAB2_POINTS_GPU_BAD_INPUT, 0},
    {"gpu_speed_vs_uncoalesced", GROUP_GPU, gpu_speed_vs_uncoalesced, LAB2_POINTS_GPU_SPEED, 0},
    /* Reported, never judged: worth no points. */
    {"gpu_metrics_vs_cpu_reference", GROUP_GPU, gpu_metrics_vs_cpu_reference, 0, 0},
    {"selftest_uncoalesced_baseline_is_slow", GROUP_SELFTEST,
     selftest_uncoalesced_baseline_is_slow, 0, 0},
};

int main(int argc, char **argv)
{
    grader_suite suite = {"lab2", "Lab 2 - naive matrix multiply", "handouts/lab2-naive-matmul.md",
                          GRADER_IMPLEMENTATION, tests, sizeof tests / sizeof tests[0]};
    return grader_main(&suite, argc, argv);
}
