/* Lab 4 - transposing through shared memory, and bank conflicts.
 *
 * Fill in the TODOs in order; each names the section of
 * handouts/lab4-transpose-bank-conflicts.md that explains it. Check your
 * work with
 *     make check-lab4
 * The grader runs your index helpers on the CPU (every element moved once,
 * coalesced global accesses, the bank conflicts of each warp's shared-memory
 * access) and, on a GPU machine, checks your kernels on awkward shapes and
 * times them at 8192 x 8192 against the naive transpose, the unpadded tile
 * and cudaMemcpy.
 *
 * The entry points at the end (validation, launch) are written for you. The
 * placeholder return values only keep the file compiling: replace them. */
#include <stdint.h>

#include "lab4.h"

#include "cuda_check.h"

/* -------------------------------------------------------- index helpers */

LAB_HOST_DEVICE lab_dim3 lab4_tile_grid(int rows, int cols)
{
    /* TODO(4.1): one block per LAB4_TILE x LAB4_TILE tile of `in`, x over
     * the tile columns and y over the tile rows. Neither size needs to be a
     * multiple of the tile. (handout section 3) */
    lab_dim3 grid = {1, 1, 1};
    return grid;
}

LAB_HOST_DEVICE lab4_coord lab4_load_element(lab_dim3 block_idx, lab_dim3 thread_idx,
                                             lab_dim3 block_dim, int pass)
{
    /* TODO(4.2): the element of `in` this thread loads in pass `pass`. It
     * goes to tile row thread_idx.y + pass * block_dim.y, tile column
     * thread_idx.x. Which tile does block (x, y) own? Make the 32 threads
     * of a warp read 32 neighbours in one row of `in`. (handout section 3) */
    lab4_coord e = {0, 0};
    return e;
}

LAB_HOST_DEVICE lab4_coord lab4_store_element(lab_dim3 block_idx, lab_dim3 thread_idx,
                                              lab_dim3 block_dim, int pass)
{
    /* TODO(4.3): the element of `out` (cols x rows: the transpose) this
     * thread stores in pass `pass`. Where in `out` does the tile of block
     * (x, y) land? Again make a warp's 32 stores 32 neighbours in one row,
     * now a row of `out`. (handout section 3) */
    lab4_coord e = {0, 0};
    return e;
}

LAB_HOST_DEVICE int lab4_tile_write_offset(lab_dim3 thread_idx, lab_dim3 block_dim, int pass,
                                           int pitch)
{
    /* TODO(4.4): the word of the shared tile (rows `pitch` words apart)
     * where this thread puts the value it loaded in pass `pass` (its place
     * is given with TODO(4.2)). (handout section 4) */
    return 0;
}

LAB_HOST_DEVICE int lab4_tile_read_offset(lab_dim3 thread_idx, lab_dim3 block_dim, int pass,
                                          int pitch)
{
    /* TODO(4.4, continued): the word this thread reads for the element it
     * stores in pass `pass` (TODO(4.3)). Which element of `in` is that, and
     * where did the load put it? (handout section 4) */
    return 0;
}

LAB_HOST_DEVICE int lab4_tile_pitch(int padded)
{
    /* TODO(4.5): the row pitch in words: LAB4_TILE for the plain tile, and
     * for the padded tile a pitch that puts the 32 words of a column in 32
     * different banks. (handout section 5) */
    return 0;
}

/* -------------------------------------------------------------- kernels */

/* (b) and (c): one element per thread, LAB4_TILE x LAB4_TILE threads;
 * PADDED selects the pitch. */
template <int PADDED>
__global__ void transpose_tile_kernel(const float *__restrict__ in, float *__restrict__ out,
                                      int rows, int cols)
{
    /* TODO(4.6): a __shared__ float array large enough for a tile at the
     * padded pitch (a compile-time size), and the pitch this version uses:
     * lab4_tile_pitch(PADDED).
     *
     * Then: load the element your TODO(4.2) helper names, if it lies inside
     * `in`, into the tile word of TODO(4.4); a __syncthreads(); store the
     * element of TODO(4.3), if it lies inside `out`, from its tile word.
     * The launch's block shape is known at compile time: pass
     * {LAB4_TILE, LAB4_TILE, 1} as block_dim. Where must the barrier sit so
     * that every thread of the block reaches it, even one whose element is
     * outside the matrix? (handout sections 3 and 6) */
}

/* (d): LAB4_TILE x LAB4_BLOCK_ROWS threads, each moving LAB4_PASSES
 * elements, through the padded tile. */
__global__ void transpose_multirow_kernel(const float *__restrict__ in, float *__restrict__ out,
                                          int rows, int cols)
{
    /* TODO(4.7): the same steps with a loop over the LAB4_PASSES passes
     * around the loads and another around the stores (block_dim is
     * {LAB4_TILE, LAB4_BLOCK_ROWS, 1}), and one barrier between the loops.
     * Unroll both loops (#pragma unroll): why does issuing all of a
     * thread's loads before its first store help? (handout section 7) */
}

