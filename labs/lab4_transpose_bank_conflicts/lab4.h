/* Lab 4 - transposing through shared memory, and bank conflicts: the
 * contract between your code and the grader.
 *
 * Do not change this file: the grader is compiled against it.
 *
 * `in` is a rows x cols matrix of floats, row-major; `out` receives its
 * transpose, a cols x rows matrix, row-major:
 *     out[c * rows + r] = in[r * cols + c]
 * Any positive rows and cols (1 x 1, 1 x N, 33 x 31, ...). Three kernels, in
 * the order of the handout, and an optional final stage:
 *  - smem (b): a block of TILE x TILE threads copies a TILE x TILE tile of
 *    `in` into shared memory row by row, and writes it to its transposed
 *    place in `out`, again row by row: both global sides coalesced; reading
 *    a column of the tile is a 32-way bank conflict.
 *  - padded (c): the same with each tile row padded by one word.
 *  - multirow (d): the padded tile, moved by TILE x LAB4_BLOCK_ROWS threads,
 *    each thread moving LAB4_PASSES elements (one per pass).
 *  - vector (e), the optional final stage (bonus): a LAB4_VEC_TILE x
 *    LAB4_VEC_TILE tile moved by LAB4_VEC_THREADS x LAB4_VEC_THREADS
 *    threads, each loading a float4 of a tile row and storing a float4 of
 *    a tile column, in LAB4_VEC_PASSES passes. It too takes any positive
 *    rows and cols: where a float4 would cross the matrix's edge or be
 *    misaligned (cols or rows not a multiple of 4, a pointer not 16-byte
 *    aligned), it moves single floats instead.
 * The naive kernel (a) of the handout is the grader's baseline.
 *
 * Entry points take DEVICE pointers, validate, launch and return without
 * synchronising. The index helpers are yours (TODOs in transpose.cu); the
 * kernels use them and the grader also runs them on the CPU. */
#ifndef LAB4_H
#define LAB4_H

#include <cuda_runtime_api.h>

#include "lab_dim3.h"
#include "lab_status.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
    LAB4_TILE = 32,       /* tile edge in floats: one warp's worth of a row */
    LAB4_BLOCK_ROWS = 8,  /* multirow blocks are LAB4_TILE x LAB4_BLOCK_ROWS threads */
    LAB4_PASSES = LAB4_TILE / LAB4_BLOCK_ROWS, /* 4: the rows each multirow thread moves */
    LAB4_BANKS = 32,      /* shared-memory banks, each 4 bytes wide */
    /* The final stage (e): */
    LAB4_VEC_TILE = 64,   /* its tile edge in floats */
    LAB4_VEC_THREADS = 16, /* its blocks are LAB4_VEC_THREADS x LAB4_VEC_THREADS threads */
    LAB4_VEC_WIDTH = 4,   /* floats per vector access: a float4, 16 bytes */
    LAB4_VEC_PASSES = LAB4_VEC_TILE / LAB4_VEC_THREADS /* 4: the float4s each thread moves */
};

/* The versions, in the order of the handout. */
typedef enum {
    LAB4_SMEM = 0,     /* (b) tile[TILE][TILE] */
    LAB4_PADDED = 1,   /* (c) tile rows padded */
    LAB4_MULTIROW = 2, /* (d) padded, TILE x BLOCK_ROWS threads */
    LAB4_VECTOR = 3    /* (e) the final stage: 64x64 tile, float4 in and out */
} lab4_version;

/* A position in a matrix. */
typedef struct {
    int row, col;
} lab4_coord;

/* ---- index helpers (TODOs) ----
 * `block_dim` is the launch's block shape: TILE x TILE for (b) and (c),
 * TILE x BLOCK_ROWS for (d). A thread works in passes 0 .. TILE/block_dim.y-1
 * (one pass when the block is TILE x TILE). */

/* TODO(4.1) grid of blocks, one per TILE x TILE tile of `in` (x over the
 * tile columns, y over the tile rows). */
LAB_HOST_DEVICE lab_dim3 lab4_tile_grid(int rows, int cols);
/* TODO(4.2) the element of `in` this thread loads in pass `pass`; it goes to
 * row thread_idx.y + pass*block_dim.y, column thread_idx.x of the tile. It
 * may lie outside `in` (then the kernel loads nothing). */
