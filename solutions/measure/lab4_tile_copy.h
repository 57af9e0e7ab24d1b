/* Lab 4's control experiment (handout section 7): copies with the block
 * shapes of the transpose kernels, so that what the transpose itself costs
 * can be told from what the blocks' structure costs.
 *
 *  - tile copy: the padded tile's life cycle (load a 32 x 32 tile from
 *    global memory into shared memory, __syncthreads, store the tile from
 *    shared memory) but nothing turned round: rows are stored where they
 *    were loaded from, both sides coalesced, no bank conflict;
 *  - register copy: the same blocks and the same per-thread elements with
 *    neither shared memory nor barrier.
 *
 * rows_per_block = LAB4_TILE (32 x 32 threads, one element each: the shape
 * of (b) and (c)) or LAB4_BLOCK_ROWS (32 x 8 threads, four rows each, all
 * loads before the barrier: the shape of (d)). in and out are rows x cols
 * DEVICE arrays; out = in. Launch and return without synchronising. */
#ifndef LAB4_TILE_COPY_H
#define LAB4_TILE_COPY_H

#include "lab_status.h"

#ifdef __cplusplus
extern "C" {
#endif

lab_status lab4_tile_copy(const float *in, float *out, int rows, int cols, int rows_per_block);
lab_status lab4_register_copy(const float *in, float *out, int rows, int cols,
                              int rows_per_block);

#ifdef __cplusplus
}
#endif

#endif
