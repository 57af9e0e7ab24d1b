/* Lab 7 (warp tiling): speed thresholds, each a ratio measured in one process at
 * M = N = K = LAB7_SPEED_SIZE against lab 3's tiled kernel (TILE 32, from lab 3's reference)
 * or cuBLAS SGEMM in pure FP32 (CUBLAS_PEDANTIC_MATH: no TF32; lab7_cublas.c), never an
 * absolute time. Ranges below: H100, 20 runs (handouts/results/h100-lab7.txt). How each was
 * calibrated, and why each floor: docs/notes/lab7-warp-tiling.md, "Thresholds". Points:
 * lab7_grader.c's test table. */
#ifndef LAB7_RUBRIC_H
#define LAB7_RUBRIC_H

/* CALIBRATED(NAME, default): a calibration file of the GPU the grader runs on (make calibrate,
 * grader/calibration/) may replace the default at run time. */
#include "calibrated.h"

/* The cube the speed checks time: each matrix 64 MiB, C alone larger than an H100's L2. */
#define LAB7_SPEED_SIZE 4096

/* CPU: the sectors a warp's float4 loads (and stage 1's stores) may touch over those their
 * bytes need. */
#define LAB7_MAX_SECTOR_RATIO 1.5

/* FLOOR: no partial credit at or below it (harness.h, grader_speed_curve); for each speedup
 * over lab 3, 1.0: no faster than lab 3's tiled kernel. REFERENCE: the reference's median,
 * for the review list's "far beyond the reference" flag. */
#define LAB7_SPEEDUP_OVER_LAB3_FLOOR 1.0

/* Stage 1 (block tile 1D): reference 1.9375-1.9408, lab 3's kernel against itself
 * 0.9994-1.0003. */
#define LAB7_BLOCK_TILE_1D_SPEEDUP_MIN CALIBRATED(LAB7_BLOCK_TILE_1D_SPEEDUP_MIN, 1.6)
#define LAB7_BLOCK_TILE_1D_SPEEDUP_REFERENCE 1.940

/* Stage 2 (block tile 2D): reference 2.8186-2.8267; 2.3 is 19% over stage 1 (1.94). */
#define LAB7_BLOCK_TILE_2D_SPEEDUP_MIN CALIBRATED(LAB7_BLOCK_TILE_2D_SPEEDUP_MIN, 2.3)
#define LAB7_BLOCK_TILE_2D_SPEEDUP_REFERENCE 2.823

/* Stage 3 (vectorised): reference 4.1376-4.1508; 3.4 is 20% over stage 2 (2.82). */
#define LAB7_VECTORISED_SPEEDUP_MIN CALIBRATED(LAB7_VECTORISED_SPEEDUP_MIN, 3.4)
#define LAB7_VECTORISED_SPEEDUP_REFERENCE 4.144

/* Stage 4 (warp tile) over lab 3, and as a fraction of cuBLAS in the same run: reference
 * 5.2462-5.2583 and 0.9191-0.9307; lab 3's thread tile 1.869-1.875 and 0.328-0.340. A warp
 * tile without double buffering (TODO(7.9)'s first version, 80.5% of cuBLAS) passes. The
 * cuBLAS floor, 0.175, is about lab 3's tiled kernel. */
#define LAB7_WARP_TILE_SPEEDUP_MIN CALIBRATED(LAB7_WARP_TILE_SPEEDUP_MIN, 4.0)
#define LAB7_WARP_TILE_CUBLAS_FRACTION_MIN CALIBRATED(LAB7_WARP_TILE_CUBLAS_FRACTION_MIN, 0.70)
#define LAB7_WARP_TILE_SPEEDUP_REFERENCE 5.252
#define LAB7_WARP_TILE_CUBLAS_FRACTION_FLOOR 0.175
#define LAB7_WARP_TILE_CUBLAS_FRACTION_REFERENCE 0.923

/* The optional final stage (bonus): the block tile chosen per size, over lab 3's tiled kernel
 * at 512^3 (at 256 the margin rule allows no threshold at 1.0). H100, 3 rounds, 1.388-1.427;
 * H200, 5 rounds, 1.381-1.394; stage 4 in its place 0.6307-0.6426 (the floor), in
 * handouts/results/h100-h200-final-stages.txt. */
#define LAB7_SIZED_SPEED_SIZE 512
#define LAB7_SIZED_SPEEDUP_MIN CALIBRATED(LAB7_SIZED_SPEEDUP_MIN, 1.0)
#define LAB7_SIZED_SPEEDUP_FLOOR 0.64
#define LAB7_SIZED_SPEEDUP_REFERENCE 1.397

#endif
