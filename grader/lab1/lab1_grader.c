/* Lab 1 grader: the list of tests, their groups and their points (out of
 * 105). Thresholds, partial-credit floors and their calibration:
 * lab1_rubric.h. */
#include "harness.h"
#include "lab1_checks.h"
#include "lab1_rubric.h"

static const grader_test tests[] = {
    /* CPU: the index helpers on simulated launches, one TODO each. */
    GRADER_TEST(cpu_global_index_1d_coverage, GROUP_CPU, 5, "1.1"),
    GRADER_TEST(cpu_blocks_for_is_ceil_div, GROUP_CPU, 5, "1.2"),
    GRADER_TEST(cpu_pixel_offset_coverage, GROUP_CPU, 5, "1.4"),
    GRADER_TEST(cpu_pixel_offset_layout, GROUP_CPU, 5, "1.4"),        /* x -> column */
    GRADER_TEST(cpu_image_grid_covers_image, GROUP_CPU, 5, "1.5"),
    GRADER_TEST(cpu_voxel_coords, GROUP_CPU, 5, "1.7"),
    GRADER_TEST(cpu_voxel_offset_coverage_and_layout, GROUP_CPU, 5, "1.8"),
    GRADER_TEST(cpu_volume_grid_covers_volume, GROUP_CPU, 5, "1.9"),
    GRADER_TEST(cpu_grid_stride_coverage, GROUP_CPU, 5, "1.10"),
    GRADER_TEST(cpu_warp_and_lane, GROUP_CPU, 5, "1.11"),
    GRADER_TEST(cpu_strided_sectors, GROUP_CPU, 5, "1.6"),
    /* GPU: the kernels. */
    GRADER_TEST(gpu_vector_add, GROUP_GPU, 8, "1.1-1.3"),
    GRADER_TEST(gpu_image_double, GROUP_GPU, 8, "1.4, 1.5"),
    GRADER_TEST(gpu_volume_depth_scale, GROUP_GPU, 8, "1.7-1.9"),
    /* The lesson of TODO(1.10) is the stride: a loop that advances by one
     * block also writes the right values (many times over), so the stride is
     * checked by its speed first, and the kernel's correctness points depend
     * on it. */
    GRADER_TEST(gpu_grid_stride_bandwidth, GROUP_GPU, 4, "1.10"),
    GRADER_GATED(gpu_scale_grid_stride, GROUP_GPU, 2, gpu_grid_stride_bandwidth, "1.10"),
    /* n close to INT_MAX: the loop's index must not overflow (16 GiB). */
    GRADER_NEEDS_MEMORY(gpu_scale_grid_stride_near_int_max, GROUP_GPU, 2,
                        gpu_grid_stride_bandwidth, LAB1_NEAR_INT_MAX_GIB, "1.10"),
    GRADER_TEST(gpu_whoami, GROUP_GPU, 8, "1.11"),
    GRADER_TEST(gpu_rejects_bad_input, GROUP_GPU, 4),
    GRADER_SPEED(gpu_image_bandwidth, GROUP_GPU, 6, "fraction_of_copy_bandwidth",
                 LAB1_IMAGE_COPY_FRACTION_FLOOR, LAB1_IMAGE_COPY_FRACTION_REFERENCE, "1.4, 1.5"),
    GRADER_TEST(selftest_swapped_mapping_is_slow, GROUP_SELFTEST, 0),
    GRADER_TEST(selftest_block_stride_is_slow, GROUP_SELFTEST, 0),
};

int main(int argc, char **argv)
{
    grader_suite suite = {"lab1", "Lab 1 - thread indexing", LAB1_HANDOUT,
                          GRADER_IMPLEMENTATION, tests, sizeof tests / sizeof tests[0],
                          .concurrent_streams = 0};
    return grader_main(&suite, argc, argv);
}
