/* Misbehaving kernels for the harness demo: one never finishes, one writes
 * through a null pointer. The harness must time out the first, report the
 * second as a failure, and run the next test in a clean process. */
#include "cuda_check.h"

extern "C" {
int demo_launch_hang(void);
int demo_launch_fault(void);
int demo_launch_ok(void);
}

__global__ void spin_forever(volatile int *flag)
{
    while (*flag == 0) {
    }
}

__global__ void write_through_null(float *p) { p[threadIdx.x] = 1.0f; }

__global__ void add_one(int *x) { *x += 1; }

extern "C" int demo_launch_hang(void)
{
    int *flag = NULL;
    CUDA_CHECK(cudaMalloc(&flag, sizeof *flag));
    CUDA_CHECK(cudaMemset(flag, 0, sizeof *flag));
    spin_forever<<<1, 1>>>(flag);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize()); /* never returns */
    return 0;
}

extern "C" int demo_launch_fault(void)
{
    write_through_null<<<1, 32>>>(NULL);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize()); /* fails: illegal address */
    return 0;
}

extern "C" int demo_launch_ok(void)
{
    int *x = NULL, host = 41;
    CUDA_CHECK(cudaMalloc(&x, sizeof *x));
    CUDA_CHECK(cudaMemcpy(x, &host, sizeof host, cudaMemcpyHostToDevice));
    add_one<<<1, 1>>>(x);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(&host, x, sizeof host, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(x));
    return host;
}
