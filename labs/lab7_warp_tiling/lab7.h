/* Lab 7 - from shared tiles to warp tiling: the contract between your code
 * and the grader.
 *
 * Do not change this file: the grader is compiled against it.
 *
 * SGEMM, as BLAS defines it, row-major:
 *     C = alpha * A * B + beta * C
 * A is M x K, B is K x N, C is M x N, all DEVICE pointers to floats.
 *
 * The BLAS rule for beta: when beta == 0, the old contents of C are NOT
 * read (they may be anything, NaN included), and C = alpha * A * B. So
 * `alpha * acc + beta * c_old` is wrong when beta == 0: 0 * NaN is NaN. The
 * grader fills C with NaN before every call with beta == 0.
 *
 * Four kernels (stages), in the order of the handout, each behind
 * lab7_sgemm:
 *  1. block tile 1D: a block computes a BM1 x BN1 tile of C; each thread TM1
 *     results of one column (BM1 x BK1 and BK1 x BN1 shared tiles);
 *  2. block tile 2D: a BM2 x BN2 tile of C; each thread a TM2 x TN2 square
 *     of results from register fragments;
 *  3. vectorised: stage 2 with float4 global loads and A stored transposed
 *     in shared memory, so the inner loop reads contiguous words;
 *  4. warp tile: block tile -> warp tile (WM x WN, walked as WMITER x
 *     WNITER sub-tiles) -> thread tile (TM x TN per sub-tile).
 * and an optional final stage (bonus, LAB7_STAGE_SIZED): the warp tile with
 * its block tile chosen per problem size, the lab's 128 x 128 or a 64 x 64
 * one, whichever lets the busiest SM finish first (wave quantisation).
 *
 * Sizes: every stage needs M and N to be multiples of LAB7_SIZE_MULTIPLE
 * (128) and K a multiple of LAB7_K_MULTIPLE (16); a, b and c must be
 * 16-byte aligned (cudaMalloc's pointers are). Any other size or alignment
 * returns LAB_ERR_UNSUPPORTED and launches nothing. Zero, negative or
 * int-overflowing sizes return LAB_ERR_INVALID_SIZE, NULL pointers
 * LAB_ERR_NULL_POINTER. lab7_sgemm_any_size (bonus) takes any positive size.
 *
 * Entry points validate, launch and return without synchronising. The index
 * helpers are yours (TODOs in warp_tiling.cu); the kernels use them and the
 * grader also runs them on the CPU. */
#ifndef LAB7_H
#define LAB7_H

#include <cuda_runtime_api.h>

#include "lab_dim3.h"
#include "lab_status.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
    LAB7_WARP_SIZE = 32,
    /* The size rule of every stage (see above). */
    LAB7_SIZE_MULTIPLE = 128, /* M and N */
    /* K: the kernels need only a multiple of their BK (8 in every stage;
     * it also keeps A's rows 16-byte aligned for the float4 loads). The
     * contract asks for 16 so that a BK of 16 (the tile sweep's other
     * shapes) fits it too; the grader checks that K = 8 is refused. */
    LAB7_K_MULTIPLE = 16,

    /* Stage 1, block tile 1D: BM1 x BN1 block tile, K step BK1, TM1
     * results per thread (one column): 64 * 64 / 8 = 512 threads. */
    LAB7_BT1_BM = 64,
    LAB7_BT1_BN = 64,
    LAB7_BT1_BK = 8,
    LAB7_BT1_TM = 8,
    LAB7_BT1_THREADS = LAB7_BT1_BM * LAB7_BT1_BN / LAB7_BT1_TM,

    /* Stages 2 and 3, block tile 2D: BM2 x BN2 block tile, K step BK2, a
     * TM2 x TN2 thread tile: 128 * 128 / 64 = 256 threads. */
    LAB7_BT2_BM = 128,
    LAB7_BT2_BN = 128,
    LAB7_BT2_BK = 8,
    LAB7_BT2_TM = 8,
    LAB7_BT2_TN = 8,
    LAB7_BT2_THREADS = LAB7_BT2_BM * LAB7_BT2_BN / (LAB7_BT2_TM * LAB7_BT2_TN)
};