/* ========================================================================
 * Final stage (optional, for the hardware limit): TODO(4.8)-(4.12).
 *
 * Bonus points. Do it after (b)-(d) pass: the stages above are the lab;
 * this one takes (d)'s idea further, moving 16 bytes per thread and access
 * through a 64 x 64 tile (handout section 8, "Final stage"). */

/* -------------------------------------------- final stage: index helpers */

LAB_HOST_DEVICE lab_dim3 lab4_vec_tile_grid(int rows, int cols)
{
    /* TODO(4.8): one block per LAB4_VEC_TILE x LAB4_VEC_TILE tile of `in`,
     * x over the tile columns and y over the tile rows, rounding up as in
     * TODO(4.1). (handout section 8.2) */
    lab_dim3 grid = {1, 1, 1};
    return grid;
}

LAB_HOST_DEVICE lab4_coord lab4_vec_load_element(lab_dim3 block_idx, lab_dim3 thread_idx,
                                                 int pass)
{
    /* TODO(4.9): the first element of the float4 of `in` this thread loads
     * in pass `pass`. It goes to tile row thread_idx.y + pass *
     * LAB4_VEC_THREADS, tile columns 4 * thread_idx.x to 4 * thread_idx.x + 3:
     * the 16 threads of a block row read one row segment of 64 floats.
     * (handout section 8.2) */
    lab4_coord e = {0, 0};
    return e;
}

LAB_HOST_DEVICE lab4_coord lab4_vec_store_element(lab_dim3 block_idx, lab_dim3 thread_idx,
                                                  int pass)
{
    /* TODO(4.9, continued): the first element of the float4 of `out` (cols
     * x rows) this thread stores in pass `pass`. The tile of block (x, y)
     * lands where it did in TODO(4.3); the float4 lies along a row of
     * `out`, so again the 16 threads of a block row write one row segment
     * of 64 floats. (handout section 8.2) */
    lab4_coord e = {0, 0};
    return e;
}

LAB_HOST_DEVICE int lab4_vec_tile_write_offset(lab_dim3 thread_idx, int pass, int k, int pitch)
{
    /* TODO(4.10): the tile word where component k (0..3) of the float4
     * loaded in pass `pass` goes: its tile row and column are given with
     * TODO(4.9); rows are `pitch` words apart. (handout section 8.3) */
    return 0;
}

LAB_HOST_DEVICE int lab4_vec_tile_read_offset(lab_dim3 thread_idx, int pass, int k, int pitch)
{
    /* TODO(4.10, continued): the tile word that component k of the float4
     * stored in pass `pass` comes from. The four components are four
     * consecutive elements of a row of `out`: in the tile they are four
     * elements of one column, in four consecutive tile rows (the gather).
     * (handout section 8.3) */
    return 0;
}

LAB_HOST_DEVICE int lab4_vec_tile_pitch(int padded)
{
    /* TODO(4.11): the 64-float tile's row pitch in words: LAB4_VEC_TILE
     * unpadded, and for padded = 1 the pitch with the fewest bank
     * conflicts in the gather of TODO(4.10). Work out the banks of the 32
     * words a warp reads for one component at pitches 64, 65 and 68 before
     * you choose. (handout section 8.4) */
    return 0;
}

/* ------------------------------------------------- final stage: kernel */

/* (e): LAB4_VEC_THREADS x LAB4_VEC_THREADS threads, LAB4_VEC_PASSES float4s
 * each way per thread, through the padded 64-float tile. `vector_loads` is
 * 1 when every float4 of `in` that lies wholly inside it is 16-byte aligned
 * (cols a multiple of 4, `in` aligned); `vector_stores` likewise for `out`
 * (rows a multiple of 4). The entry point works them out. */
__global__ void transpose_vector_kernel(const float *__restrict__ in, float *__restrict__ out,
                                        int rows, int cols, int vector_loads, int vector_stores)
{
    /* TODO(4.12): a __shared__ float array for LAB4_VEC_TILE rows at the
     * pitch lab4_vec_tile_pitch(1) (a compile-time size), and that pitch.
     * The block is always LAB4_VEC_THREADS x LAB4_VEC_THREADS, so the
     * helpers of TODO(4.9) and (4.10) take no block_dim.
     *
     * Loads, one per pass (#pragma unroll): the float4 of TODO(4.9), when
     * its row lies inside `in`. If vector_loads is set and all four of its
     * columns lie inside `in`, read it as one float4 (reinterpret_cast<
     * const float4 *>) and put v.x .. v.w in the words of TODO(4.10);
     * otherwise move its components one float at a time, each only if its
     * column lies inside `in`.
     *
     * One __syncthreads() that every thread reaches.
     *
     * Stores, one per pass: gather components 0..3 from the words of
     * TODO(4.10) and write them as one float4 to `out` when vector_stores is
     * set and all four lie inside `out`; otherwise one float at a time, each
     * only if it lies inside `out` (cols x rows). (handout sections 8.2 to
     * 8.5) */
}

