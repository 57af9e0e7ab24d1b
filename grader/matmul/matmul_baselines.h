/* Deliberately slow matmul baselines for the speed checks. They are
 * mistakes on purpose, never a lab's answer: a lab that needs a correct
 * kernel as its yardstick times another lab's reference solution instead
 * (lab 3 times lab 2's; see docs/design.md). */
#ifndef MATMUL_BASELINES_H
#define MATMUL_BASELINES_H

#include "lab_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The naive kernel with threadIdx.x picking the ROW of C (32 x 8 blocks):
 * right results, uncoalesced accesses. Lab 2's speed check must reject it. */
lab_status matmul_baseline_uncoalesced(const float *a, const float *b, float *c, int m, int n,
                                       int k);

#ifdef __cplusplus
}
#endif

#endif
