/* measure_count_mismatches (measure_common.h): the comparison runs on the
 * GPU, so checking a 256 MiB output costs a fraction of a millisecond
 * instead of two copies to the host. */
#include "measure_common.h"

#include <cuda_runtime_api.h>

/* Bit-for-bit: a copy or a transpose moves floats without arithmetic, and
 * the NaN poison of an unwritten element differs from every input. */
__global__ void count_mismatches_kernel(const unsigned *a, const unsigned *b, size_t n,
                                        unsigned long long *count)
{
    unsigned long long mine = 0;
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        mine += a[i] != b[i];
    if (mine)
        atomicAdd(count, mine);
}

extern "C" size_t measure_count_mismatches(const float *a, const float *b, size_t n)
{
    unsigned long long *count = NULL, host = 0;
    if (cudaMalloc((void **)&count, sizeof *count) != cudaSuccess)
        return (size_t)-1;
    cudaMemset(count, 0, sizeof *count);
    count_mismatches_kernel<<<1024, 256>>>((const unsigned *)a, (const unsigned *)b, n, count);
    cudaError_t err = cudaMemcpy(&host, count, sizeof host, cudaMemcpyDeviceToHost);
    cudaFree(count);
    return err == cudaSuccess ? (size_t)host : (size_t)-1;
}
