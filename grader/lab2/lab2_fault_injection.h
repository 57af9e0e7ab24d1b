/* Lab 2: CUDA calls that fail on purpose, to drive the host flow's error
 * paths. Every grader of lab 2 is linked with --wrap for cudaMalloc,
 * cudaFree, cudaMemcpy and cudaMemcpyAsync (grader/lab2/CMakeLists.txt), so
 * each such call, the student's included, goes through
 * lab2_fault_injection.c first. Armed, the n-th cudaMalloc (or the n-th
 * copy) returns an error without reaching CUDA, and every allocation that
 * succeeded and every cudaFree is counted: what the host flow left
 * allocated is then known whatever the student's code says about itself. */
#ifndef LAB2_FAULT_INJECTION_H
#define LAB2_FAULT_INJECTION_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { LAB2_FAULT_MALLOC, LAB2_FAULT_COPY } lab2_fault_kind;

/* The errors made: what a real failure of that call returns. */
enum { LAB2_MALLOC_FAULT = cudaErrorMemoryAllocation, LAB2_COPY_FAULT = cudaErrorInvalidValue };

typedef struct {
    int mallocs, copies; /* calls seen while armed, the failed one included */
    int injected;        /* the n-th call came and was failed */
    int live;            /* allocations that succeeded and were not freed */
} lab2_fault_counts;

/* From now on the `nth` (1-based) call of `kind` fails; counts start at 0. */
void lab2_faults_arm(lab2_fault_kind kind, int nth);
/* Stops failing and counting; returns the counts since lab2_faults_arm. */
lab2_fault_counts lab2_faults_disarm(void);

#ifdef __cplusplus
}
#endif

#endif
