/* Copy-shaped launches the memory-bound benches share: the graders' 1D
 * copy kernel and the device-to-device cudaMemcpy ceiling, over n floats. */
#ifndef BENCH_COPY_H
#define BENCH_COPY_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    const float *in;
    float *out;
    size_t n;
} bench_copy_call;

int bench_launch_copy_kernel(void *ctx);   /* baseline_copy_floats */
int bench_launch_memcpy(void *ctx);        /* cudaMemcpyAsync, device to device */

#ifdef __cplusplus
}
#endif

#endif
