/* Lab 5's grader yardstick (grader/lab5/lab5_baselines.h declares it): the
 * divergent reduction of stage (1).
 *
 * It is the answer to the lab's stage (1), so it lives in solutions/ and a
 * student copy gets it as machine code only
 * (grader/lab5/lab5_answer_libraries.list). It is written apart from the
 * reference's helpers so that the grader's yardstick cannot change when a
 * student's helpers do. */
#include "lab5.h"

#include "cuda_check.h"

/* Pairs 1, 2, 4, ... apart; thread t works when t % (2*stride) == 0, so
 * from the first step on every warp holds working and idle threads. One
 * atomicAdd per block, as the lab's stages do.
 *
 * Written the way the lab asks for stage (1): the loop runs to blockDim.x
 * and the modulo takes a run-time stride. With the block size as a
 * compile-time constant instead, the compiler unrolls the loop and turns
 * the modulo into a mask, and this kernel ran 1.5x faster than the lab's
 * stage (1) on an H200 (540 against 357 GB/s), which is not the yardstick
 * the lesson measures against. */
__global__ void baseline_divergent_sum(const float *in, float *out, int n)
{
    __shared__ float partial[LAB5_BLOCK];
    const int t = threadIdx.x;
    const size_t i = (size_t)blockIdx.x * blockDim.x + t;
    partial[t] = i < (size_t)n ? in[i] : 0.0f;
    __syncthreads();
    for (int stride = 1; stride < (int)blockDim.x; stride *= 2) {
        if (t % (2 * stride) == 0)
            partial[t] += partial[t + stride];
        __syncthreads();
    }
    if (t == 0)
        atomicAdd(out, partial[0]);
}

/* The caller (the grader) passes valid arguments. */
extern "C" lab_status lab5_baseline_sum_divergent(const float *in, float *out, int n)
{
    LAB_CUDA_TRY(cudaMemsetAsync(out, 0, sizeof *out, 0));
    const unsigned blocks = (unsigned)((n + LAB5_BLOCK - 1) / LAB5_BLOCK);
    baseline_divergent_sum<<<blocks, LAB5_BLOCK>>>(in, out, n);
    LAB_LAUNCH_CHECK();
    return LAB_OK;
}
