/* Lab 3 - shared-memory tiles: reference solution.
 *
 * Read top to bottom: the tiled kernel's index helpers and kernel, the
 * thread-tile extension's helpers and kernel, then the entry points.
 * handouts/lab3-shared-tiles.md explains each step. */
#include "lab3.h"

#include "cuda_check.h"

/* ceil(n / d) that cannot overflow for n near INT_MAX. */
static LAB_HOST_DEVICE int ceil_div(int n, int d) { return n / d + (n % d != 0); }

/* ------------------------------------------- tiled kernel: index helpers */

LAB_HOST_DEVICE lab_dim3 lab3_tiled_grid(int m, int n, int tile)
{
    lab_dim3 grid = {ceil_div(n, tile), ceil_div(m, tile), 1};
    return grid;
}

LAB_HOST_DEVICE int lab3_phase_count(int k, int tile) { return ceil_div(k, tile); }

LAB_HOST_DEVICE lab3_coord lab3_tile_a_element(lab_dim3 block_idx, lab_dim3 thread_idx, int tile,
                                               int phase)
{
    /* The block's rows of A, the phase's columns; x along the row so that a
     * warp reads 32 consecutive floats. */
    lab3_coord e = {block_idx.y * tile + thread_idx.y, phase * tile + thread_idx.x};
    return e;
}

LAB_HOST_DEVICE lab3_coord lab3_tile_b_element(lab_dim3 block_idx, lab_dim3 thread_idx, int tile,
                                               int phase)
{
    /* The phase's rows of B, the block's columns. */
    lab3_coord e = {phase * tile + thread_idx.y, block_idx.x * tile + thread_idx.x};
    return e;
}

/* --------------------------------------------------------- tiled kernel */

template <int TILE>
__global__ void tiled_matmul_kernel(const float *a, const float *b, float *c, int m, int n,
                                    int k)
{
    /* Sized at compile time: 2 * TILE * TILE * 4 bytes (8 KiB for 32). */
    __shared__ float a_tile[TILE][TILE];
    __shared__ float b_tile[TILE][TILE];
    lab_dim3 block = lab_block_idx(), thread = lab_thread_idx();
    int ty = thread.y, tx = thread.x;
    float sum = 0.0f;
    int phases = lab3_phase_count(k, TILE);
    for (int phase = 0; phase < phases; ++phase) {
        lab3_coord ea = lab3_tile_a_element(block, thread, TILE, phase);
        lab3_coord eb = lab3_tile_b_element(block, thread, TILE, phase);
        /* Outside a matrix, store 0: it adds nothing to the dot product, so
         * the loop below needs no bounds test. */
        a_tile[ty][tx] = (ea.row < m && ea.col < k) ? a[ea.row * k + ea.col] : 0.0f;
        b_tile[ty][tx] = (eb.row < k && eb.col < n) ? b[eb.row * n + eb.col] : 0.0f;
        /* Read after write: the loop reads elements other threads stored. */
        __syncthreads();
#pragma unroll
        for (int q = 0; q < TILE; ++q)
            sum += a_tile[ty][q] * b_tile[q][tx];
        /* Write after read: the next phase overwrites the tiles while a
         * slower warp may still be reading this phase's values. */
        __syncthreads();
    }
    /* Threads outside C took part in every load and barrier above; only
     * now do they stand aside. */
    int row = block.y * TILE + ty, col = block.x * TILE + tx;
    if (row < m && col < n)
        c[row * n + col] = sum;
}

/* ------------------------------------ thread tile (extension): helpers */

LAB_HOST_DEVICE lab_dim3 lab3_thread_tile_grid(int m, int n)
{
    lab_dim3 grid = {ceil_div(n, LAB3_TT_BN), ceil_div(m, LAB3_TT_BM), 1};
    return grid;
}

