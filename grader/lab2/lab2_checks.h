/* Lab 2 grader: the tests (CPU simulation and GPU runs). */
#ifndef LAB2_CHECKS_H
#define LAB2_CHECKS_H

#include <stdint.h>

#include "lab2.h"
#include "matmul_checks.h"

#ifdef __cplusplus
extern "C" {
#endif

#define LAB2_HANDOUT "handouts/lab2-naive-matmul.md"

/* CPU: the student's index helpers on simulated launches. */
void cpu_row_col_layout(void **state);
void cpu_threads_cover_c(void **state);
void cpu_launch_grid_covers_c(void **state);
void cpu_warp_sectors_coalesced(void **state);
/* TODO(2.10), (2.11): timing with CUDA events (lab2_timing_checks.c). */
void cpu_gflops_worked_cases(void **state);
void gpu_timing_rejects_bad_input(void **state);
void gpu_timing_matches_device(void **state);

/* GPU: the student's entry points. */
void gpu_naive_awkward_shapes(void **state);
void gpu_host_flow(void **state);
void gpu_rejects_bad_input(void **state);
void gpu_speed_vs_uncoalesced(void **state);
void gpu_metrics_vs_cpu_reference(void **state);
void selftest_uncoalesced_baseline_is_slow(void **state);

/* Inside a GPU test: runs lab2_matmul_host once on seeded inputs of shape s
 * with the activity recorder on, and fails the test unless the GPU saw the
 * host flow's work: A and B copied in, a kernel, then C copied out. Right
 * numbers alone do not prove that: C computed on the CPU is right too. */
void host_flow_expect_device_work(matmul_shape s, uint64_t seed);

/* One call of lab2_matmul_host(p->a, p->b, c) as a student call, held to
 * the host flow's contract from the inside (copy_watch.h). */
typedef struct {
    lab_status status;
    int kept;      /* copy_watch_verdict's result */
    char why[512]; /* and its sentence */
} host_flow_result;
void host_flow_call(const char *call, const matmul_problem *p, float *c, host_flow_result *r);
/* Fails the test when the call broke the contract (`call` names it). */
void host_flow_expect_kept(const char *call, const host_flow_result *r);

/* Fault injection (lab2_fault_injection.c): each cudaMalloc and each copy
 * of the host flow failed in turn. */
void gpu_host_flow_fails_cleanly(void **state);


#ifdef __cplusplus
}
#endif

#endif
