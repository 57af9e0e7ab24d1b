/* Lab 4 - transposing through shared memory: the reference solution. */
#include <stdint.h>

#include "lab4.h"

#include "cuda_check.h"

/* -------------------------------------------------------- index helpers */

LAB_HOST_DEVICE lab_dim3 lab4_tile_grid(int rows, int cols)
{
    lab_dim3 grid = {(cols + LAB4_TILE - 1) / LAB4_TILE, (rows + LAB4_TILE - 1) / LAB4_TILE, 1};
    return grid;
}

/* The tile row a thread handles in a pass: passes are block_dim.y rows apart,
 * so in every pass a warp (32 threads of one threadIdx.y) covers one row. */
static LAB_HOST_DEVICE int tile_row(lab_dim3 thread_idx, lab_dim3 block_dim, int pass)
{
    return thread_idx.y + pass * block_dim.y;
}

LAB_HOST_DEVICE lab4_coord lab4_load_element(lab_dim3 block_idx, lab_dim3 thread_idx,
                                             lab_dim3 block_dim, int pass)
{
    /* Block (x, y) owns the tile whose top-left element is in[y*T][x*T];
     * threadIdx.x walks along a row of `in`: a warp reads 128 contiguous bytes. */
    lab4_coord e = {block_idx.y * LAB4_TILE + tile_row(thread_idx, block_dim, pass),
                    block_idx.x * LAB4_TILE + thread_idx.x};
    return e;
}

LAB_HOST_DEVICE lab4_coord lab4_store_element(lab_dim3 block_idx, lab_dim3 thread_idx,
                                              lab_dim3 block_dim, int pass)
{
    /* The tile lands at out[x*T][y*T] (block x and y swap roles), and again
     * threadIdx.x walks along a row, now a row of `out`. */
    lab4_coord e = {block_idx.x * LAB4_TILE + tile_row(thread_idx, block_dim, pass),
                    block_idx.y * LAB4_TILE + thread_idx.x};
    return e;
}

LAB_HOST_DEVICE int lab4_tile_write_offset(lab_dim3 thread_idx, lab_dim3 block_dim, int pass,
                                           int pitch)
{
    /* tile[row][threadIdx.x]: a warp writes one row, 32 consecutive words. */
    return tile_row(thread_idx, block_dim, pass) * pitch + thread_idx.x;
}

LAB_HOST_DEVICE int lab4_tile_read_offset(lab_dim3 thread_idx, lab_dim3 block_dim, int pass,
                                          int pitch)
{
    /* tile[threadIdx.x][row]: a warp reads one column, words `pitch` apart. */
    return thread_idx.x * pitch + tile_row(thread_idx, block_dim, pass);
}

LAB_HOST_DEVICE int lab4_tile_pitch(int padded)
{
    /* 33 is odd, so 32 words a pitch apart fall in 32 different banks. */
    return padded ? LAB4_TILE + 1 : LAB4_TILE;
}

/* -------------------------------------------------------------- kernels */

/* The largest tile any version uses, in words. */
#define TILE_WORDS (LAB4_TILE * (LAB4_TILE + 1))

/* (b) and (c): one element per thread, TILE x TILE threads. */
template <int PADDED>
__global__ void transpose_tile_kernel(const float *__restrict__ in, float *__restrict__ out,
                                      int rows, int cols)
{
    __shared__ float tile[TILE_WORDS];
    const int pitch = lab4_tile_pitch(PADDED);
    const lab_dim3 block = lab_block_idx(), thread = lab_thread_idx();
    const lab_dim3 dim = {LAB4_TILE, LAB4_TILE, 1}; /* the launch's shape, known here */

    const lab4_coord src = lab4_load_element(block, thread, dim, 0);
    if (src.row < rows && src.col < cols)
        tile[lab4_tile_write_offset(thread, dim, 0, pitch)] = in[src.row * cols + src.col];
    /* Every thread reaches the barrier, inside the matrix or not. */
    __syncthreads();
    const lab4_coord dst = lab4_store_element(block, thread, dim, 0);
    if (dst.row < cols && dst.col < rows)
        out[dst.row * rows + dst.col] = tile[lab4_tile_read_offset(thread, dim, 0, pitch)];
}

/* (d): TILE x BLOCK_ROWS threads, each moving LAB4_PASSES elements. All the
 * loads of a thread are issued before the first store: more bytes in flight
 * per thread, fewer blocks to schedule. */
__global__ void transpose_multirow_kernel(const float *__restrict__ in, float *__restrict__ out,
                                          int rows, int cols)
{
    __shared__ float tile[TILE_WORDS];
    const int pitch = lab4_tile_pitch(1);
    const lab_dim3 block = lab_block_idx(), thread = lab_thread_idx();
    const lab_dim3 dim = {LAB4_TILE, LAB4_BLOCK_ROWS, 1};

#pragma unroll
    for (int pass = 0; pass < LAB4_PASSES; ++pass) {
        const lab4_coord src = lab4_load_element(block, thread, dim, pass);
        if (src.row < rows && src.col < cols)
            tile[lab4_tile_write_offset(thread, dim, pass, pitch)] = in[src.row * cols + src.col];
    }
    __syncthreads();
#pragma unroll
    for (int pass = 0; pass < LAB4_PASSES; ++pass) {
        const lab4_coord dst = lab4_store_element(block, thread, dim, pass);
        if (dst.row < cols && dst.col < rows)
            out[dst.row * rows + dst.col] = tile[lab4_tile_read_offset(thread, dim, pass, pitch)];
    }
}

/* ------------------------------------------------------------------------
 * Entry points: given code, the same in the skeleton. */

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
    default:
        return lab_fail(LAB_ERR_UNSUPPORTED, "lab4_kernel_attributes: no version %d",
                        (int)version);
    }
    return LAB_OK;
}