LAB_HOST_DEVICE lab4_coord lab4_load_element(lab_dim3 block_idx, lab_dim3 thread_idx,
                                             lab_dim3 block_dim, int pass);
/* TODO(4.3) the element of `out` (cols x rows) this thread stores in pass
 * `pass`. It may lie outside `out` (then the kernel stores nothing). */
LAB_HOST_DEVICE lab4_coord lab4_store_element(lab_dim3 block_idx, lab_dim3 thread_idx,
                                              lab_dim3 block_dim, int pass);
/* TODO(4.4) word offsets into the shared tile, whose rows are `pitch` words
 * apart: where this thread writes the value it loaded in pass `pass`, and
 * where it reads the value it stores in pass `pass`. */
LAB_HOST_DEVICE int lab4_tile_write_offset(lab_dim3 thread_idx, lab_dim3 block_dim, int pass,
                                           int pitch);
LAB_HOST_DEVICE int lab4_tile_read_offset(lab_dim3 thread_idx, lab_dim3 block_dim, int pass,
                                          int pitch);
/* TODO(4.5) the tile's row pitch in words: padded = 0 for the tile of (b),
 * padded = 1 for the padded tile of (c) and (d). */
LAB_HOST_DEVICE int lab4_tile_pitch(int padded);

/* ---- final stage (e), optional: index helpers (TODOs) ----
 * Blocks of LAB4_VEC_THREADS x LAB4_VEC_THREADS threads, one per
 * LAB4_VEC_TILE x LAB4_VEC_TILE tile. In pass `pass` a thread loads the
 * float4 of `in` that goes to tile row thread_idx.y + pass*LAB4_VEC_THREADS,
 * tile columns 4*thread_idx.x .. +3, and stores a float4 of `out`, whose
 * component k (0..3) it gathers from the tile. A coordinate below names the
 * float4's first element (component 0); component k is k columns to its
 * right. */

/* TODO(4.8) grid of blocks, one per LAB4_VEC_TILE x LAB4_VEC_TILE tile of
 * `in` (x over the tile columns, y over the tile rows). */
LAB_HOST_DEVICE lab_dim3 lab4_vec_tile_grid(int rows, int cols);
/* TODO(4.9) the first element of the float4 of `in` this thread loads in
 * pass `pass`, and of the float4 of `out` (cols x rows) it stores in pass
 * `pass`. Either may lie partly or wholly outside its matrix. */
LAB_HOST_DEVICE lab4_coord lab4_vec_load_element(lab_dim3 block_idx, lab_dim3 thread_idx,
                                                 int pass);
LAB_HOST_DEVICE lab4_coord lab4_vec_store_element(lab_dim3 block_idx, lab_dim3 thread_idx,
                                                  int pass);
/* TODO(4.10) word offsets into the 64-row shared tile, rows `pitch` words
 * apart: where component k of the float4 loaded in pass `pass` goes, and
 * where component k of the float4 stored in pass `pass` comes from. */
LAB_HOST_DEVICE int lab4_vec_tile_write_offset(lab_dim3 thread_idx, int pass, int k, int pitch);
LAB_HOST_DEVICE int lab4_vec_tile_read_offset(lab_dim3 thread_idx, int pass, int k, int pitch);
/* TODO(4.11) the 64-float tile's row pitch in words: padded = 0 for no
 * padding, padded = 1 for the pitch the final stage uses. */
LAB_HOST_DEVICE int lab4_vec_tile_pitch(int padded);

/* ---- entry points (device pointers) ---- */

/* Transposes rows x cols `in` into cols x rows `out` with the version asked
 * for. `in` and `out` must not overlap. */
lab_status lab4_transpose(lab4_version version, const float *in, float *out, int rows,
                          int cols);

/* What the compiler made of a version's kernel (static shared memory,
 * registers, ...): cudaFuncGetAttributes. */
lab_status lab4_kernel_attributes(lab4_version version, struct cudaFuncAttributes *out);

#ifdef __cplusplus
}
#endif

#endif