/* Stage 4, warp tile. */
#define LAB7_WT_BM 128      /* block tile rows */
#define LAB7_WT_BN 128      /* block tile columns */
#define LAB7_WT_BK 8        /* K step of the block tile loop */
#define LAB7_WT_WM 64       /* warp tile rows */
#define LAB7_WT_WN 32       /* warp tile columns */
#define LAB7_WT_WNITER 2    /* sub-tiles across a warp tile */
#define LAB7_WT_TM 4        /* thread tile rows (per sub-tile) */
#define LAB7_WT_TN 4        /* thread tile columns (per sub-tile) */
#define LAB7_WT_MIN_BLOCKS 2 /* blocks per SM the registers must allow (__launch_bounds__) */
/* Derived: a warp's 32 threads each hold TM x TN results per sub-tile, so
 * a warp tile takes WM*WN / (32*TM*TN) sub-tiles, WNITER across and
 * WMITER down. */
#define LAB7_WT_WMITER \
    ((LAB7_WT_WM * LAB7_WT_WN) / (LAB7_WARP_SIZE * LAB7_WT_TM * LAB7_WT_TN * LAB7_WT_WNITER))
#define LAB7_WT_WSUBM (LAB7_WT_WM / LAB7_WT_WMITER) /* sub-tile rows */
#define LAB7_WT_WSUBN (LAB7_WT_WN / LAB7_WT_WNITER) /* sub-tile columns */
#define LAB7_WT_WARPS ((LAB7_WT_BM / LAB7_WT_WM) * (LAB7_WT_BN / LAB7_WT_WN))
#define LAB7_WT_THREADS (LAB7_WT_WARPS * LAB7_WARP_SIZE)

/* The four kernels, in the order of the handout, then the optional final
 * stage. */
typedef enum {
    LAB7_STAGE_BLOCK_TILE_1D = 0,
    LAB7_STAGE_BLOCK_TILE_2D = 1,
    LAB7_STAGE_VECTORISED = 2,
    LAB7_STAGE_WARP_TILE = 3,
    LAB7_STAGE_SIZED = 4 /* final stage (bonus): the block tile chosen per size */
} lab7_stage;
/* The four teaching stages, which every required test loops over.
 * LAB7_STAGE_SIZED is not counted: it is optional, and only bonus tests of
 * its own call it. */
enum { LAB7_STAGE_COUNT = 4 };

/* Final stage (optional): the small block tile, 64 x 64 with a K step of
 * 16, four warps of 32 x 32 warp tiles (the 4x4 thread tiles and the 32 x
 * 16 sub-tiles of stage 4), 128 threads; up to 4 blocks per SM. The
 * sweep's best at 256 .. 1024 on an H100
 * (handouts/results/h100-lab7-small-tiles.txt). */
#define LAB7_WTS_BM 64
#define LAB7_WTS_BN 64
#define LAB7_WTS_BK 16
#define LAB7_WTS_WM 32
#define LAB7_WTS_WN 32
#define LAB7_WTS_WNITER 2
#define LAB7_WTS_TM 4
#define LAB7_WTS_TN 4
#define LAB7_WTS_MIN_BLOCKS 4
#define LAB7_WTS_WMITER \
    ((LAB7_WTS_WM * LAB7_WTS_WN) / (LAB7_WARP_SIZE * LAB7_WTS_TM * LAB7_WTS_TN * LAB7_WTS_WNITER))
#define LAB7_WTS_WARPS ((LAB7_WTS_BM / LAB7_WTS_WM) * (LAB7_WTS_BN / LAB7_WTS_WN))
#define LAB7_WTS_THREADS (LAB7_WTS_WARPS * LAB7_WARP_SIZE)

/* Which block tile the final stage launches (lab7_choose_tile). */
enum { LAB7_TILE_LARGE = 0, LAB7_TILE_SMALL = 1 };

/* How much faster the large tile computes than the small one once both
 * keep every SM busy, as the fraction LAB7_TILE_RATE_LARGE /
 * LAB7_TILE_RATE_SMALL = 5/4 (lab7_choose_tile weighs each tile's work by
 * it; handout section 11 says where it comes from). */
#define LAB7_TILE_RATE_LARGE 5
#define LAB7_TILE_RATE_SMALL 4

/* A position: in a block tile, in a shared-memory tile, or in a warp. */
typedef struct {
    int row, col;
} lab7_coord;

/* ---- index helpers (TODOs) ----
 * Threads are numbered 0 .. threads-1 inside the block (the launches are
 * 1D: thread = threadIdx.x); warp = thread / 32, lane = thread % 32.
 * Positions are relative to the block's tile (row 0, col 0 = its corner). */

/* TODO(7.2) stage 1: the element of the BM1 x BN1 block tile that is result
 * i (0 <= i < TM1) of thread `thread`. A thread's TM1 results lie in one
 * column, on consecutive rows. */
