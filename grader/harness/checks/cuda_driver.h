/* The CUDA driver's entry points, looked up at run time. Linking libcuda
 * would keep every grader from starting on a machine without a GPU driver,
 * where its CPU checks must still run; so the watches (launch_watch.h,
 * copy_watch.h, graph_watch.h) find the driver functions they need here. */
#ifndef CUDA_DRIVER_H
#define CUDA_DRIVER_H

#ifdef __cplusplus
extern "C" {
#endif

/* The driver's function `name` (libcuda.so.1, loaded if the process has
 * not loaded it yet), or NULL where there is no driver or no such name. */
void *cuda_driver_symbol(const char *name);

#ifdef __cplusplus
}
#endif

#endif
