/* Lab 4's control copies: see lab4_tile_copy.h. The kernels follow the
 * reference transposes (solutions/lab4_transpose_bank_conflicts) line for
 * line, int indexing and bounds tests included, and differ only where the
 * tile goes: back to the rows it came from. */
#include "lab4_tile_copy.h"

#include "cuda_check.h"
#include "lab4.h"

/* The padded pitch of (c) and (d). Rows are read along a row here, so the
 * pad changes no bank; it keeps the shared footprint (4224 bytes, and so
 * the blocks per SM) equal to (c)'s and (d)'s. */
enum { PITCH = LAB4_TILE + 1 };

/* The tile row a thread stores in `pass`: the mirror of the row it loaded.
 * A warp then stores a row that ANOTHER warp loaded, as in the transpose,
 * where each warp's column read gathers the rows of all the others: the
 * barrier is needed for the same reason, and the compiler cannot keep a
 * thread's own value in a register instead of going through the tile. */
static __device__ __forceinline__ int mirrored(int row)
{
    return LAB4_TILE - 1 - row;
}

/* ROWS = blockDim.y: 32 (one pass, the shape of (b) and (c)) or 8 (four
 * passes, the shape of (d)). All loads come before the one barrier. */
template <int ROWS>
__global__ void tile_copy_kernel(const float *__restrict__ in, float *__restrict__ out, int rows,
                                 int cols)
{
    __shared__ float tile[LAB4_TILE * PITCH];
    const int col = blockIdx.x * LAB4_TILE + threadIdx.x;
    const int row0 = blockIdx.y * LAB4_TILE;
#pragma unroll
    for (int pass = 0; pass < LAB4_TILE / ROWS; ++pass) {
        const int r = threadIdx.y + pass * ROWS;
        if (row0 + r < rows && col < cols)
            tile[r * PITCH + threadIdx.x] = in[(row0 + r) * cols + col];
    }
    /* Every thread reaches the barrier, inside the matrix or not. */
    __syncthreads();
#pragma unroll
    for (int pass = 0; pass < LAB4_TILE / ROWS; ++pass) {
        const int r = mirrored(threadIdx.y + pass * ROWS);
        if (row0 + r < rows && col < cols)
            out[(row0 + r) * cols + col] = tile[r * PITCH + threadIdx.x];
    }
}

/* The same blocks and elements through registers only: no tile, no
 * barrier. With ROWS = 8 a thread still issues its four loads before its
 * first store (the values are held in v[]), like (d). */
template <int ROWS>
__global__ void register_copy_kernel(const float *__restrict__ in, float *__restrict__ out,
                                     int rows, int cols)
{
    enum { PASSES = LAB4_TILE / ROWS };
    const int col = blockIdx.x * LAB4_TILE + threadIdx.x;
    const int row0 = blockIdx.y * LAB4_TILE;
    float v[PASSES];
#pragma unroll
    for (int pass = 0; pass < PASSES; ++pass) {
        const int r = row0 + threadIdx.y + pass * ROWS;
        v[pass] = r < rows && col < cols ? in[r * cols + col] : 0.0f;
    }
#pragma unroll
    for (int pass = 0; pass < PASSES; ++pass) {
        const int r = row0 + threadIdx.y + pass * ROWS;
        if (r < rows && col < cols)
            out[r * cols + col] = v[pass];
    }
}

typedef void (*copy_kernel)(const float *, float *, int, int);

/* One block per 32 x 32 tile, as lab4_tile_grid makes it. */
static lab_status launch(copy_kernel k32, copy_kernel k8, const char *name, const float *in,
                         float *out, int rows, int cols, int rows_per_block)
{
    if (rows <= 0 || cols <= 0 || (rows + LAB4_TILE - 1) / LAB4_TILE > 65535)
        return lab_fail(LAB_ERR_UNSUPPORTED, "%s: %d x %d is not a size it handles", name, rows,
                        cols);
    if (rows_per_block != LAB4_TILE && rows_per_block != LAB4_BLOCK_ROWS)
        return lab_fail(LAB_ERR_UNSUPPORTED, "%s: blocks of 32 x %d threads: only 32 x %d and "
                        "32 x %d", name, rows_per_block, LAB4_TILE, LAB4_BLOCK_ROWS);
    const dim3 grid((cols + LAB4_TILE - 1) / LAB4_TILE, (rows + LAB4_TILE - 1) / LAB4_TILE);
    if (rows_per_block == LAB4_TILE)
        k32<<<grid, dim3(LAB4_TILE, LAB4_TILE)>>>(in, out, rows, cols);
    else
        k8<<<grid, dim3(LAB4_TILE, LAB4_BLOCK_ROWS)>>>(in, out, rows, cols);
    LAB_LAUNCH_CHECK();
    return LAB_OK;
}

extern "C" lab_status lab4_tile_copy(const float *in, float *out, int rows, int cols,
                                     int rows_per_block)
{
    return launch(tile_copy_kernel<LAB4_TILE>, tile_copy_kernel<LAB4_BLOCK_ROWS>,
                  "lab4_tile_copy", in, out, rows, cols, rows_per_block);
}

extern "C" lab_status lab4_register_copy(const float *in, float *out, int rows, int cols,
                                         int rows_per_block)
{
    return launch(register_copy_kernel<LAB4_TILE>, register_copy_kernel<LAB4_BLOCK_ROWS>,
                  "lab4_register_copy", in, out, rows, cols, rows_per_block);
}
