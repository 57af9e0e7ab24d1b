/* Lab 3 grader: the list of tests, their groups and their points (out of
 * 60, plus 20 bonus for the thread tile). Thresholds, partial-credit
 * floors and their calibration: lab3_rubric.h. */
#include "harness.h"
#include "lab3_checks.h"
#include "lab3_rubric.h"
#include "racecheck.h"

static const grader_test tests[] = {
    /* CPU: the index helpers on simulated launches. */
    GRADER_TEST(cpu_tiled_grid_and_phases, GROUP_CPU, 5, "3.1"),
    GRADER_TEST(cpu_tile_load_elements, GROUP_CPU, 5, "3.3"),
    GRADER_TEST(cpu_resident_blocks_worked_cases, GROUP_CPU, 5, "3.2"),
    /* CPU: what the compiler made of the kernels, from the build's ptxas
     * report for the reference GPU (lab3_static_checks.c). The lesson is the
     * shared tiles: a kernel without them earns none of the tiled kernel's
     * correctness points, however right its output. */
    GRADER_TEST(cpu_tiled_uses_shared_tiles, GROUP_CPU, 5, "3.4"),
    GRADER_BONUS(cpu_thread_tile_uses_shared_tiles, GROUP_CPU, 2, "3.12"),
    /* GPU. */
    GRADER_GATED(gpu_tiled_tile_edges, GROUP_GPU, 9, cpu_tiled_uses_shared_tiles, "3.3-3.8"),
    /* racecheck on one small run: a lucky race passes every output check. */
    GRADER_ROW(gpu_tiled_race_free, GROUP_GPU,
               3, "cpu_tiled_uses_shared_tiles", RACECHECK_TEST_TIMEOUT_S, "3.5, 3.7"),
    GRADER_GATED(gpu_tiled_awkward_shapes, GROUP_GPU, 12, cpu_tiled_uses_shared_tiles,
                 "3.3-3.8"),
    GRADER_TEST(gpu_rejects_bad_input, GROUP_GPU, 3),      /* validation (given code) */
    GRADER_SPEED(gpu_tiled_speed_vs_naive, GROUP_GPU, 8, "speedup_over_naive",
                 LAB3_TILED_SPEEDUP_FLOOR, LAB3_TILED_SPEEDUP_REFERENCE, "3.3-3.8"),
    GRADER_TEST(gpu_resident_blocks_match_runtime, GROUP_GPU, 5, "3.2"),
    /* Measured for the handout's 16-versus-32 table, never judged. */
    GRADER_TEST(gpu_tile16_speed_metrics, GROUP_GPU, 0),
    /* Extension, the thread tile: extra credit. */
    GRADER_BONUS(cpu_thread_tile_grid, GROUP_CPU, 2, "3.9"),
    GRADER_BONUS(cpu_thread_tile_outputs, GROUP_CPU, 2, "3.10"),
    GRADER_BONUS(cpu_thread_tile_loads, GROUP_CPU, 2, "3.11"),
    GRADER_BONUS_GATED(gpu_thread_tile_correct, GROUP_GPU, 6, cpu_thread_tile_uses_shared_tiles,
                       "3.9-3.12"),
    GRADER_BONUS_SPEED(gpu_thread_tile_speed_vs_naive, GROUP_GPU, 6, "speedup_over_naive",
                       LAB3_THREAD_TILE_SPEEDUP_FLOOR, LAB3_THREAD_TILE_SPEEDUP_REFERENCE,
                       "3.9-3.12"),
    GRADER_TEST(selftest_naive_below_tiled_threshold, GROUP_SELFTEST, 0),
};

int main(int argc, char **argv)
{
    grader_suite suite = {"lab3", "Lab 3 - shared-memory tiles", "handouts/lab3-shared-tiles.md",
                          GRADER_IMPLEMENTATION, tests, sizeof tests / sizeof tests[0],
                          .concurrent_streams = 0};
    return grader_main(&suite, argc, argv);
}
