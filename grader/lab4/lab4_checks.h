/* Lab 4 grader: the tests (CPU simulation and GPU runs). */
#ifndef LAB4_CHECKS_H
#define LAB4_CHECKS_H

#include "lab4.h"

#ifdef __cplusplus
extern "C" {
#endif

#define LAB4_HANDOUT "handouts/lab4-transpose-bank-conflicts.md"

/* CPU: the student's index helpers on simulated launches. */
void cpu_tile_grid(void **state);
void cpu_every_element_moved_once(void **state);
void cpu_global_accesses_coalesced(void **state);
void cpu_bank_conflict_degree(void **state);
/* CPU, the final stage (e), bonus. */
void cpu_vector_every_element_moved_once(void **state);
void cpu_vector_accesses_coalesced(void **state);
void cpu_vector_bank_conflict_degree(void **state);

/* GPU: results, bad input, speed. */
void gpu_smem_correct(void **state);
void gpu_padded_correct(void **state);
void gpu_multirow_correct(void **state);
void gpu_transpose_race_free(void **state);
void gpu_rejects_bad_input(void **state);
void gpu_smem_speed_vs_naive(void **state);
void gpu_padded_speed_vs_unpadded(void **state);
void gpu_multirow_fraction_of_copy(void **state);
void gpu_bandwidth_table(void **state);
/* GPU, the final stage (e), bonus. */
void gpu_vector_correct(void **state);
void gpu_vector_race_free(void **state);
void gpu_vector_fraction_of_copy(void **state);
/* Self-tests: the grader's yardsticks stay below the thresholds they set. */
void selftest_naive_below_smem_threshold(void **state);
void selftest_unpadded_below_padded_threshold(void **state);
void selftest_unpadded_below_copy_threshold(void **state);
void selftest_unpadded_below_vector_threshold(void **state);

#ifdef __cplusplus
}
#endif

#endif
