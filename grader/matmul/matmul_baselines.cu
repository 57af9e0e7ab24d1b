#include "matmul_baselines.h"

#include "cuda_check.h"

/* The block of lab 2 (LAB2_BLOCK_X x LAB2_BLOCK_Y): a warp is 32 threads
 * along x. */
enum { BLOCK_X = 32, BLOCK_Y = 8 };

/* The mistake on purpose: x walks DOWN a column of C. A warp then holds 32
 * rows: each A load touches 32 rows of A (K*4 bytes apart) and each C store
 * 32 rows of C, one 32-byte sector per 4-byte float. */
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

extern "C" lab_status matmul_baseline_uncoalesced(const float *a, const float *b, float *c,
                                                  int m, int n, int k)
{
    /* Only the grader calls this, with shapes it chose, so there is no
     * student input to validate; this guard turns a grader bug into an
     * error instead of a fault. */
    if (m <= 0 || n <= 0 || k <= 0)
        return lab_fail(LAB_ERR_INVALID_SIZE, "matmul_baseline_uncoalesced: %dx%dx%d", m, n, k);
    lab_status status = lab_check_pointers("matmul_baseline_uncoalesced", a, b, c);
    if (status != LAB_OK)
        return status;
    /* The same block turned: x over rows, y over columns. */
    dim3 block(BLOCK_X, BLOCK_Y);
    dim3 grid((m + BLOCK_X - 1) / BLOCK_X, (n + BLOCK_Y - 1) / BLOCK_Y);
    naive_uncoalesced_kernel<<<grid, block>>>(a, b, c, m, n, k);
    LAB_LAUNCH_CHECK();
    return LAB_OK;
}
