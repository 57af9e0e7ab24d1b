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

/* ========================================================================
 * Final stage (e), optional: a 64 x 64 tile moved as float4s both ways. */

LAB_HOST_DEVICE lab_dim3 lab4_vec_tile_grid(int rows, int cols)
{
    lab_dim3 grid = {(cols + LAB4_VEC_TILE - 1) / LAB4_VEC_TILE,
                     (rows + LAB4_VEC_TILE - 1) / LAB4_VEC_TILE, 1};
    return grid;
}

/* The tile row a thread handles in a pass: passes are LAB4_VEC_THREADS rows
 * apart, so in every pass the 16 threads of a block row cover one tile row. */
static LAB_HOST_DEVICE int vec_tile_row(lab_dim3 thread_idx, int pass)
{
    return thread_idx.y + pass * LAB4_VEC_THREADS;
}

LAB_HOST_DEVICE lab4_coord lab4_vec_load_element(lab_dim3 block_idx, lab_dim3 thread_idx,
                                                 int pass)
{
    /* threadIdx.x picks a float4 along the row: the 16 threads of a block
     * row read 64 consecutive floats (256 bytes), a warp two such rows. */
    lab4_coord e = {block_idx.y * LAB4_VEC_TILE + vec_tile_row(thread_idx, pass),
                    block_idx.x * LAB4_VEC_TILE + LAB4_VEC_WIDTH * thread_idx.x};
    return e;
}

LAB_HOST_DEVICE lab4_coord lab4_vec_store_element(lab_dim3 block_idx, lab_dim3 thread_idx,
                                                  int pass)
{
    /* Block x and y swap roles, as in (b)-(d); the float4 lies along a row
     * of `out`, so the stores are as contiguous as the loads. */
    lab4_coord e = {block_idx.x * LAB4_VEC_TILE + vec_tile_row(thread_idx, pass),
                    block_idx.y * LAB4_VEC_TILE + LAB4_VEC_WIDTH * thread_idx.x};
    return e;
}

LAB_HOST_DEVICE int lab4_vec_tile_write_offset(lab_dim3 thread_idx, int pass, int k, int pitch)
{
    /* tile[row][4*tx + k]: the float4 keeps its place in the row. */
    return vec_tile_row(thread_idx, pass) * pitch + LAB4_VEC_WIDTH * thread_idx.x + k;
}

LAB_HOST_DEVICE int lab4_vec_tile_read_offset(lab_dim3 thread_idx, int pass, int k, int pitch)
{
    /* out[R][C + k] is in[C + k][R]: tile[4*tx + k][row], four tile rows,
     * one column. */
    return (LAB4_VEC_WIDTH * thread_idx.x + k) * pitch + vec_tile_row(thread_idx, pass);
}

LAB_HOST_DEVICE int lab4_vec_tile_pitch(int padded)
{
    /* For one component k a warp (tx 0..15, two tile rows ty, ty + 1) reads
     * words (4*tx + k)*pitch + ty (+ 16*pass): the bank is
     * (4*tx*pitch + k + ty) mod 32. Pitch 64: 0 mod 32, all 16 tx of a row in
     * one bank, 16-way. Pitch 68: 4*tx*4 = 16*tx mod 32 takes 2 values,
     * 8-way. Pitch 65 (odd): 4*tx mod 32 takes 8 values, tx and tx + 8
     * share one, and the two tile rows land one bank apart: 2-way, the
     * fewest this layout allows (16 lanes of a row, 8 multiples of 4). */
    return padded ? LAB4_VEC_TILE + 1 : LAB4_VEC_TILE;
}

/* The final stage's tile at the padded pitch: 64 x 65 floats, 16,640 bytes. */
#define VEC_TILE_WORDS (LAB4_VEC_TILE * (LAB4_VEC_TILE + 1))

/* (e): 16 x 16 threads, LAB4_VEC_PASSES float4s each way per thread. Why
 * float4: a warp then moves 512 bytes per load or store instruction instead
 * of 128, so a quarter of the memory instructions and their address
 * arithmetic carry the same bytes, and each thread has 64 bytes of loads in
 * flight before the barrier (16 in (d)). The shared side cannot stay
 * 16 bytes wide on both ends (the store gathers a column), so the tile is
 * written and read a float at a time; the pitch of 65 keeps the gather at
 * 2-way (lab4_vec_tile_pitch). */
__global__ void transpose_vector_kernel(const float *__restrict__ in, float *__restrict__ out,
                                        int rows, int cols, int vector_loads, int vector_stores)
{
    __shared__ float tile[VEC_TILE_WORDS];
    const int pitch = lab4_vec_tile_pitch(1);
    const lab_dim3 block = lab_block_idx(), thread = lab_thread_idx();

    /* All loads first (unrolled: the four global loads are issued back to
     * back, before any shared store needs their data). */
#pragma unroll
    for (int pass = 0; pass < LAB4_VEC_PASSES; ++pass) {
        const lab4_coord src = lab4_vec_load_element(block, thread, pass);
        if (src.row >= rows)
            continue;
        const float *row = in + src.row * cols;
        if (vector_loads && src.col + LAB4_VEC_WIDTH <= cols) {
            /* Aligned: cols % 4 == 0 and `in` on 16 bytes (the entry
             * point's test), and src.col is a multiple of 4. */
            const float4 v = *reinterpret_cast<const float4 *>(row + src.col);
            tile[lab4_vec_tile_write_offset(thread, pass, 0, pitch)] = v.x;
            tile[lab4_vec_tile_write_offset(thread, pass, 1, pitch)] = v.y;
            tile[lab4_vec_tile_write_offset(thread, pass, 2, pitch)] = v.z;
            tile[lab4_vec_tile_write_offset(thread, pass, 3, pitch)] = v.w;
        } else {
            /* The right edge of `in`, or rows that are not 16-byte aligned:
             * one float at a time, each tested. */
#pragma unroll
            for (int k = 0; k < LAB4_VEC_WIDTH; ++k)
                if (src.col + k < cols)
                    tile[lab4_vec_tile_write_offset(thread, pass, k, pitch)] = row[src.col + k];
        }
    }
    /* One barrier, outside every bounds test: all 256 threads reach it. */
    __syncthreads();
#pragma unroll
    for (int pass = 0; pass < LAB4_VEC_PASSES; ++pass) {
        const lab4_coord dst = lab4_vec_store_element(block, thread, pass);
        if (dst.row >= cols)
            continue;
        float *row = out + dst.row * rows;
        if (vector_stores && dst.col + LAB4_VEC_WIDTH <= rows) {
            /* The gather: four words of one tile column, 65 words apart. */
            float4 v;
            v.x = tile[lab4_vec_tile_read_offset(thread, pass, 0, pitch)];
            v.y = tile[lab4_vec_tile_read_offset(thread, pass, 1, pitch)];
            v.z = tile[lab4_vec_tile_read_offset(thread, pass, 2, pitch)];
            v.w = tile[lab4_vec_tile_read_offset(thread, pass, 3, pitch)];
            *reinterpret_cast<float4 *>(row + dst.col) = v;
        } else {
#pragma unroll
            for (int k = 0; k < LAB4_VEC_WIDTH; ++k)
                if (dst.col + k < rows)
                    row[dst.col + k] = tile[lab4_vec_tile_read_offset(thread, pass, k, pitch)];
        }
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