/* ------------------------------------------------------------------------
 * Entry points: written for you. */

/* Positive sizes whose product fits an int (the kernels index with int), no
 * NULL, no overlap, and a grid the hardware can launch. */
static lab_status check_transpose_args(const float *in, const float *out, int rows, int cols)
{
    lab_status status = lab_check_extents("lab4_transpose", rows, cols, 1);
    if (status == LAB_OK)
        status = lab_check_pointers("lab4_transpose", in, out, out);
    if (status != LAB_OK)
        return status;
    const uintptr_t a = (uintptr_t)in, b = (uintptr_t)out;
    const uintptr_t bytes = (uintptr_t)rows * (uintptr_t)cols * sizeof(float);
    if (a < b + bytes && b < a + bytes)
        return lab_fail(LAB_ERR_UNSUPPORTED, "lab4_transpose: in and out overlap; the kernels "
                        "transpose out of place (in-place transposition of a rectangle is a "
                        "different algorithm)");
    if ((rows + LAB4_TILE - 1) / LAB4_TILE > 65535)
        return lab_fail(LAB_ERR_UNSUPPORTED, "lab4_transpose: rows=%d needs more than the 65535 "
                        "rows of blocks gridDim.y allows", rows);
    return LAB_OK;
}

extern "C" lab_status lab4_transpose(lab4_version version, const float *in, float *out,
                                     int rows, int cols)
{
    lab_status status = check_transpose_args(in, out, rows, cols);
    if (status != LAB_OK)
        return status;
    const dim3 grid = lab_to_dim3(lab4_tile_grid(rows, cols));
    switch (version) {
    case LAB4_SMEM:
        transpose_tile_kernel<0><<<grid, dim3(LAB4_TILE, LAB4_TILE)>>>(in, out, rows, cols);
        break;
    case LAB4_PADDED:
        transpose_tile_kernel<1><<<grid, dim3(LAB4_TILE, LAB4_TILE)>>>(in, out, rows, cols);
        break;
    case LAB4_MULTIROW:
        transpose_multirow_kernel<<<grid, dim3(LAB4_TILE, LAB4_BLOCK_ROWS)>>>(in, out, rows,
                                                                              cols);
        break;
    case LAB4_VECTOR: {
        /* A float4 access must be 16-byte aligned: every row of `in` starts
         * on a 16-byte boundary when `in` does and cols is a multiple of 4;
         * likewise `out` with rows. Otherwise the kernel moves single floats. */
        const int vector_loads = cols % LAB4_VEC_WIDTH == 0 && (uintptr_t)in % 16 == 0;
        const int vector_stores = rows % LAB4_VEC_WIDTH == 0 && (uintptr_t)out % 16 == 0;
        const dim3 vec_grid = lab_to_dim3(lab4_vec_tile_grid(rows, cols));
        transpose_vector_kernel<<<vec_grid, dim3(LAB4_VEC_THREADS, LAB4_VEC_THREADS)>>>(
            in, out, rows, cols, vector_loads, vector_stores);
        break;
    }
    default:
        return lab_fail(LAB_ERR_UNSUPPORTED, "lab4_transpose: no version %d", (int)version);
    }
    LAB_LAUNCH_CHECK();
    return LAB_OK;
}

extern "C" lab_status lab4_kernel_attributes(lab4_version version, struct cudaFuncAttributes *out)
{
    if (!out)
        return lab_fail(LAB_ERR_NULL_POINTER, "lab4_kernel_attributes: out is NULL");
    switch (version) {
    case LAB4_SMEM:
        LAB_CUDA_TRY(cudaFuncGetAttributes(out, (const void *)transpose_tile_kernel<0>));
        break;
    case LAB4_PADDED:
        LAB_CUDA_TRY(cudaFuncGetAttributes(out, (const void *)transpose_tile_kernel<1>));
        break;
    case LAB4_MULTIROW:
        LAB_CUDA_TRY(cudaFuncGetAttributes(out, (const void *)transpose_multirow_kernel));
        break;
    case LAB4_VECTOR:
        LAB_CUDA_TRY(cudaFuncGetAttributes(out, (const void *)transpose_vector_kernel));
        break;
    default:
        return lab_fail(LAB_ERR_UNSUPPORTED, "lab4_kernel_attributes: no version %d",
                        (int)version);
    }
    return LAB_OK;
}
