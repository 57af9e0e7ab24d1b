/* Lab 3 - the race demo's broken kernel: the reference tiled kernel for
 * TILE 32 WITHOUT its second __syncthreads().
 *
 * It lives in solutions/ because, but for one line, it is lab 3's answer.
 * grader/lab3/race_demo.cu runs it (lab3_race_demo --kernel mutant) and the
 * lab3.racecheck.missing_barrier_is_reported test expects
 * compute-sanitizer's racecheck to report it. A student copy has neither. */
#include "lab_status.h"

#include "cuda_check.h"

enum { MUTANT_TILE = 32 };

/* The reference kernel with its index helpers written inline (they live in
 * another translation unit). Without the second barrier, a warp that
 * finishes its share of the inner product goes on to store the next
 * phase's row of b_tile while other warps are still reading the current
 * phase's values of that row. */
__global__ void tiled_matmul_missing_second_barrier(const float *a, const float *b, float *c,
                                                    int m, int n, int k)
{
    __shared__ float a_tile[MUTANT_TILE][MUTANT_TILE];
    __shared__ float b_tile[MUTANT_TILE][MUTANT_TILE];
    int ty = threadIdx.y, tx = threadIdx.x;
    int row = blockIdx.y * MUTANT_TILE + ty, col = blockIdx.x * MUTANT_TILE + tx;
    float sum = 0.0f;
    int phases = (k + MUTANT_TILE - 1) / MUTANT_TILE;
    for (int phase = 0; phase < phases; ++phase) {
        int a_col = phase * MUTANT_TILE + tx, b_row = phase * MUTANT_TILE + ty;
        a_tile[ty][tx] = (row < m && a_col < k) ? a[row * k + a_col] : 0.0f;
        b_tile[ty][tx] = (b_row < k && col < n) ? b[b_row * n + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int q = 0; q < MUTANT_TILE; ++q)
            sum += a_tile[ty][q] * b_tile[q][tx];
        /* The second __syncthreads() belonged here. */
    }
    if (row < m && col < n)
        c[row * n + col] = sum;
}

/* The runner validates its own (small, positive) sizes before calling. */
extern "C" lab_status lab3_race_demo_mutant(const float *a, const float *b, float *c, int m,
                                            int n, int k)
{
    dim3 block(MUTANT_TILE, MUTANT_TILE);
    dim3 grid((n + MUTANT_TILE - 1) / MUTANT_TILE, (m + MUTANT_TILE - 1) / MUTANT_TILE);
    tiled_matmul_missing_second_barrier<<<grid, block>>>(a, b, c, m, n, k);
    LAB_LAUNCH_CHECK();
    return LAB_OK;
}
