/* Lab 5 grader: the tests (CPU simulation and GPU runs). */
#ifndef LAB5_CHECKS_H
#define LAB5_CHECKS_H

#include "lab5.h"

#ifdef __cplusplus
extern "C" {
#endif

#define LAB5_HANDOUT "handouts/lab5-reduction-divergence.md"

/* CPU: the helpers on a simulated block: do the steps add up, which warps
 * diverge, which shared-memory banks collide. */
void cpu_divergent_steps_add_up(void **state);
void cpu_strided_steps_contiguous(void **state);
void cpu_sequential_steps_convergent(void **state);

/* GPU: the sums of stages (1)-(3), the contract on *out, bad input. */
void gpu_divergent_sums(void **state);
void gpu_strided_sums(void **state);
void gpu_sequential_sums(void **state);
void gpu_reduction_race_free(void **state);
void gpu_sum_overwrites_out(void **state);
void gpu_rejects_bad_input(void **state);
/* GPU: the no-atomic experiment's hook, lab5_set_partials (0 points). */
void gpu_block_sums_without_atomic(void **state);
/* GPU: speed of stages (1)-(3). */
void gpu_sequential_speed_vs_divergent(void **state);
void gpu_required_stages_vs_copy(void **state);
/* GPU: the extension, stages (4)-(6). */
void gpu_first_add_sums(void **state);
void gpu_first_add_fraction_of_copy(void **state);
void gpu_warp_shuffle_sums(void **state);
void gpu_warp_shuffle_fraction_of_copy(void **state);
void gpu_grid_stride_sums(void **state);
void gpu_grid_stride_near_int_max(void **state);
void gpu_grid_stride_fraction_of_copy(void **state);
/* Self-tests: the yardsticks stay below the thresholds. */
void selftest_sequential_below_bonus_thresholds(void **state);

#ifdef __cplusplus
}
#endif

#endif
