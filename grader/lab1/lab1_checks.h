/* Lab 1 grader: the tests (CPU simulation and GPU runs) and the baselines. */
#ifndef LAB1_CHECKS_H
#define LAB1_CHECKS_H

#include <stddef.h>

#include "lab1.h"

#define LAB1_HANDOUT "handouts/lab1-indexing.md"

#ifdef __cplusplus
extern "C" {
#endif

/* CPU: the student's index helpers on simulated launches. */
void cpu_global_index_1d_coverage(void **state);
void cpu_blocks_for_is_ceil_div(void **state);
void cpu_pixel_offset_coverage(void **state);
void cpu_pixel_offset_layout(void **state);
void cpu_image_grid_covers_image(void **state);
void cpu_voxel_coords(void **state);
void cpu_voxel_offset_coverage_and_layout(void **state);
void cpu_volume_grid_covers_volume(void **state);
void cpu_grid_stride_coverage(void **state);
void cpu_warp_and_lane(void **state);
/* TODO(1.6) (lab1_stride_checks.c). */
void cpu_strided_sectors(void **state);

/* Cascades: the launches use lab1_blocks_for (TODO(1.2)) and the grids
 * (TODO(1.5), (1.9)). When the helper is wrong for these sizes, one
 * sentence naming it ("It uses lab1_blocks_for (TODO(1.2)), which is wrong:
 * ... Fix that first ...") goes into `out` and 1 is returned; else 0. */
int lab1_blame_blocks_for(int n, int block_size, char *out, size_t size);
int lab1_blame_image_grid(int width, int height, char *out, size_t size);
int lab1_blame_volume_grid(int nx, int ny, int nz, char *out, size_t size);

/* GPU: the student's kernels. */
void gpu_vector_add(void **state);
void gpu_image_double(void **state);
void gpu_volume_depth_scale(void **state);
void gpu_scale_grid_stride(void **state);
void gpu_scale_grid_stride_near_int_max(void **state);
void gpu_whoami(void **state);
void gpu_rejects_bad_input(void **state);
void gpu_image_bandwidth(void **state);
void gpu_grid_stride_bandwidth(void **state);
void selftest_swapped_mapping_is_slow(void **state);
void selftest_block_stride_is_slow(void **state);

/* Baselines (lab1_baselines.cu). */
/* The image kernel with threadIdx.x picking the ROW: what a swapped mapping
 * costs. Correct output, uncoalesced access. */
lab_status lab1_baseline_image_double_swapped(const float *in, float *out, int width, int height);
/* The grid-stride kernel stepping by one block instead of the whole grid:
 * right values, LAB1_STRIDE_BLOCKS times the work. */
lab_status lab1_baseline_scale_block_stride(const float *in, float *out, float factor, int n);

#ifdef __cplusplus
}
#endif

#endif
