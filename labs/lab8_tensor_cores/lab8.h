/* Lab 8 - tensor cores through WMMA: the contract between your code and
 * the grader.
 *
 * Do not change this file: the grader is compiled against it.
 *
 * Mixed-precision GEMM, as BLAS defines it, row-major:
 *     C = alpha * A * B + beta * C
 * A is M x K and B is K x N, both FP16 (lab8_half: IEEE binary16); C is
 * M x N in FP32, and every product is accumulated in FP32. All pointers are
 * DEVICE pointers. The yardstick is cuBLAS cublasGemmEx with FP16 inputs
 * and FP32 compute (CUBLAS_COMPUTE_32F).
 *
 * The BLAS rule for beta, as in lab 7: when beta == 0 the old contents of C
 * are NOT read (they may be NaN), and C = alpha * A * B. The grader fills
 * C with NaN before every call with beta == 0.
 *
 * Two kernels (stages), in the order of the handout, each with an entry
 * point of its own:
 *  1. WMMA from global memory (lab8_wmma_global): one warp per 16 x 16 tile
 *     of C; its A and B fragments (16 x 16 x 16) are loaded straight from
 *     global memory. A block is LAB8_G_WARPS_M x LAB8_G_WARPS_N warps.
 *  2. WMMA through shared memory (lab8_wmma_shared): lab 7's hierarchy on
 *     tensor cores. A block computes a BM x BN tile of C; each of its warps
 *     a WM x WN warp tile, FM x FN accumulator fragments; the K loop moves
 *     BM x BK of A and BK x BN of B into shared memory per step.
 * The any-size version is part 2 of the lab (with mma.sync and cp.async).
 *
 * Architecture: WMMA on FP16 needs tensor cores, sm_70 and later; the
 * course builds from sm_75 (the T4, the oldest GPU CUDA 13 compiles for).
 * On a GPU older than sm_75 the grader reports both stages "not gradable
 * on this GPU" (never failed). Code for later architectures (BF16, sm_80)
 * must sit behind an __CUDA_ARCH__ test: the build also emits compute_75
 * PTX (tensor_cores.cu shows where).
 *
 * Sizes: stage 1 needs M, N and K to be multiples of 16 (LAB8_G_MULTIPLE);
 * stage 2 needs M and N to be multiples of its block tile (LAB8_S_BM =
 * LAB8_S_BN = 128) and K of its K step (LAB8_S_BK = 32). Any other size
 * returns LAB_ERR_UNSUPPORTED and launches nothing. a, b and c must be
 * 32-byte aligned (cudaMalloc's are: WMMA's loads and stores need it).
 * Zero, negative or int-overflowing sizes return LAB_ERR_INVALID_SIZE, NULL
 * pointers LAB_ERR_NULL_POINTER.
 *
 * Entry points validate, launch and return without synchronising. The
 * index helpers are yours (TODOs in tensor_cores.cu); the kernels use them
 * and the grader also runs them on the CPU. */
#ifndef LAB8_H
#define LAB8_H

#include "lab_dim3.h"
#include "lab_status.h"

#ifdef __cplusplus
#include <cuda_fp16.h>
/* FP16 as CUDA names it. */
typedef __half lab8_half;
#else
/* C (the grader's checks) has no __half: the same 16 bits, as the grader
 * writes them (sign, 5 exponent bits, 10 fraction bits). Only pointers to
 * it cross the contract, so the two views never meet in one value. */
typedef struct {
    unsigned short bits;
} lab8_half;
#endif

