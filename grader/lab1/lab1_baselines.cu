/* Lab 1's mistakes on purpose, which its self-tests show the speed checks
 * reject (the copy kernel they time against is grader/baselines). */
#include "lab1_checks.h"

#include "cuda_check.h"

__global__ void image_double_swapped_kernel(const float *in, float *out, int width, int height)
{
    /* The mistake on purpose: x walks down a column, so the 16 threads of a
     * half-warp touch 16 different rows, width*4 bytes apart. */
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    int col = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < height && col < width) {
        long long offset = (long long)row * width + col;
        out[offset] = 2.0f * in[offset];
    }
}

extern "C" lab_status lab1_baseline_image_double_swapped(const float *in, float *out, int width,
                                                         int height)
{
    dim3 block(16, 16);
    dim3 grid((height + 15) / 16, (width + 15) / 16);
    image_double_swapped_kernel<<<grid, block>>>(in, out, width, height);
    LAB_LAUNCH_CHECK();
    return LAB_OK;
}

__global__ void scale_block_stride_kernel(const float *in, float *out, float factor, int n)
{
    /* The mistake on purpose: the loop advances by one block, not by the
     * whole grid, so every block walks the whole array. The values are
     * right (each is written LAB1_STRIDE_BLOCKS times); only time tells. */
    for (long long i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x)
        out[i] = factor * in[i];
}

extern "C" lab_status lab1_baseline_scale_block_stride(const float *in, float *out, float factor,
                                                       int n)
{
    scale_block_stride_kernel<<<LAB1_STRIDE_BLOCKS, LAB1_STRIDE_THREADS>>>(in, out, factor, n);
    LAB_LAUNCH_CHECK();
    return LAB_OK;
}
