/* The baseline the lab 2 speed check compares against. */
#include "lab2_checks.h"

#include "cuda_check.h"

/* The naive kernel with the mistake on purpose: x walks DOWN a column of C.
 * A warp then holds 32 rows: each A load touches 32 rows of A (K*4 bytes
 * apart) and each C store 32 rows of C, one 32-byte sector per 4-byte
 * float, where the coalesced mapping needs 4 sectors for all 32. */
__global__ void naive_uncoalesced_kernel(const float *a, const float *b, float *c, int m, int n,
                                         int k)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    int col = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= m || col >= n)
        return;
    float sum = 0.0f;
    for (int p = 0; p < k; ++p)
        sum += a[row * k + p] * b[p * n + col];
    c[row * n + col] = sum;
}

extern "C" lab_status lab2_baseline_uncoalesced(const float *a, const float *b, float *c, int m,
                                                int n, int k)
{
    lab_status status = lab_check_extents("lab2_baseline_uncoalesced", m, k, 1);
    if (status == LAB_OK)
        status = lab_check_extents("lab2_baseline_uncoalesced", k, n, 1);
    if (status == LAB_OK)
        status = lab_check_extents("lab2_baseline_uncoalesced", m, n, 1);
    if (status == LAB_OK)
        status = lab_check_pointers("lab2_baseline_uncoalesced", a, b, c);
    if (status != LAB_OK)
        return status;
    /* The same 32 x 8 block as the lab, turned: x over rows, y over columns. */
    dim3 block(LAB2_BLOCK_X, LAB2_BLOCK_Y);
    dim3 grid((m + LAB2_BLOCK_X - 1) / LAB2_BLOCK_X, (n + LAB2_BLOCK_Y - 1) / LAB2_BLOCK_Y);
    naive_uncoalesced_kernel<<<grid, block>>>(a, b, c, m, n, k);
    LAB_LAUNCH_CHECK();
    return LAB_OK;
}
