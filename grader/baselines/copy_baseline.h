/* A plain copy kernel: the bandwidth yardstick of every memory-bound speed
 * check (lab 1's image kernel), and cudaMemcpy as the ceiling. It reads
 * and writes each float once, coalesced, with nothing else to slow it, so
 * "fraction of copy bandwidth" needs no absolute GB/s. */
#ifndef COPY_BASELINE_H
#define COPY_BASELINE_H

#include <stddef.h>

#include "lab_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out[i] = in[i] for i < n (DEVICE pointers); launches and returns without
 * synchronising. */
lab_status baseline_copy_floats(const float *in, float *out, size_t n);

/* The same copy by a device-to-device cudaMemcpyAsync in the legacy default
 * stream: the ceiling of the memory-bound labs (4, 5), whose best kernels
 * reach a large fraction of it. */
lab_status baseline_memcpy_floats(const float *in, float *out, size_t n);

#ifdef __cplusplus
}
#endif

#endif