LAB_HOST_DEVICE lab3_coord lab3_thread_tile_output(lab_dim3 block_idx, lab_dim3 thread_idx,
                                                   int i)
{
    /* Thread (x, y) owns column x of the block tile and rows y*TM .. y*TM+TM-1:
     * a warp (32 consecutive x) stores 32 consecutive floats of one row. */
    lab3_coord e = {block_idx.y * LAB3_TT_BM + thread_idx.y * LAB3_TT_TM + i,
                    block_idx.x * LAB3_TT_BN + thread_idx.x};
    return e;
}

/* The thread's number in the block, as the hardware forms warps. */
static LAB_HOST_DEVICE int linear_thread(lab_dim3 thread_idx)
{
    return thread_idx.y * LAB3_TT_THREADS_X + thread_idx.x;
}

LAB_HOST_DEVICE lab3_coord lab3_thread_tile_a_element(lab_dim3 block_idx, lab_dim3 thread_idx,
                                                      int phase)
{
    /* BM x BK = 512 elements for 512 threads; consecutive threads walk a
     * row of BK = 8 floats (32 bytes, one sector), then the next row. */
    int t = linear_thread(thread_idx);
    lab3_coord e = {block_idx.y * LAB3_TT_BM + t / LAB3_TT_BK, phase * LAB3_TT_BK + t % LAB3_TT_BK};
    return e;
}

LAB_HOST_DEVICE lab3_coord lab3_thread_tile_b_element(lab_dim3 block_idx, lab_dim3 thread_idx,
                                                      int phase)
{
    /* BK x BN = 512 elements; consecutive threads walk a row of BN floats. */
    int t = linear_thread(thread_idx);
    lab3_coord e = {phase * LAB3_TT_BK + t / LAB3_TT_BN, block_idx.x * LAB3_TT_BN + t % LAB3_TT_BN};
    return e;
}

/* -------------------------------------- thread tile (extension): kernel */

