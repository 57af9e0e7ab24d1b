/* The one kernel the recorder's GPU tests launch: small, named, and easy to
 * check (it doubles its input). */
#include "cuda_check.h"

extern "C" void activity_test_scale(float *x, int n, cudaStream_t stream);

__global__ void activity_test_scale_kernel(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= 2.0f;
}

extern "C" void activity_test_scale(float *x, int n, cudaStream_t stream)
{
    activity_test_scale_kernel<<<(n + 255) / 256, 256, 0, stream>>>(x, n);
    CUDA_CHECK(cudaGetLastError());
}