#ifdef __cplusplus
extern "C" {
#endif

enum {
    LAB8_WARP_SIZE = 32,
    /* The WMMA shape both stages use: a 16 x 16 tile of C from a 16 x 16
     * tile of A and a 16 x 16 tile of B (m16n16k16). */
    LAB8_FRAG = 16,

    /* Stage 1: a block of LAB8_G_WARPS_M x LAB8_G_WARPS_N warps, each one
     * 16 x 16 tile of C; the block covers LAB8_G_BM x LAB8_G_BN. */
    LAB8_G_WARPS_M = 2,
    LAB8_G_WARPS_N = 2,
    LAB8_G_WARPS = LAB8_G_WARPS_M * LAB8_G_WARPS_N,
    LAB8_G_THREADS = LAB8_G_WARPS * LAB8_WARP_SIZE,
    LAB8_G_BM = LAB8_G_WARPS_M * LAB8_FRAG,
    LAB8_G_BN = LAB8_G_WARPS_N * LAB8_FRAG,
    LAB8_G_MULTIPLE = 16, /* M, N and K */

    /* Stage 2: a BM x BN block tile, a K step of BK; warps of WM x WN laid
     * out (BM / WM) x (BN / WN), each FM x FN fragments of 16 x 16. */
    LAB8_S_BM = 128,
    LAB8_S_BN = 128,
    LAB8_S_BK = 32,
    LAB8_S_WM = 64,
    LAB8_S_WN = 32,
    LAB8_S_WARPS_M = LAB8_S_BM / LAB8_S_WM, /* 2 */
    LAB8_S_WARPS_N = LAB8_S_BN / LAB8_S_WN, /* 4 */
    LAB8_S_WARPS = LAB8_S_WARPS_M * LAB8_S_WARPS_N,
    LAB8_S_THREADS = LAB8_S_WARPS * LAB8_WARP_SIZE, /* 256 */
    LAB8_S_FM = LAB8_S_WM / LAB8_FRAG, /* 4 fragments down a warp tile */
    LAB8_S_FN = LAB8_S_WN / LAB8_FRAG, /* 2 across */
    /* Global loads move 16 bytes (8 halves) per thread per round. */
    LAB8_CHUNK = 8,
    /* Shared tiles are padded by LAB8_S_PAD halves per row: WMMA loads
     * rows 16 at a time, and a row length of 40 or 136 halves (not 32 or
     * 128) spreads those rows over the banks; it keeps 16-byte rows and
     * 32-byte fragment corners, which WMMA needs. */
    LAB8_S_PAD = 8
};

/* The two kernels, in the order of the handout. */
typedef enum { LAB8_STAGE_WMMA_GLOBAL = 0, LAB8_STAGE_WMMA_SHARED = 1 } lab8_stage;
enum { LAB8_STAGE_COUNT = 2 };

/* A position: in C, in a block tile, or in a shared-memory tile. */
typedef struct {
    int row, col;
} lab8_coord;

/* ---- index helpers (TODOs) ----
 * Threads are numbered 0 .. threads-1 inside the block (the launches are
 * 1D: thread = threadIdx.x); warp = thread / 32. */

/* TODO(8.1) stage 1: the top-left corner, in C, of the 16 x 16 tile that
 * warp `warp` (0 .. LAB8_G_WARPS-1) of block `block_idx` computes. The
 * grid is x across N, y down M; a block's warps are numbered across first
 * (warp 1 is right of warp 0). */
LAB_HOST_DEVICE lab8_coord lab8_global_tile(lab_dim3 block_idx, int warp);

/* TODO(8.4) stage 2: the top-left corner, in the BM x BN block tile, of
 * warp `warp`'s WM x WN warp tile (warps numbered across first). */
LAB_HOST_DEVICE lab8_coord lab8_warp_origin(int warp);
/* TODO(8.4) stage 2: the top-left corner, in the block tile, of fragment
 * (fm, fn) (0 <= fm < FM, 0 <= fn < FN) of warp `warp`'s warp tile. */
LAB_HOST_DEVICE lab8_coord lab8_fragment_origin(int warp, int fm, int fn);

/* TODO(8.5) stage 2, the 16-byte loads: the first of the LAB8_CHUNK
 * halves that thread `thread` of a block of `threads` loads in round
 * `round` from a tile `tile_cols` halves wide (A's BM x BK tile: BK; B's
 * BK x BN tile: BN). Each round the block loads `threads` chunks,
 * consecutive threads consecutive chunks of a row; the rounds together
 * load the tile once. */
LAB_HOST_DEVICE lab8_coord lab8_chunk_load(int thread, int round, int threads, int tile_cols);

/* ---- entry points (device pointers) ---- */

/* Stage 1 (TODO(8.1)-(8.3)): M, N, K multiples of LAB8_G_MULTIPLE. */
lab_status lab8_wmma_global(int m, int n, int k, float alpha, const lab8_half *a,
                            const lab8_half *b, float beta, float *c);

/* Stage 2 (TODO(8.2), (8.4)-(8.6)): M, N multiples of 128, K of 32. */
lab_status lab8_wmma_shared(int m, int n, int k, float alpha, const lab8_half *a,
                            const lab8_half *b, float beta, float *c);

#ifdef __cplusplus
}
#endif

#endif
