/* Lab 8 grader: the list of tests, their groups and their points (out of
 * 40). Thresholds, partial-credit floors and their calibration:
 * lab8_rubric.h (calibrated on an H200). */
#include "harness.h"
#include "lab8_checks.h"
#include "lab8_rubric.h"
#include "racecheck.h"

static const grader_test tests[] = {
    /* CPU: the index helpers, every warp and thread of a launch simulated. */
    GRADER_TEST(cpu_global_tiles_cover_c, GROUP_CPU, 3, "8.1"),
    GRADER_TEST(cpu_fragments_cover_block_tile, GROUP_CPU, 3, "8.4"),
    GRADER_TEST(cpu_chunk_loads_cover_tiles, GROUP_CPU, 3, "8.5"),
    /* GPU: each stage on awkward multiples, rectangles, alpha/beta, C
     * poisoned with NaN and wrapped in canaries; a CPU reference in double. */
    GRADER_TEST(gpu_wmma_global_correct, GROUP_GPU, 6, "8.1-8.3"),
    GRADER_TEST(gpu_wmma_shared_correct, GROUP_GPU, 7, "8.2, 8.4-8.6"),
    /* racecheck on one small run of each stage: a lucky race passes every
     * output check. */
    GRADER_ROW(gpu_stages_race_free, GROUP_GPU, 2, NULL, RACECHECK_TEST_TIMEOUT_S, "8.6"),
    GRADER_TEST(gpu_stages_match_cublas_at_4096, GROUP_GPU, 2, "8.1-8.6"),
    GRADER_TEST(gpu_rejects_bad_input, GROUP_GPU, 2), /* validation (given code) */
    /* GPU speed at 4096^3, against lab 7's warp tile (FP32) and cuBLAS
     * (FP16 in, FP32 compute), in the same run. */
    GRADER_SPEED(gpu_wmma_shared_speed_vs_lab7, GROUP_GPU, 8, "speedup_over_lab7",
                 LAB8_SPEEDUP_OVER_LAB7_FLOOR, LAB8_WMMA_SHARED_SPEEDUP_REFERENCE, "8.4-8.6"),
    GRADER_SPEED(gpu_wmma_shared_fraction_of_cublas, GROUP_GPU, 4, "fraction_of_cublas",
                 LAB8_CUBLAS_FRACTION_FLOOR, LAB8_WMMA_SHARED_CUBLAS_FRACTION_REFERENCE,
                 "8.4-8.6"),
    GRADER_TEST(selftest_lab7_warp_tile_below_wmma_shared_threshold, GROUP_SELFTEST, 0),
    GRADER_TEST(selftest_lab7_warp_tile_below_cublas_fraction, GROUP_SELFTEST, 0),
};

int main(int argc, char **argv)
{
    grader_suite suite = {"lab8", "Lab 8 - tensor cores through WMMA", LAB8_HANDOUT,
                          GRADER_IMPLEMENTATION, tests, sizeof tests / sizeof tests[0],
                          .concurrent_streams = 0};
    return grader_main(&suite, argc, argv);
}
