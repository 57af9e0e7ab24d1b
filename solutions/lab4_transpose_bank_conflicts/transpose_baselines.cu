/* Lab 4's grader baselines (grader/lab4/lab4_baselines.h declares them).
 *
 * The unpadded tile is the answer to the lab's version (b), so it lives in
 * solutions/ and a student copy gets it as machine code only
 * (grader/lab4/lab4_answer_libraries.list). It is written apart from the
 * reference's helpers so that the grader's yardstick cannot change when a
 * student's helpers do. */
#include <stdint.h>

#include "lab4.h"

#include "cuda_check.h"

enum { NAIVE_BLOCK_X = 32, NAIVE_BLOCK_Y = 8 };

/* (a) x picks the column of `in`: reads are coalesced, and each warp's 32
 * writes land `rows` floats apart, in 32 different sectors. */
__global__ void baseline_naive_transpose(const float *__restrict__ in, float *__restrict__ out,
                                         int rows, int cols)
{
    const int col = blockIdx.x * NAIVE_BLOCK_X + threadIdx.x;
    const int row = blockIdx.y * NAIVE_BLOCK_Y + threadIdx.y;
    if (row < rows && col < cols)
        out[col * rows + row] = in[row * cols + col];
}

/* (b) tile[32][32]: both global sides coalesced, the column read a 32-way
 * bank conflict. */
__global__ void baseline_unpadded_transpose(const float *__restrict__ in,
                                            float *__restrict__ out, int rows, int cols)
{
    __shared__ float tile[LAB4_TILE][LAB4_TILE];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int in_row = blockIdx.y * LAB4_TILE + ty, in_col = blockIdx.x * LAB4_TILE + tx;
    if (in_row < rows && in_col < cols)
        tile[ty][tx] = in[in_row * cols + in_col];
    __syncthreads();
    const int out_row = blockIdx.x * LAB4_TILE + ty, out_col = blockIdx.y * LAB4_TILE + tx;
    if (out_row < cols && out_col < rows)
        out[out_row * rows + out_col] = tile[tx][ty];
}

/* The callers (the grader) pass valid sizes and buffers. */
extern "C" lab_status lab4_baseline_naive(const float *in, float *out, int rows, int cols)
{
    const dim3 grid((cols + NAIVE_BLOCK_X - 1) / NAIVE_BLOCK_X,
                    (rows + NAIVE_BLOCK_Y - 1) / NAIVE_BLOCK_Y);
    baseline_naive_transpose<<<grid, dim3(NAIVE_BLOCK_X, NAIVE_BLOCK_Y)>>>(in, out, rows, cols);
    LAB_LAUNCH_CHECK();
    return LAB_OK;
}

extern "C" lab_status lab4_baseline_unpadded(const float *in, float *out, int rows, int cols)
{
    const dim3 grid((cols + LAB4_TILE - 1) / LAB4_TILE, (rows + LAB4_TILE - 1) / LAB4_TILE);
    baseline_unpadded_transpose<<<grid, dim3(LAB4_TILE, LAB4_TILE)>>>(in, out, rows, cols);
    LAB_LAUNCH_CHECK();
    return LAB_OK;
}
