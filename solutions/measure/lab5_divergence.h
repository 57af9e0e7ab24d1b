/* Lab 5's divergence experiment (issue 25): five in-block reductions that
 * differ in one thing at a time, so that the classic "divergent against
 * convergent" speed-up splits into what the `%` costs and what divergence
 * costs.
 *
 *   (a) MODULO      interleaved pairs, active when t % (2*stride) == 0
 *                   (the lab's stage (1) and the grader's yardstick)
 *   (b) MASK        the same threads, active when (t & (2*stride-1)) == 0:
 *                   still divergent, no integer division
 *   (c) SEQUENTIAL  pairs blockDim/2 .. 1 apart, active when t < stride:
 *                   convergent, conflict-free (the lab's stage (3))
 *   (d) COMPACTED   the pairs of (a) handed to threads 0, 1, 2, ...
 *                   (index 2*stride*t): convergent like (c), the
 *                   interleaved addressing of (a) and (b), with its bank
 *                   conflicts (the lab's stage (2))
 *   (e) COMPACTED_MODULO  (d), with every thread also evaluating the `%` of
 *                   (a) on its index (always true there, hidden from the
 *                   compiler): convergent at the modulo's price, so that
 *                   (e)/(a) is divergence alone with the `%` kept
 *
 * Every kernel loads one element per thread into s[LAB5_BLOCK], loops to
 * the run-time blockDim.x as the lab's stages do (a compile-time bound
 * lets the compiler unroll the loop and turn the `%` into a mask by
 * itself), and ends its block in one of two ways:
 *   ATOMIC    atomicAdd(out, s[0]), *out zeroed first: exactly the lab's;
 *   PARTIALS  out[blockIdx.x] = s[0]: no atomic, so nothing queues at one
 *             address and the in-block work is all that differs.
 * Launched with LAB5_BLOCK threads per block on the default stream,
 * without synchronising. */
#ifndef LAB5_DIVERGENCE_H
#define LAB5_DIVERGENCE_H

#include "lab_status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    LAB5X_MODULO = 0,
    LAB5X_MASK,
    LAB5X_SEQUENTIAL,
    LAB5X_COMPACTED,
    LAB5X_COMPACTED_MODULO
} lab5x_kernel;
enum { LAB5X_KERNELS = 5 };
typedef enum { LAB5X_ATOMIC = 0, LAB5X_PARTIALS } lab5x_ending;

/* The blocks a launch over n elements uses: the length of `out` for
 * LAB5X_PARTIALS (1 float is enough for LAB5X_ATOMIC). */
int lab5x_blocks(int n);

/* Sums in[0..n) block by block; out as the ending says. */
lab_status lab5x_sum(lab5x_kernel kernel, lab5x_ending ending, const float *in, float *out,
                     int n);

#ifdef __cplusplus
}
#endif

#endif
