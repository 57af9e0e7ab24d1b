/* Unit tests of grader/support/ and of common/'s status codes (no GPU
 * needed), one function per test. */
#ifndef COMMON_TESTS_H
#define COMMON_TESTS_H

#include "harness.h"

void compare_accepts_within_tolerance(void **state);
void compare_rejects_nan_and_inf(void **state);
void compare_reports_coordinates(void **state);
void compare_diagnoses_unwritten(void **state);
void compare_diagnoses_transposed(void **state);
void compare_diagnoses_partial_tile(void **state);
void compare_diagnoses_row_shift(void **state);
void compare_ints_exact(void **state);
void compare_dot_tolerance_grows_with_k(void **state);
void guard_detects_write_after_end(void **state);
void guard_detects_write_before_start(void **state);
void guard_poison_is_recognisable_nan(void **state);
void cpu_matmul_ref_small_product(void **state);
void cpu_matmul_ref_threads_change_nothing(void **state);
void rng_is_deterministic(void **state);
void rng_integers_stay_in_range(void **state);
void rng_seed_from_env_overrides(void **state);
void stats_median_and_percentiles(void **state);
void stats_summary_and_empty_input(void **state);
void launch_sim_numbers_like_hardware(void **state);
void coverage_finds_gaps_repeats_and_strays(void **state);
void lab_status_validates_extents(void **state);
void lab_status_validates_pointers(void **state);
void sectors_consecutive_floats_take_four(void **state);
void sectors_strided_and_broadcast(void **state);
void sectors_wide_accesses_and_inactive_lanes(void **state);
void sectors_survey_groups_lanes_into_warps(void **state);
void sectors_survey_handles_partial_warps(void **state);
void tile_loads_find_each_fault(void **state);

#endif
