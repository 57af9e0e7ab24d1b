/* Lab 8 grader: the tests (CPU simulation, GPU runs, speed). */
#ifndef LAB8_CHECKS_H
#define LAB8_CHECKS_H

#include "lab8.h"

#define LAB8_HANDOUT "handouts/lab8-tensor-cores.md"

#ifdef __cplusplus
extern "C" {
#endif

/* CPU: the student's index helpers, every warp and thread of a launch
 * simulated (lab8_cpu_checks.c). */
void cpu_global_tiles_cover_c(void **state);
void cpu_fragments_cover_block_tile(void **state);
void cpu_chunk_loads_cover_tiles(void **state);

/* GPU: results, bad input, races (lab8_gpu_checks.c). */
void gpu_wmma_global_correct(void **state);
void gpu_wmma_shared_correct(void **state);
void gpu_stages_match_cublas_at_4096(void **state);
void gpu_stages_race_free(void **state);
void gpu_rejects_bad_input(void **state);

/* GPU speed at LAB8_SPEED_SIZE^3 (lab8_speed_checks.c). */
void gpu_wmma_shared_speed_vs_lab7(void **state);
void gpu_wmma_shared_fraction_of_cublas(void **state);
/* Self-tests: lab 7's warp tile, in stage 2's place, stays below both. */
void selftest_lab7_warp_tile_below_wmma_shared_threshold(void **state);
void selftest_lab7_warp_tile_below_cublas_fraction(void **state);

#ifdef __cplusplus
}
#endif

#endif
