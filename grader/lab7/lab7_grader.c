/* Lab 7 grader: the list of tests, their groups and their points (out of
 * 50, plus 5 bonus for any size and 8 for the optional final stage). Thresholds, partial-credit
 * floors and their calibration: lab7_rubric.h. */
#include "harness.h"
#include "lab7_checks.h"
#include "lab7_rubric.h"
#include "racecheck.h"

static const grader_test tests[] = {
    /* CPU: the index helpers, every thread of a block simulated. */
    GRADER_TEST(cpu_block_tile_1d_outputs, GROUP_CPU, 2, "7.2"),
    GRADER_TEST(cpu_block_tile_2d_outputs, GROUP_CPU, 3, "7.4"),
    GRADER_TEST(cpu_float4_loads_cover_tiles, GROUP_CPU, 4, "7.6"),
    GRADER_TEST(cpu_warp_tile_coverage, GROUP_CPU, 6, "7.8"),
    /* CPU: what the compiler made of each stage's kernel (shared tiles, block
     * sizes, spills), from the build's ptxas report for the reference GPU
     * (lab7_static_checks.c). */
    GRADER_TEST(cpu_kernel_resources, GROUP_CPU, 2, "7.3, 7.5, 7.7, 7.9, 7.12"),
    /* GPU: each stage on multiples of its tile, alpha/beta, NaN-poisoned C. */
    GRADER_TEST(gpu_block_tile_1d_correct, GROUP_GPU, 3, "7.1-7.3"),
    GRADER_TEST(gpu_block_tile_2d_correct, GROUP_GPU, 3, "7.4, 7.5"),
    GRADER_TEST(gpu_vectorised_correct, GROUP_GPU, 4, "7.6, 7.7"),
    GRADER_TEST(gpu_warp_tile_correct, GROUP_GPU, 4, "7.8, 7.9"),
    /* racecheck on one small run of each stage: a lucky race passes every
     * output check. */
    GRADER_ROW(gpu_stages_race_free, GROUP_GPU,
               2, "cpu_kernel_resources", RACECHECK_TEST_TIMEOUT_S, "7.3, 7.5, 7.7, 7.9"),
    GRADER_TEST(gpu_stages_match_cublas_at_4096, GROUP_GPU, 2, "7.1-7.9"),
    GRADER_TEST(gpu_rejects_bad_input, GROUP_GPU, 2),         /* validation (given code) */
    /* GPU speed at 4096^3, against lab 3's tiled kernel and cuBLAS FP32. */
    GRADER_SPEED(gpu_block_tile_1d_speed_vs_lab3, GROUP_GPU, 2, "speedup_over_lab3",
                 LAB7_SPEEDUP_OVER_LAB3_FLOOR, LAB7_BLOCK_TILE_1D_SPEEDUP_REFERENCE, "7.1-7.3"),
    GRADER_SPEED(gpu_block_tile_2d_speed_vs_lab3, GROUP_GPU, 2, "speedup_over_lab3",
                 LAB7_SPEEDUP_OVER_LAB3_FLOOR, LAB7_BLOCK_TILE_2D_SPEEDUP_REFERENCE, "7.4, 7.5"),
    GRADER_SPEED(gpu_vectorised_speed_vs_lab3, GROUP_GPU, 3, "speedup_over_lab3",
                 LAB7_SPEEDUP_OVER_LAB3_FLOOR, LAB7_VECTORISED_SPEEDUP_REFERENCE, "7.6, 7.7"),
    GRADER_SPEED(gpu_warp_tile_speed_vs_lab3, GROUP_GPU, 3, "speedup_over_lab3",
                 LAB7_SPEEDUP_OVER_LAB3_FLOOR, LAB7_WARP_TILE_SPEEDUP_REFERENCE, "7.8, 7.9"),
    GRADER_SPEED(gpu_warp_tile_fraction_of_cublas, GROUP_GPU, 3, "fraction_of_cublas",
                 LAB7_WARP_TILE_CUBLAS_FRACTION_FLOOR, LAB7_WARP_TILE_CUBLAS_FRACTION_REFERENCE,
                 "7.8, 7.9"),
    /* Every kernel in GFLOP/s and as a share of cuBLAS: reported, not judged. */
    GRADER_TEST(gpu_sgemm_table, GROUP_GPU, 0),
    /* Extension: any size. */
    GRADER_BONUS(gpu_any_size_correct, GROUP_GPU, 5, "7.9, 7.10"),
    /* The optional final stage, the block tile chosen per size: bonus
     * points, outside the possible total. */
    GRADER_BONUS(cpu_sized_tile_choice, GROUP_CPU, 2, "7.11"),
    GRADER_BONUS(gpu_sized_correct, GROUP_GPU, 3, "7.11-7.13"),
    GRADER_BONUS_SPEED(gpu_sized_speed_vs_lab3, GROUP_GPU, 3, "speedup_over_lab3",
                       LAB7_SIZED_SPEEDUP_FLOOR, LAB7_SIZED_SPEEDUP_REFERENCE, "7.11-7.13"),
    GRADER_TEST(selftest_lab3_tiled_below_block_tile_1d_threshold, GROUP_SELFTEST, 0),
    GRADER_TEST(selftest_lab3_thread_tile_below_warp_tile_threshold, GROUP_SELFTEST, 0),
    GRADER_TEST(selftest_lab3_thread_tile_below_cublas_threshold, GROUP_SELFTEST, 0),
    GRADER_TEST(selftest_warp_tile_below_sized_threshold, GROUP_SELFTEST, 0),
};

int main(int argc, char **argv)
{
    grader_suite suite = {"lab7", "Lab 7 - warp tiling", "handouts/lab7-warp-tiling.md",
                          GRADER_IMPLEMENTATION, tests, sizeof tests / sizeof tests[0],
                          .concurrent_streams = 0};
    return grader_main(&suite, argc, argv);
}
