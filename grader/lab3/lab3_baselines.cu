/* The baseline the lab 3 speed checks compare against: the naive kernel of
 * lab 2 done right (x picks the column, so every access is coalesced), and
 * nothing more. Tiles must beat it by reusing what they load. */
#include "lab3_checks.h"

#include "cuda_check.h"

enum { NAIVE_BLOCK_X = 32, NAIVE_BLOCK_Y = 8 };

__global__ void naive_coalesced_kernel(const float *a, const float *b, float *c, int m, int n,
                                       int k)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= m || col >= n)
        return;
    float sum = 0.0f;
    for (int p = 0; p < k; ++p)
        sum += a[row * k + p] * b[p * n + col];
    c[row * n + col] = sum;
}

extern "C" lab_status lab3_baseline_naive(const float *a, const float *b, float *c, int m, int n,
                                          int k)
{
    lab_status status = lab_check_extents("lab3_baseline_naive", m, k, 1);
    if (status == LAB_OK)
        status = lab_check_extents("lab3_baseline_naive", k, n, 1);
    if (status == LAB_OK)
        status = lab_check_extents("lab3_baseline_naive", m, n, 1);
    if (status == LAB_OK)
        status = lab_check_pointers("lab3_baseline_naive", a, b, c);
    if (status != LAB_OK)
        return status;
    dim3 block(NAIVE_BLOCK_X, NAIVE_BLOCK_Y);
    dim3 grid((n + NAIVE_BLOCK_X - 1) / NAIVE_BLOCK_X, (m + NAIVE_BLOCK_Y - 1) / NAIVE_BLOCK_Y);
    naive_coalesced_kernel<<<grid, block>>>(a, b, c, m, n, k);
    LAB_LAUNCH_CHECK();
    return LAB_OK;
}