LAB_HOST_DEVICE lab7_coord lab7_block_tile_1d_output(int thread, int i);

/* TODO(7.4) stages 2 and 3: the element of the BM2 x BN2 block tile that
 * is result (i, j) (0 <= i < TM2, 0 <= j < TN2) of thread `thread`: a
 * TM2 x TN2 square of neighbours. */
LAB_HOST_DEVICE lab7_coord lab7_block_tile_2d_output(int thread, int i, int j);

/* TODO(7.6) stages 3 and 4, the float4 loads: the first of the 4 floats
 * that thread `thread` of a block of `threads` loads in round `round` from
 * a shared tile `tile_cols` floats wide (A's BM x BK tile, tile_cols = BK;
 * B's BK x BN tile, tile_cols = BN). Each round the block loads `threads`
 * float4s; the rounds together load the tile once. */
LAB_HOST_DEVICE lab7_coord lab7_float4_load(int thread, int round, int threads, int tile_cols);
/* TODO(7.6) where element `a` (row, col) of the BM x BK tile of A lands in
 * shared memory, stored TRANSPOSED as As[BK][BM] (`bm` = BM): a word offset. */
LAB_HOST_DEVICE int lab7_a_transposed_offset(lab7_coord a, int bm);

/* TODO(7.8) stage 4, the warp tile. Warp `warp_idx` (0 .. WARPS-1) owns a
 * WM x WN warp tile of the block tile: its top-left corner. */
LAB_HOST_DEVICE lab7_coord lab7_warp_tile_origin(int warp_idx);
/* TODO(7.8) lane `lane` (0..31) of a warp: its (thread_row_in_warp,
 * thread_col_in_warp) in the (WSUBM/TM) x (WSUBN/TN) grid of threads that
 * covers one WSUBM x WSUBN sub-tile. */
LAB_HOST_DEVICE lab7_coord lab7_thread_in_warp(int lane);
/* TODO(7.8) the element of the BM x BN block tile that thread `thread`
 * computes as result (i, j) (0 <= i < TM, 0 <= j < TN) of sub-tile
 * (wm_iter, wn_iter) (0 <= wm_iter < WMITER, 0 <= wn_iter < WNITER). */
LAB_HOST_DEVICE lab7_coord lab7_warp_tile_output(int thread, int wm_iter, int wn_iter, int i,
                                                 int j);

/* ---- final stage (optional, bonus): the block tile per size ---- */

/* TODO(7.11) how many bm x bn block tiles cover an m x n C (any positive
 * sizes: a partial tile at an edge is a block too). */
LAB_HOST_DEVICE int lab7_tile_blocks(int m, int n, int bm, int bn);
/* TODO(7.11) the block tile for an m x n C on a GPU of `sm_count` SMs
 * (sm_count >= 1): the one whose busiest SM finishes first. A tile's
 * busiest SM runs ceil(blocks / sm_count) of its blocks; its time is that
 * many blocks' area (BM x BN) divided by the tile's rate
 * (LAB7_TILE_RATE_*). LAB7_TILE_LARGE (LAB7_WT_BM x LAB7_WT_BN) when its
 * time is no longer than the small tile's, else LAB7_TILE_SMALL
 * (LAB7_WTS_BM x LAB7_WTS_BN). In integers: large when
 * rounds_large * 128 * 128 * RATE_SMALL <= rounds_small * 64 * 64 * RATE_LARGE. */
LAB_HOST_DEVICE int lab7_choose_tile(int m, int n, int sm_count);

/* ---- entry points (device pointers) ---- */

/* C = alpha * A * B + beta * C with the stage asked for. LAB7_STAGE_SIZED
 * (bonus, TODO(7.11)-(7.13)) follows the same size rule. */
lab_status lab7_sgemm(lab7_stage stage, int m, int n, int k, float alpha, const float *a,
                      const float *b, float beta, float *c);

/* Bonus (TODO(7.10)): the same with the warp-tiled kernel for ANY positive
 * M, N, K and any float alignment. */
lab_status lab7_sgemm_any_size(int m, int n, int k, float alpha, const float *a, const float *b,
                               float beta, float *c);

/* What the compiler made of a stage's kernel (static shared memory,
 * registers, local memory = spills, the largest block it can run):
 * cudaFuncGetAttributes. For LAB7_STAGE_SIZED: its small-tile kernel (its
 * large tile is stage 4's kernel). */
lab_status lab7_kernel_attributes(lab7_stage stage, struct cudaFuncAttributes *out);

#ifdef __cplusplus
}
#endif

#endif
