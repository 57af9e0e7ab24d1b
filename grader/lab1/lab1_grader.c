/* Lab 1 grader: the list of tests, their groups and their points. */
#include "harness.h"
#include "lab1_checks.h"
#include "rubric.h"

static const grader_test tests[] = {
    {"cpu_global_index_1d_coverage", GROUP_CPU, cpu_global_index_1d_coverage,
     LAB1_POINTS_GLOBAL_INDEX_1D, 0},
    {"cpu_blocks_for_is_ceil_div", GROUP_CPU, cpu_blocks_for_is_ceil_div, LAB1_POINTS_BLOCKS_FOR,
     0},
    {"cpu_pixel_offset_coverage", GROUP_CPU, cpu_pixel_offset_coverage,
     LAB1_POINTS_PIXEL_COVERAGE, 0},
    {"cpu_pixel_offset_layout", GROUP_CPU, cpu_pixel_offset_layout, LAB1_POINTS_PIXEL_LAYOUT, 0},
    {"cpu_image_grid_covers_image", GROUP_CPU, cpu_image_grid_covers_image,
     LAB1_POINTS_IMAGE_GRID, 0},
    {"cpu_voxel_coords", GROUP_CPU, cpu_voxel_coords, LAB1_POINTS_VOXEL_COORDS, 0},
    {"cpu_voxel_offset_coverage_and_layout", GROUP_CPU, cpu_voxel_offset_coverage_and_layout,
     LAB1_POINTS_VOXEL_OFFSET, 0},
    {"cpu_volume_grid_covers_volume", GROUP_CPU, cpu_volume_grid_covers_volume,
     LAB1_POINTS_VOLUME_GRID, 0},
    {"cpu_grid_stride_coverage", GROUP_CPU, cpu_grid_stride_coverage,
     LAB1_POINTS_GRID_STRIDE_SIM, 0},
    {"cpu_warp_and_lane", GROUP_CPU, cpu_warp_and_lane, LAB1_POINTS_WARP_LANE, 0},
    {"gpu_vector_add", GROUP_GPU, gpu_vector_add, LAB1_POINTS_GPU_VECTOR_ADD, 0},
    {"gpu_image_double", GROUP_GPU, gpu_image_double, LAB1_POINTS_GPU_IMAGE, 0},
    {"gpu_volume_depth_scale", GROUP_GPU, gpu_volume_depth_scale, LAB1_POINTS_GPU_VOLUME, 0},
    {"gpu_scale_grid_stride", GROUP_GPU, gpu_scale_grid_stride, LAB1_POINTS_GPU_GRID_STRIDE, 0},
    {"gpu_whoami", GROUP_GPU, gpu_whoami, LAB1_POINTS_GPU_WHOAMI, 0},
    {"gpu_rejects_bad_input", GROUP_GPU, gpu_rejects_bad_input, LAB1_POINTS_GPU_BAD_INPUT, 0},
    {"gpu_image_bandwidth", GROUP_GPU, gpu_image_bandwidth, LAB1_POINTS_GPU_IMAGE_SPEED, 0},
    {"selftest_swapped_mapping_is_slow", GROUP_SELFTEST, selftest_swapped_mapping_is_slow, 0, 0},
};

int main(int argc, char **argv)
{
    grader_suite suite = {"lab1", "Lab 1 - thread indexing", "handouts/lab1-indexing.md",
                          GRADER_IMPLEMENTATION, tests, sizeof tests / sizeof tests[0]};
    return grader_main(&suite, argc, argv);
}
