/* Lab 3 grader: the tests (CPU simulation and GPU runs). */
#ifndef LAB3_CHECKS_H
#define LAB3_CHECKS_H

#include "lab3.h"

#ifdef __cplusplus
extern "C" {
#endif

#define LAB3_HANDOUT "handouts/lab3-shared-tiles.md"

/* CPU: the student's index helpers on simulated launches. */
void cpu_tiled_grid_and_phases(void **state);
void cpu_tile_load_elements(void **state);
void cpu_thread_tile_grid(void **state);
void cpu_thread_tile_outputs(void **state);
void cpu_thread_tile_loads(void **state);
/* TODO(3.2), occupancy (lab3_occupancy_checks.c). */
void cpu_resident_blocks_worked_cases(void **state);
void gpu_resident_blocks_match_runtime(void **state);
/* Static: the build's ptxas report (lab3_static_checks.c). */
void cpu_tiled_uses_shared_tiles(void **state);
void cpu_thread_tile_uses_shared_tiles(void **state);

/* GPU: the tiled kernel. */
void gpu_tiled_tile_edges(void **state);
void gpu_tiled_awkward_shapes(void **state);
void gpu_tiled_race_free(void **state);
void gpu_rejects_bad_input(void **state);
void gpu_tiled_speed_vs_naive(void **state);
void gpu_tile16_speed_metrics(void **state);
/* GPU: the thread tile (extension). */
void gpu_thread_tile_correct(void **state);
void gpu_thread_tile_speed_vs_naive(void **state);
void selftest_naive_below_tiled_threshold(void **state);

#ifdef __cplusplus
}
#endif

#endif
