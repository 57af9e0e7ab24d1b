/* Lab 8 - tensor cores: the contract between your code and the grader.
 *
 * Do not change this file: the grader is compiled against it. The entry
 * point takes DEVICE pointers, validates its sizes, launches one kernel and
 * returns without synchronising; the grader synchronises and checks.
 *
 * The index helper is yours to write (the TODO in tensor_cores.cu). Your kernel
 * calls it, and the grader also calls it on the CPU for every thread of a
 * simulated launch, so a mistake shows up even without a GPU. */
#ifndef LAB8_H
#define LAB8_H

#include "lab_dim3.h"
#include "lab_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The launch shape the lab fixes (the grader simulates exactly this one). */
enum { LAB8_BLOCK = 256 };

/* ---- index helpers (TODOs) ---- */

/* TODO(8.1) index of the element this thread owns in a 1D launch. */
LAB_HOST_DEVICE int lab8_element_index(lab_dim3 block_idx, lab_dim3 block_dim,
                                       lab_dim3 thread_idx);

/* ---- entry points (device pointers; sizes in elements) ---- */

/* out[i] = factor * in[i] for i < n; blocks of LAB8_BLOCK threads. */
lab_status lab8_scale(const float *in, float *out, float factor, int n);

#ifdef __cplusplus
}
#endif

#endif
