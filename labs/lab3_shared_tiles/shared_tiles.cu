/* Lab 3 - shared-memory tiles.
 *
 * Fill in the TODOs in order; each names the section of
 * handouts/lab3-shared-tiles.md that explains it. Check your work with
 *     make check-lab3
 * The grader runs your index helpers on the CPU (simulating a launch) and,
 * on a GPU machine, checks your kernels' results on awkward sizes, their
 * shared memory use and their speed against a naive kernel.
 *
 * TODO(3.1)-(3.8) are the lab ((3.2) is occupancy); (3.9)-(3.12), the
 * thread tile, are the extension (bonus points). The entry points at the end (validation,
 * launch) are written for you. The placeholder return values only keep the
 * file compiling: replace them. */
#include "lab3.h"

#include "cuda_check.h"

/* ------------------------------------------- tiled kernel: index helpers */

LAB_HOST_DEVICE lab_dim3 lab3_tiled_grid(int m, int n, int tile)
{
    /* TODO(3.1): the grid of tile x tile blocks that covers an m x n C, x
     * along the columns as in lab 2. Sizes need not be multiples of the
     * tile. (handout section 2.2) */
    lab_dim3 grid = {1, 1, 1};
    return grid;
}

LAB_HOST_DEVICE int lab3_phase_count(int k, int tile)
{
    /* TODO(3.1, continued): how many phases of `tile` columns of A (rows
     * of B) does a block need to cover the whole inner dimension k?
     * (handout section 2.2) */
    return 1;
}

LAB_HOST_DEVICE lab3_coord lab3_tile_a_element(lab_dim3 block_idx, lab_dim3 thread_idx, int tile,
                                               int phase)
{
    /* TODO(3.3): in phase `phase`, the block copies the tile of A that its
     * rows of C need; this thread copies the element that lands at
     * [thread_idx.y][thread_idx.x] of the shared tile. Return its row and
     * column in A. Which rows of A belong to the block, which columns to
     * the phase? And does threadIdx.x walk along a row of A (coalesced) or
     * down a column? (handout section 4) */
    lab3_coord e = {0, 0};
    return e;
}

LAB_HOST_DEVICE lab3_coord lab3_tile_b_element(lab_dim3 block_idx, lab_dim3 thread_idx, int tile,
                                               int phase)
{
    /* TODO(3.3, continued): the same for the tile of B: which rows of B
     * belong to the phase, which columns to the block? (handout section 4) */
    lab3_coord e = {0, 0};
    return e;
}

/* --------------------------------------------------------- tiled kernel */

template <int TILE>
__global__ void tiled_matmul_kernel(const float *a, const float *b, float *c, int m, int n,
                                    int k)
{
    /* TODO(3.4): declare two TILE x TILE __shared__ float arrays, one for
     * the tile of A and one for the tile of B. (handout section 3) */

    /* The phases: in each, the block stores one tile of A and one of B,
     * and every thread adds that tile's share to its dot product. The
     * TODOs of one phase go inside the loop, in this order. */
    for (int phase = 0; phase < lab3_phase_count(k, TILE); ++phase) {
        /* TODO(3.4, continued): store into [threadIdx.y][threadIdx.x] of
         * each shared tile the element your TODO(3.3) helpers name for this
         * phase, or 0.0f when that element lies outside its matrix. What
         * would storing nothing there do to the dot product? (handout
         * section 6) */

        /* TODO(3.5): between storing the tiles and reading them, a
         * __syncthreads(). Which threads wrote the values this thread is
         * about to read, and what could it read without the barrier?
         * (handout section 5) */

        /* TODO(3.6): this phase's share of the dot product: this thread's
         * row of the A tile times its column of the B tile, added to a
         * float declared before the loop, so that it lives across phases.
         * Put #pragma unroll on the loop: nvcc would likely unroll it
         * anyway, the pragma makes complete unrolling a guarantee. Why can
         * this loop be unrolled completely, but not lab 2's loop over k?
         * (handout section 7) */

        /* TODO(3.7): a second __syncthreads() at the end of each phase. Why
         * is it needed, when the barrier of TODO(3.5) already separates the
         * stores from the reads? Picture two warps of the block, one a
         * phase ahead of the other. (handout section 5) */
    }

    /* TODO(3.8): after the last phase, write the sum to C if this thread's
     * element lies inside C. Why must a thread outside C still run every
     * phase instead of returning at the top of the kernel?
     * (handout section 6) */
}

