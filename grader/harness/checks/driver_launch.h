/* A driver kernel launch, as CUPTI's callback hands it over.
 *
 * The launch, copy and stream-order watches read the same six driver
 * launch callbacks (cuLaunchKernel, cuLaunchKernelEx,
 * cuLaunchCooperativeKernel, each with its _ptsz twin), each keeping them
 * in a different parameter struct; this reads them in one place. Only
 * where CUPTI is built in (ACTIVITY_RECORDER_HAVE_CUPTI). */
#ifndef DRIVER_LAUNCH_H
#define DRIVER_LAUNCH_H

#if ACTIVITY_RECORDER_HAVE_CUPTI
#include <cuda.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    CUfunction f;
    unsigned grid[3], block[3], shared_bytes; /* all 0 for cuLaunchKernelEx without a config */
    CUstream stream;
    void **params; /* kernelParams */
    void **extra;  /* the packed arguments; NULL for the cooperative launch */
    int per_thread; /* a _ptsz callback: the default stream is the thread's */
} driver_launch;

/* 1 with *out filled when `cbid` is one of the six driver launch callbacks
 * and `function_params` its parameters (CUpti_CallbackData's
 * functionParams); 0 for any other callback. */
int driver_launch_decode(unsigned cbid, const void *function_params, driver_launch *out);

#ifdef __cplusplus
}
#endif

#endif
#endif
