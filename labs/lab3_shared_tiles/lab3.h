/* Lab 3 - shared-memory tiles: the contract between your code and the grader.
 *
 * Do not change this file: the grader is compiled against it.
 *
 * C = A * B as in lab 2: row-major, A is M x K, B is K x N, C is M x N, any
 * positive M, N, K. Two kernels:
 *  - tiled: a block of TILE x TILE threads computes a TILE x TILE tile of C,
 *    walking along K one phase at a time; in each phase the block copies a
 *    TILE x TILE tile of A and one of B into shared memory and multiplies
 *    them there. TILE is 32 (16 also works, for comparison).
 *  - thread tile (extension): a block of LAB3_TT_THREADS_X x
 *    LAB3_TT_THREADS_Y threads computes a BM x BN tile of C, each thread TM
 *    outputs of one column, from BM x BK and BK x BN shared tiles.
 * Every size must work: tiles that stick out of a matrix are padded with
 * zeros when loaded, and outputs outside C are not written.
 *
 * Entry points take DEVICE pointers, validate, launch and return without
 * synchronising. The index helpers are yours (TODOs in shared_tiles.cu);
 * the grader also runs them on the CPU. */
#ifndef LAB3_H
#define LAB3_H

#include <cuda_runtime_api.h>

#include "lab_dim3.h"
#include "lab_status.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
    LAB3_TILE = 32,  /* the tiled kernel's tile edge; blocks are TILE x TILE threads */
    /* Thread tile (extension): block tile BM x BN, K step BK, TM outputs per thread. */
    LAB3_TT_BM = 64,
    LAB3_TT_BN = 64,
    LAB3_TT_BK = 8,
    LAB3_TT_TM = 8,
    LAB3_TT_THREADS_X = LAB3_TT_BN,               /* 64: one thread per column of the tile */
    LAB3_TT_THREADS_Y = LAB3_TT_BM / LAB3_TT_TM   /* 8: each covers TM rows */
};

/* A position in a matrix. */
typedef struct {
    int row, col;
} lab3_coord;

/* ---- tiled kernel: index helpers (TODOs) ---- */

/* TODO(3.1) grid of tile x tile blocks covering an m x n C (x over the
 * columns), and the number of phases that walk along k. */
LAB_HOST_DEVICE lab_dim3 lab3_tiled_grid(int m, int n, int tile);
LAB_HOST_DEVICE int lab3_phase_count(int k, int tile);
/* TODO(3.2) the element of A that thread `thread_idx` of block `block_idx`
 * copies into the shared tile of A, at [thread_idx.y][thread_idx.x], in
 * phase `phase`; and likewise for B. It may lie outside the matrix (then
 * the kernel stores 0 instead of loading). */
LAB_HOST_DEVICE lab3_coord lab3_tile_a_element(lab_dim3 block_idx, lab_dim3 thread_idx, int tile,
                                               int phase);
LAB_HOST_DEVICE lab3_coord lab3_tile_b_element(lab_dim3 block_idx, lab_dim3 thread_idx, int tile,
                                               int phase);

/* ---- thread tile (extension): index helpers (TODOs) ---- */

/* TODO(3.8) grid of BM x BN block tiles covering an m x n C (x over the columns). */
LAB_HOST_DEVICE lab_dim3 lab3_thread_tile_grid(int m, int n);
/* TODO(3.9) the position in C of output i (0 <= i < TM) of this thread:
 * the TM outputs of a thread lie in one column, on consecutive rows. */
LAB_HOST_DEVICE lab3_coord lab3_thread_tile_output(lab_dim3 block_idx, lab_dim3 thread_idx,
                                                   int i);
/* TODO(3.10) the element of A (of B) this thread copies into the BM x BK
 * (BK x BN) shared tile in phase `phase`: every thread copies exactly one
 * element of each. */
LAB_HOST_DEVICE lab3_coord lab3_thread_tile_a_element(lab_dim3 block_idx, lab_dim3 thread_idx,
                                                      int phase);
LAB_HOST_DEVICE lab3_coord lab3_thread_tile_b_element(lab_dim3 block_idx, lab_dim3 thread_idx,
                                                      int phase);

/* ---- entry points (device pointers) ---- */

/* The tiled kernel with TILE = LAB3_TILE. */
lab_status lab3_matmul_tiled(const float *a, const float *b, float *c, int m, int n, int k);
/* The same kernel with tile 16 or 32 (LAB_ERR_UNSUPPORTED otherwise). */
lab_status lab3_matmul_tiled_with(int tile, const float *a, const float *b, float *c, int m,
                                  int n, int k);
/* The thread-tile kernel (extension). */
lab_status lab3_matmul_thread_tile(const float *a, const float *b, float *c, int m, int n,
                                   int k);

/* What the compiler made of each kernel (static shared memory, registers,
 * local memory, the largest block it can run): cudaFuncGetAttributes. The
 * tiled one is the TILE = LAB3_TILE instance. */
lab_status lab3_tiled_kernel_attributes(struct cudaFuncAttributes *out);
lab_status lab3_thread_tile_kernel_attributes(struct cudaFuncAttributes *out);

#ifdef __cplusplus
}
#endif

#endif