/* ------------------------------------ thread tile (extension): helpers */

LAB_HOST_DEVICE lab_dim3 lab3_thread_tile_grid(int m, int n)
{
    /* TODO(3.9): the grid of LAB3_TT_BM x LAB3_TT_BN block tiles covering
     * an m x n C, x along the columns. (handout section 8) */
    lab_dim3 grid = {1, 1, 1};
    return grid;
}

LAB_HOST_DEVICE lab3_coord lab3_thread_tile_output(lab_dim3 block_idx, lab_dim3 thread_idx,
                                                   int i)
{
    /* TODO(3.10): the position in C of output i of this thread. A block of
     * LAB3_TT_THREADS_X x LAB3_TT_THREADS_Y threads covers a BM x BN tile;
     * each thread owns LAB3_TT_TM consecutive rows of one column. Which
     * assignment makes a warp store 32 consecutive floats of C for each i?
     * (handout section 8) */
    lab3_coord e = {0, 0};
    return e;
}

LAB_HOST_DEVICE lab3_coord lab3_thread_tile_a_element(lab_dim3 block_idx, lab_dim3 thread_idx,
                                                      int phase)
{
    /* TODO(3.11): the element of A this thread copies into the BM x BK
     * shared tile in phase `phase`. The block's 512 threads copy the 512
     * elements, one each, and each warp's 32 loads should touch as few
     * 32-byte sectors as possible. (handout section 8) */
    lab3_coord e = {0, 0};
    return e;
}

LAB_HOST_DEVICE lab3_coord lab3_thread_tile_b_element(lab_dim3 block_idx, lab_dim3 thread_idx,
                                                      int phase)
{
    /* TODO(3.11, continued): the same for the BK x BN tile of B.
     * (handout section 8) */
    lab3_coord e = {0, 0};
    return e;
}

/* -------------------------------------- thread tile (extension): kernel */

__global__ void thread_tile_matmul_kernel(const float *a, const float *b, float *c, int m, int n,
                                          int k)
{
    /* TODO(3.12): the thread-tile kernel. Shared tiles of BM x BK (A) and
     * BK x BN (B) floats, and LAB3_TT_TM float accumulators per thread. Per
     * phase of BK: store one element of each tile (your TODO(3.11) helpers;
     * 0.0f outside the matrices), barrier, then for each of the BK steps
     * read the B value once and use it for all TM outputs, barrier. At the
     * end write the outputs that lie inside C (TODO(3.10)). Loops whose trip
     * counts are compile-time constants, fully unrolled, keep the
     * accumulators in registers: what happens to them otherwise?
     * (handout section 8) */
}

/* ------------------------------------------------------------------------
 * Occupancy (TODO 3.2): plain arithmetic on the SM's limits, no kernel. */

LAB_HOST_DEVICE int lab3_resident_blocks(lab3_sm_limits sm, lab3_block_resources block)
{
    /* TODO(3.2): how many blocks that each ask for `block` one SM holds at
     * once: the smallest of four limits, each a whole number of blocks.
     * Threads are resident in whole warps; registers are handed to each
     * warp in units of sm.register_allocation_unit, from one of the
     * sm.register_file_partitions parts of the register file; shared memory
     * is handed to each block in units of sm.shared_allocation_unit, after
     * adding what the system reserves per block. Return 0 when a single
     * block cannot run at all (too many threads, registers per thread or
     * shared bytes). Handout section 3.1 works every step on this lab's
     * kernels; the grader checks your answer on the CPU against worked
     * cases and, on a GPU, against cudaOccupancyMaxActiveBlocksPerMultiprocessor. */
    return 0;
}

/* ------------------------------------------------------------------------
 * Entry points: written for you. */

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
