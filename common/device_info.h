/* What GPU are we on? Safe to call where there is no driver or no device. */
#ifndef DEVICE_INFO_H
#define DEVICE_INFO_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Number of usable CUDA devices; 0 when there is no driver or no device. */
int device_count(void);

/* One line, e.g. "NVIDIA H100 80GB HBM3, sm_90, 132 SMs, 50 MiB L2, 79 GiB,
 * driver 13.0, runtime 13.0"; or "no CUDA device (...reason...)". */
void device_describe(char *out, size_t size);

/* L2 size in bytes of the current device (0 if unknown). */
size_t device_l2_bytes(void);

#ifdef __cplusplus
}
#endif

#endif
