/* Lab 3 grader: the list of tests, their groups and their points. */
#include "harness.h"
#include "lab3_checks.h"
#include "rubric.h"

static const grader_test tests[] = {
    {"cpu_tiled_grid_and_phases", GROUP_CPU, cpu_tiled_grid_and_phases, LAB3_POINTS_TILED_GRID,
     0},
    {"cpu_tile_load_elements", GROUP_CPU, cpu_tile_load_elements, LAB3_POINTS_TILE_LOADS, 0},
    {"gpu_tiled_uses_shared_tiles", GROUP_GPU, gpu_tiled_uses_shared_tiles,
     LAB3_POINTS_GPU_TILED_SHARED, 0},
    {"gpu_tiled_tile_edges", GROUP_GPU, gpu_tiled_tile_edges, LAB3_POINTS_GPU_TILED_EDGES, 0},
    {"gpu_tiled_awkward_shapes", GROUP_GPU, gpu_tiled_awkward_shapes,
     LAB3_POINTS_GPU_TILED_AWKWARD, 0},
    {"gpu_rejects_bad_input", GROUP_GPU, gpu_rejects_bad_input, LAB3_POINTS_GPU_BAD_INPUT, 0},
    {"gpu_tiled_speed_vs_naive", GROUP_GPU, gpu_tiled_speed_vs_naive,
     LAB3_POINTS_GPU_TILED_SPEED, 0},
    /* Measured for the handout's 16-versus-32 table, never judged. */
    {"gpu_tile16_speed_metrics", GROUP_GPU, gpu_tile16_speed_metrics, 0, 0},
    /* Extension: the thread tile (bonus points). */
    {"cpu_thread_tile_grid", GROUP_CPU, cpu_thread_tile_grid, LAB3_BONUS_POINTS_TT_GRID, 0},
    {"cpu_thread_tile_outputs", GROUP_CPU, cpu_thread_tile_outputs, LAB3_BONUS_POINTS_TT_OUTPUTS,
     0},
    {"cpu_thread_tile_loads", GROUP_CPU, cpu_thread_tile_loads, LAB3_BONUS_POINTS_TT_LOADS, 0},
    {"gpu_thread_tile_uses_shared_tiles", GROUP_GPU, gpu_thread_tile_uses_shared_tiles,
     LAB3_BONUS_POINTS_GPU_TT_SHARED, 0},
    {"gpu_thread_tile_correct", GROUP_GPU, gpu_thread_tile_correct,
     LAB3_BONUS_POINTS_GPU_TT_CORRECT, 0},
    {"gpu_thread_tile_speed_vs_naive", GROUP_GPU, gpu_thread_tile_speed_vs_naive,
     LAB3_BONUS_POINTS_GPU_TT_SPEED, 0},
    {"selftest_naive_below_tiled_threshold", GROUP_SELFTEST,
     selftest_naive_below_tiled_threshold, 0, 0},
};

int main(int argc, char **argv)
{
    grader_suite suite = {"lab3", "Lab 3 - shared-memory tiles", "handouts/lab3-shared-tiles.md",
                          GRADER_IMPLEMENTATION, tests, sizeof tests / sizeof tests[0]};
    return grader_main(&suite, argc, argv);
}
