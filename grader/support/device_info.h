/* What GPU are we on? Safe to call where there is no driver or no device. */
#ifndef DEVICE_INFO_H
#define DEVICE_INFO_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Number of usable CUDA devices; 0 when there is no driver or no device,
 * or when CUDA_VISIBLE_DEVICES is set and empty;
 * -1 when CUDA failed to start for another reason (device_count_error
 * says which), which callers treat as a failure, never as "no GPU". */
int device_count(void);
const char *device_count_error(void);

/* One line, e.g. "NVIDIA H100 80GB HBM3, sm_90, 132 SMs, 50 MiB L2, 79 GiB,
 * driver 13.0, runtime 13.0"; or "no CUDA device (...reason...)". */
void device_describe(char *out, size_t size);

/* L2 size in bytes of the current device (0 if unknown). */
size_t device_l2_bytes(void);

/* Upper bounds of what the current device can do, from its attributes (0
 * when unknown): FP32 FLOP/s at its peak clock, and DRAM bytes per second.
 * No kernel beats them; a timing that does did not do its work. */
double device_fp32_peak_flops(void);
double device_dram_peak_bytes_per_s(void);

#ifdef __cplusplus
}
#endif

#endif
