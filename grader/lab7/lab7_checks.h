/* Lab 7 grader: the tests (CPU simulation, GPU runs, speed). */
#ifndef LAB7_CHECKS_H
#define LAB7_CHECKS_H

#include "lab7.h"

#ifdef __cplusplus
extern "C" {
#endif

#define LAB7_HANDOUT "handouts/lab7-warp-tiling.md"

/* CPU: the student's index helpers, every thread of a block simulated. */
void cpu_block_tile_1d_outputs(void **state);
void cpu_block_tile_2d_outputs(void **state);
void cpu_float4_loads_cover_tiles(void **state);
void cpu_warp_tile_coverage(void **state);
/* The optional final stage (bonus): the block count and the tile choice. */
void cpu_sized_tile_choice(void **state);
/* The grader's own rule for it (handout section 11.2), which its CPU and
 * GPU checks hold the student's to: the blocks of a bm x bn tiling of an
 * m x n C (edges rounded up), and the tile to launch on `sms` SMs (the
 * one whose busiest SM finishes first, weighing each tile's work by its
 * rate, LAB7_TILE_RATE_*). */
long long lab7_grader_tile_blocks(int m, int n, int bm, int bn);
int lab7_grader_tile(int m, int n, int sms);

/* CPU: what the compiler made of the kernels, from the build's ptxas report
 * (lab7_static_checks.c). */
void cpu_kernel_resources(void **state);
/* GPU: results, bad input. */
void gpu_block_tile_1d_correct(void **state);
void gpu_block_tile_2d_correct(void **state);
void gpu_vectorised_correct(void **state);
void gpu_warp_tile_correct(void **state);
void gpu_stages_race_free(void **state);
void gpu_stages_match_cublas_at_4096(void **state);
void gpu_rejects_bad_input(void **state);
void gpu_any_size_correct(void **state);
void gpu_sized_correct(void **state);

/* GPU speed at 4096^3 (lab7_speed_checks.c). */
void gpu_block_tile_1d_speed_vs_lab3(void **state);
void gpu_block_tile_2d_speed_vs_lab3(void **state);
void gpu_vectorised_speed_vs_lab3(void **state);
void gpu_warp_tile_speed_vs_lab3(void **state);
void gpu_warp_tile_fraction_of_cublas(void **state);
void gpu_sgemm_table(void **state);
void gpu_sized_speed_vs_lab3(void **state); /* the final stage, at LAB7_SIZED_SPEED_SIZE^3 */
/* Self-tests: lab 3's kernels stay below the thresholds they would be held to. */
void selftest_lab3_tiled_below_block_tile_1d_threshold(void **state);
void selftest_lab3_thread_tile_below_warp_tile_threshold(void **state);
void selftest_lab3_thread_tile_below_cublas_threshold(void **state);
/* The lab's stage 4 stays below the final stage's threshold at its size. */
void selftest_warp_tile_below_sized_threshold(void **state);

#ifdef __cplusplus
}
#endif

#endif
