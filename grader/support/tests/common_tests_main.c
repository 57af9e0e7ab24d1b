#include "common_tests.h"

#define CPU_TEST(fn) GRADER_TEST(fn, GROUP_CPU, 0)

static const grader_test tests[] = {
    CPU_TEST(compare_accepts_within_tolerance),
    CPU_TEST(compare_rejects_nan_and_inf),
    CPU_TEST(compare_reports_coordinates),
    CPU_TEST(compare_diagnoses_unwritten),
    CPU_TEST(compare_diagnoses_transposed),
    CPU_TEST(compare_diagnoses_partial_tile),
    CPU_TEST(compare_diagnoses_row_shift),
    CPU_TEST(compare_ints_exact),
    CPU_TEST(compare_dot_tolerance_grows_with_k),
    CPU_TEST(guard_detects_write_after_end),
    CPU_TEST(guard_detects_write_before_start),
    CPU_TEST(guard_poison_is_recognisable_nan),
    CPU_TEST(cpu_matmul_ref_small_product),
    CPU_TEST(cpu_matmul_ref_threads_change_nothing),
    CPU_TEST(rng_is_deterministic),
    CPU_TEST(rng_integers_stay_in_range),
    CPU_TEST(rng_seed_from_env_overrides),
    CPU_TEST(stats_median_and_percentiles),
    CPU_TEST(stats_summary_and_empty_input),
    CPU_TEST(launch_sim_numbers_like_hardware),
    CPU_TEST(coverage_finds_gaps_repeats_and_strays),
    CPU_TEST(lab_status_validates_extents),
    CPU_TEST(lab_status_validates_pointers),
    CPU_TEST(sectors_consecutive_floats_take_four),
    CPU_TEST(sectors_strided_and_broadcast),
    CPU_TEST(sectors_wide_accesses_and_inactive_lanes),
    CPU_TEST(sectors_survey_groups_lanes_into_warps),
    CPU_TEST(sectors_survey_handles_partial_warps),
    CPU_TEST(tile_loads_find_each_fault),
};

int main(int argc, char **argv)
{
    grader_suite suite = {"common", "common/ and grader/support/ unit tests",
                          "grader/support/", GRADER_IMPLEMENTATION, tests,
                          sizeof tests / sizeof tests[0], .concurrent_streams = 0};
    return grader_main(&suite, argc, argv);
}