__global__ void thread_tile_matmul_kernel(const float *a, const float *b, float *c, int m, int n,
                                          int k)
{
    __shared__ float a_tile[LAB3_TT_BM][LAB3_TT_BK];
    __shared__ float b_tile[LAB3_TT_BK][LAB3_TT_BN];
    lab_dim3 block = lab_block_idx(), thread = lab_thread_idx();
    int block_row = block.y * LAB3_TT_BM, block_col = block.x * LAB3_TT_BN;
    /* Where this thread's outputs sit inside the block tile. */
    lab3_coord first = lab3_thread_tile_output(block, thread, 0);
    int local_row = first.row - block_row, local_col = first.col - block_col;

    /* Fully unrolled loops index acc[] with constants, so it lives in
     * registers, not in (slow, off-chip) local memory. */
    float acc[LAB3_TT_TM];
#pragma unroll
    for (int i = 0; i < LAB3_TT_TM; ++i)
        acc[i] = 0.0f;

    int phases = lab3_phase_count(k, LAB3_TT_BK);
    for (int phase = 0; phase < phases; ++phase) {
        lab3_coord ea = lab3_thread_tile_a_element(block, thread, phase);
        lab3_coord eb = lab3_thread_tile_b_element(block, thread, phase);
        a_tile[ea.row - block_row][ea.col - phase * LAB3_TT_BK] =
            (ea.row < m && ea.col < k) ? a[ea.row * k + ea.col] : 0.0f;
        b_tile[eb.row - phase * LAB3_TT_BK][eb.col - block_col] =
            (eb.row < k && eb.col < n) ? b[eb.row * n + eb.col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int q = 0; q < LAB3_TT_BK; ++q) {
            /* One shared load of B serves TM multiply-adds: the point of
             * the thread tile. The A values are the same for the whole warp
             * (one row), so they are broadcasts. */
            float b_value = b_tile[q][local_col];
#pragma unroll
            for (int i = 0; i < LAB3_TT_TM; ++i)
                acc[i] += a_tile[local_row + i][q] * b_value;
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < LAB3_TT_TM; ++i) {
        lab3_coord out = lab3_thread_tile_output(block, thread, i);
        if (out.row < m && out.col < n)
            c[out.row * n + out.col] = acc[i];
    }
}

/* ------------------------------------------------ occupancy (TODO 3.2) */

LAB_HOST_DEVICE static int round_up_to(int value, int unit)
{
    return (value + unit - 1) / unit * unit;
}

LAB_HOST_DEVICE static int smaller(int a, int b) { return a < b ? a : b; }

LAB_HOST_DEVICE int lab3_resident_blocks(lab3_sm_limits sm, lab3_block_resources block)
{
    if (block.threads_per_block <= 0 || block.threads_per_block > sm.max_threads_per_block ||
        block.registers_per_thread > sm.max_registers_per_thread ||
        block.shared_bytes_per_block > sm.max_shared_bytes_per_block)
        return 0;
    /* Threads: a block occupies whole warps, even when its last one is partial. */
    int warps_per_block = (block.threads_per_block + sm.warp_size - 1) / sm.warp_size;
    int by_threads = (sm.max_threads_per_sm / sm.warp_size) / warps_per_block;
    int blocks = smaller(by_threads, sm.max_blocks_per_sm);
    /* Registers: per warp, rounded up to the allocation unit; a warp lives
     * in one part of the register file, so the warps that fit are counted
     * part by part. */
    int registers_per_warp =
        round_up_to(block.registers_per_thread * sm.warp_size, sm.register_allocation_unit);
    if (registers_per_warp > 0) {
        int warps_per_part =
            (sm.registers_per_sm / sm.register_file_partitions) / registers_per_warp;
        blocks = smaller(blocks, warps_per_part * sm.register_file_partitions / warps_per_block);
    }
    /* Shared memory: the block's bytes plus the system's reservation,
     * rounded up to the allocation unit. */
    int shared_per_block = round_up_to(block.shared_bytes_per_block +
                                           sm.reserved_shared_bytes_per_block,
                                       sm.shared_allocation_unit);
    if (shared_per_block > 0)
        blocks = smaller(blocks, sm.shared_bytes_per_sm / shared_per_block);
    return blocks;
}

/* --------------------------------------------------------- entry points */

/* A is m x k, B is k x n, C is m x n: every size positive, each matrix
 * small enough for the kernels' int indices, and no NULL pointer. On
 * failure nothing is launched and lab_last_error() says why. */
static lab_status check_matmul_args(const char *function, const void *a, const void *b,
                                    const void *c, int m, int n, int k)
{
    const int rows[3] = {m, k, m}, cols[3] = {k, n, n}; /* A, B, C */
    for (int i = 0; i < 3; ++i) {
        lab_status status = lab_check_extents(function, rows[i], cols[i], 1);
        if (status != LAB_OK)
            return status;
    }
    return lab_check_pointers(function, a, b, c);
}

/* gridDim.y is limited to 65535 blocks: say so instead of failing the launch. */
static lab_status check_grid(const char *function, lab_dim3 grid, int m)
{
    if (grid.y > 65535)
        return lab_fail(LAB_ERR_UNSUPPORTED, "%s: M=%d needs %d rows of blocks, more than the "
                        "65535 gridDim.y allows", function, m, grid.y);
    return LAB_OK;
}

template <int TILE>
static lab_status launch_tiled(const float *a, const float *b, float *c, int m, int n, int k)
{
    lab_dim3 grid = lab3_tiled_grid(m, n, TILE);
    lab_status status = check_grid("lab3_matmul_tiled", grid, m);
    if (status != LAB_OK)
        return status;
    dim3 block(TILE, TILE);
    tiled_matmul_kernel<TILE><<<lab_to_dim3(grid), block>>>(a, b, c, m, n, k);
    LAB_LAUNCH_CHECK();
    return LAB_OK;
}

extern "C" lab_status lab3_matmul_tiled_with(int tile, const float *a, const float *b, float *c,
                                             int m, int n, int k)
{
    lab_status status = check_matmul_args("lab3_matmul_tiled", a, b, c, m, n, k);
    if (status != LAB_OK)
        return status;
    switch (tile) {
    case 16: return launch_tiled<16>(a, b, c, m, n, k);
    case 32: return launch_tiled<32>(a, b, c, m, n, k);
    }
    return lab_fail(LAB_ERR_UNSUPPORTED, "lab3_matmul_tiled_with: tile %d is not compiled "
                    "(16 and 32 are)", tile);
}

extern "C" lab_status lab3_matmul_tiled(const float *a, const float *b, float *c, int m, int n,
                                        int k)
{
    return lab3_matmul_tiled_with(LAB3_TILE, a, b, c, m, n, k);
}

extern "C" lab_status lab3_matmul_thread_tile(const float *a, const float *b, float *c, int m,
                                              int n, int k)
{
    lab_status status = check_matmul_args("lab3_matmul_thread_tile", a, b, c, m, n, k);
    lab_dim3 grid = lab3_thread_tile_grid(m, n);
    if (status == LAB_OK)
        status = check_grid("lab3_matmul_thread_tile", grid, m);
    if (status != LAB_OK)
        return status;
    dim3 block(LAB3_TT_THREADS_X, LAB3_TT_THREADS_Y);
    thread_tile_matmul_kernel<<<lab_to_dim3(grid), block>>>(a, b, c, m, n, k);
    LAB_LAUNCH_CHECK();
    return LAB_OK;
}

extern "C" lab_status lab3_tiled_kernel_attributes(struct cudaFuncAttributes *out)
{
    if (!out)
        return lab_fail(LAB_ERR_NULL_POINTER, "lab3_tiled_kernel_attributes: out is NULL");
    LAB_CUDA_TRY(cudaFuncGetAttributes(out, (const void *)tiled_matmul_kernel<LAB3_TILE>));
    return LAB_OK;
}

extern "C" lab_status lab3_thread_tile_kernel_attributes(struct cudaFuncAttributes *out)
{
    if (!out)
        return lab_fail(LAB_ERR_NULL_POINTER, "lab3_thread_tile_kernel_attributes: out is NULL");
    LAB_CUDA_TRY(cudaFuncGetAttributes(out, (const void *)thread_tile_matmul_kernel));
    return LAB_OK;
}

extern "C" lab_status lab3_kernel_occupancy(lab3_kernel kernel, struct cudaFuncAttributes *attributes,
                                            int *threads_per_block, int *runtime_blocks_per_sm)
{
    if (!attributes || !threads_per_block || !runtime_blocks_per_sm)
        return lab_fail(LAB_ERR_NULL_POINTER, "lab3_kernel_occupancy: an output pointer is NULL");
    const void *function = NULL;
    switch (kernel) {
    case LAB3_KERNEL_TILED_16:
        function = (const void *)tiled_matmul_kernel<16>;
        *threads_per_block = 16 * 16;
        break;
    case LAB3_KERNEL_TILED_32:
        function = (const void *)tiled_matmul_kernel<32>;
        *threads_per_block = 32 * 32;
        break;
    case LAB3_KERNEL_THREAD_TILE:
        function = (const void *)thread_tile_matmul_kernel;
        *threads_per_block = LAB3_TT_THREADS_X * LAB3_TT_THREADS_Y;
        break;
    default:
        return lab_fail(LAB_ERR_UNSUPPORTED, "lab3_kernel_occupancy: no kernel number %d",
                        (int)kernel);
    }
    LAB_CUDA_TRY(cudaFuncGetAttributes(attributes, function));
    LAB_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(runtime_blocks_per_sm, function,
                                                               *threads_per_block, 0));
    return LAB_OK;
}
