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
/* TODO(3.3) the element of A that thread `thread_idx` of block `block_idx`
 * copies into the shared tile of A, at [thread_idx.y][thread_idx.x], in
 * phase `phase`; and likewise for B. It may lie outside the matrix (then
 * the kernel stores 0 instead of loading). */
LAB_HOST_DEVICE lab3_coord lab3_tile_a_element(lab_dim3 block_idx, lab_dim3 thread_idx, int tile,
                                               int phase);
LAB_HOST_DEVICE lab3_coord lab3_tile_b_element(lab_dim3 block_idx, lab_dim3 thread_idx, int tile,
                                               int phase);

/* ---- thread tile (extension): index helpers (TODOs) ---- */

/* TODO(3.9) grid of BM x BN block tiles covering an m x n C (x over the columns). */
LAB_HOST_DEVICE lab_dim3 lab3_thread_tile_grid(int m, int n);
/* TODO(3.10) the position in C of output i (0 <= i < TM) of this thread:
 * the TM outputs of a thread lie in one column, on consecutive rows. */
LAB_HOST_DEVICE lab3_coord lab3_thread_tile_output(lab_dim3 block_idx, lab_dim3 thread_idx,
                                                   int i);
/* TODO(3.11) the element of A (of B) this thread copies into the BM x BK
 * (BK x BN) shared tile in phase `phase`: every thread copies exactly one
 * element of each. */
LAB_HOST_DEVICE lab3_coord lab3_thread_tile_a_element(lab_dim3 block_idx, lab_dim3 thread_idx,
                                                      int phase);
LAB_HOST_DEVICE lab3_coord lab3_thread_tile_b_element(lab_dim3 block_idx, lab_dim3 thread_idx,
                                                      int phase);

/* ---- occupancy: index-free arithmetic (TODO) ---- */

/* What one SM can hold (handout section 3.1). The grader fills it from the
 * GPU it runs on (cudaGetDeviceProperties) and, on the CPU, with the
 * figures of an H100 (compute capability 9.0). */
typedef struct {
    int warp_size;                       /* 32 */
    int max_threads_per_block;           /* 1024 */
    int max_threads_per_sm;              /* 2048 (64 warps) on 9.0 */
    int max_blocks_per_sm;               /* 32 on 9.0 */
    int registers_per_sm;                /* 65,536 32-bit registers */
    int register_allocation_unit;        /* a warp's registers are handed out in multiples of this: 256 */
    int register_file_partitions;        /* the register file is split into this many equal parts,
                                          * one per warp scheduler, and a warp's registers come
                                          * from one part: 4 */
    int max_registers_per_thread;        /* 255 */
    int shared_bytes_per_sm;             /* 233,472 (228 KiB) on 9.0 */
    int shared_allocation_unit;          /* a block's shared memory is handed out in multiples of this: 128 */
    int reserved_shared_bytes_per_block; /* 1024: taken by the system from every resident block */
    int max_shared_bytes_per_block;      /* 232,448 (227 KiB): the most one block may ask for */
} lab3_sm_limits;

/* What one block of a kernel asks for: cudaFuncGetAttributes' numRegs and
 * sharedSizeBytes (plus any dynamic shared memory), and the launch's
 * threads per block. */
typedef struct {
    int threads_per_block;
    int registers_per_thread;
    int shared_bytes_per_block;
} lab3_block_resources;

/* TODO(3.2) how many such blocks one SM keeps resident at once: the
 * smallest of the limits of threads (counted in whole warps), blocks,
 * registers and shared memory; 0 when one block alone does not fit. */
LAB_HOST_DEVICE int lab3_resident_blocks(lab3_sm_limits sm, lab3_block_resources block);

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

/* Which of the lab's kernels, for lab3_kernel_occupancy. */
typedef enum { LAB3_KERNEL_TILED_16, LAB3_KERNEL_TILED_32, LAB3_KERNEL_THREAD_TILE } lab3_kernel;

/* What the CUDA runtime says about one kernel at the block size its entry
 * point launches: its attributes (as above), that block size, and
 * cudaOccupancyMaxActiveBlocksPerMultiprocessor without dynamic shared
 * memory. Written for you: the grader compares TODO(3.2) with it. */
lab_status lab3_kernel_occupancy(lab3_kernel kernel, struct cudaFuncAttributes *attributes,
                                 int *threads_per_block, int *runtime_blocks_per_sm);

#ifdef __cplusplus
}
#endif

#endif
