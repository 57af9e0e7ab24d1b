/* Lab 7 (warp tiling): thresholds, each with its calibration.
 *
 * Each speed threshold is a ratio measured in one process against a
 * yardstick (never an absolute time) at M = N = K = LAB7_SPEED_SIZE: lab 3's
 * tiled kernel (lab3_matmul_tiled, TILE 32, from lab 3's reference:
 * lab3_reference, grader/lab3/lab3_answer_libraries.list), or cuBLAS SGEMM
 * in pure FP32 (CUBLAS_PEDANTIC_MATH: no TF32, no tensor cores; lab7_cublas.c).
 * The points of each test are in lab7_grader.c's test table.
 *
 *
 * Measured: NVIDIA H100 80GB HBM3 (sm_90, driver 580.159, CUDA 13.0), 20
 * runs of `OUT_DIR=... REPEAT=N LABS="7" grader/tools/gpu_session.sh` (12 +
 * 8; handouts/results/h100-lab7.txt), each a median of interleaved,
 * verified pairs at 4096^3. The reference
 * reads (GFLOP/s): lab 3 tiled 9.0k, stage 1 17.5k, stage 2 25.5k, stage 3
 * 37.4k, stage 4 47.4k, cuBLAS 51.3k. Not measured on an H200 for the
 * stages; the tile sweep's probe of the same stage-4 shape there gave 88.8%
 * of cuBLAS against 89.5% on the H100, and every other ratio here is of
 * two compute-bound kernels on the same SMs. */
#ifndef LAB7_RUBRIC_H
#define LAB7_RUBRIC_H

/* Each graded threshold below is CALIBRATED(NAME, default): the default is
 * the value here, and a calibration file of the GPU the grader runs on
 * (make calibrate, grader/calibration/; the rule it applies to each ratio is
 * in grader/calibration/rules.json) may set another at run time. */
#include "calibrated.h"

/* The cube the speed checks time: 2 * 4096^3 = 137 GFLOP per call, each
 * matrix 64 MiB (C alone is larger than an H100's 50 MiB L2). */
#define LAB7_SPEED_SIZE 4096

/* CPU: a warp's float4 loads (and stage 1's stores) may touch at most this
 * many times the sectors their bytes need. */
#define LAB7_MAX_SECTOR_RATIO 1.5

/* Stage 1 (block tile 1D) over lab 3's tiled kernel.
 *   reference stage 1                        min 1.9375  median 1.9395  max 1.9408
 *   lab 3's tiled kernel itself (self-test)  min 0.9994  median 0.9999  max 1.0003
 * (Lab 3's own thread tile, the same idea with the same tile, reads 1.87.)
 * 1.6 is 17% under the reference and 60% over lab 3's tiled kernel. */
#define LAB7_BLOCK_TILE_1D_SPEEDUP_MIN CALIBRATED(LAB7_BLOCK_TILE_1D_SPEEDUP_MIN, 1.6)
/* Partial credit under the threshold, in the batch grader (harness.h,
 * grader_speed_curve): for each speedup over lab 3, nothing for
 * a kernel no faster than lab 3's tiled one (1.0); each stage's reference
 * median (H100, above) for the review list's "far beyond the reference"
 * flag. The fraction of cuBLAS: below. */
#define LAB7_SPEEDUP_OVER_LAB3_FLOOR 1.0
#define LAB7_BLOCK_TILE_1D_SPEEDUP_REFERENCE 1.940

/* Stage 2 (block tile 2D) over lab 3's tiled kernel.
 *   reference stage 2                        min 2.8186  median 2.8232  max 2.8267
 * 2.3 is 18% under it and 19% over a stage 2 no faster than stage 1 (1.94). */
#define LAB7_BLOCK_TILE_2D_SPEEDUP_MIN CALIBRATED(LAB7_BLOCK_TILE_2D_SPEEDUP_MIN, 2.3)
#define LAB7_BLOCK_TILE_2D_SPEEDUP_REFERENCE 2.823

/* Stage 3 (vectorised) over lab 3's tiled kernel.
 *   reference stage 3                        min 4.1376  median 4.1440  max 4.1508
 * 3.4 is 18% under it and 20% over a stage 3 no faster than stage 2 (2.82). */
#define LAB7_VECTORISED_SPEEDUP_MIN CALIBRATED(LAB7_VECTORISED_SPEEDUP_MIN, 3.4)
#define LAB7_VECTORISED_SPEEDUP_REFERENCE 4.144

/* Stage 4 (warp tile) over lab 3's tiled kernel, and as a fraction of
 * cuBLAS FP32 (cuBLAS time / stage-4 time) in the same run.
 *   reference stage 4 over lab 3             min 5.2462  median 5.2522  max 5.2583
 *   reference stage 4, fraction of cuBLAS    min 0.9191  median 0.9225  max 0.9307
 *   lab 3's thread tile (self-tests)         over lab 3 1.869-1.875, of cuBLAS 0.328-0.340
 * The reference loads the next tiles during the arithmetic (two buffers);
 * a correct warp tile without that, the first version TODO(7.9) asks for,
 * read 80.5% of cuBLAS in the sweep's probe (H100; 79.6% on an H200), so
 * about 4.6x lab 3. The thresholds let that version pass with 12-15% to
 * spare: 4.0 is 24% under the reference, 0.70 is 24% under it. */
#define LAB7_WARP_TILE_SPEEDUP_MIN CALIBRATED(LAB7_WARP_TILE_SPEEDUP_MIN, 4.0)
#define LAB7_WARP_TILE_CUBLAS_FRACTION_MIN CALIBRATED(LAB7_WARP_TILE_CUBLAS_FRACTION_MIN, 0.70)
#define LAB7_WARP_TILE_SPEEDUP_REFERENCE 5.252
/* Partial credit on the fraction of cuBLAS: floor 0.175, about what lab 3's
 * tiled kernel reaches (9.0k of 51.3k GFLOP/s, above), so a warp tile no
 * faster than lab 3 earns nothing; the reference's median for the review flag. */
#define LAB7_WARP_TILE_CUBLAS_FRACTION_FLOOR 0.175
#define LAB7_WARP_TILE_CUBLAS_FRACTION_REFERENCE 0.923

/* The optional final stage (bonus): the block tile chosen per size, over
 * lab 3's tiled kernel at LAB7_SIZED_SPEED_SIZE^3.
 *
 * Measured by this grader (make calibrate,
 * handouts/results/h100-h200-final-stages.txt), min / median / max:
 *                          reference               stage 4 in its place
 *   H100, 3 rounds   1.388 1.397 1.427     0.6390 0.6414 0.6426
 *   H200, 5 rounds   1.381 1.386 1.394     0.6307 0.6326 0.6408
 * so the rule allows 0.739 <= T <= 1.207 on the H100 and 0.737 <= T <=
 * 1.20 on the H200, and 1.0 keeps at least 1.38 above and 1.56 below.
 * (Few rounds stand in for the rule's 20: gpu_session.sh, LABS="7", records
 * them.) The size bench of the same sessions (L2 flushed, 21 runs, both
 * kernels timed alike) had lab 3 / this stage at 0.01456 / 0.01523 ms at
 * 256 and 0.03725 / 0.02672 ms at 512 on the H100 (0.01466 / 0.01530 and
 * 0.03744 / 0.02714 on the H200): 4-5% slower than lab 3 at 256, 1.38-1.39x
 * faster at 512. What follows is how the default was set before any grader
 * had timed the stage, from other programs.
 *
 * Why 512 and not 256. Issue 27 asks for lab 7's best stage to be no
 * slower than lab 3 from 256 on. At 256, 512 and 1024 the lab's 128 x 128
 * tile gives 4, 16 and 64 blocks to the H100's 132 SMs, and the stage picks
 * the 64 x 64 tile there (16, 64, 256 blocks). What is known, H100 80GB
 * HBM3, driver 580.159.04, CUDA 13.0, 2026-11-26:
 *   lab 3's tiled kernel (bench, L2 flushed)   256: 0.01453 ms  512: 0.03709 ms
 *   stage 4, 128 x 128 (same bench)            256: 0.0316 ms   512: 0.0581 ms
 *   64 x 64 tile (tile sweep, no L2 flush)     256: 0.0157 ms   512: 0.0243 ms
 * (handouts/results/h100-lab7-small-tiles.txt; the sweep's BK 16 rows, the
 * shape this stage uses; the sweep timed stage 4's 128 x 128 tile at 0.0315
 * and 0.0545 ms, within 0.3% and 6% of the bench, so at these sizes the
 * flush moves little, but the two methods are not the same.) As ratios
 * lab 3 / kernel:
 *   at 256: stage 4 (the baseline) 0.460, the final stage about 0.93
 *   at 512: stage 4 (the baseline) 0.638, the final stage about 1.53
 * The margin rule (grader/calibration/rules.json, margin 1.15) allows T
 * with baseline max x 1.15 <= T <= reference min / 1.15:
 *   at 256: 0.529 <= T <= 0.805. The target, 1.0, is outside: by
 *     these numbers the 64 x 64 tile is about 8% SLOWER than lab 3 at 256,
 *     so no threshold can grade "no slower than lab 3" there, and this
 *     stage does not meet the target at 256: the size bench,
 *     which times both the same way, has it 4-5% behind (above).
 *   at 512: 0.734 <= T <= 1.33. 1.0, "no slower than lab 3", is inside:
 *     1.57 times the baseline, and the reference 1.53 times above it.
 * So the test runs at 512 with the issue's own target, which the grader's
 * own measurements (above) confirm on both GPUs. The baseline is the lab's
 * stage 4 in this stage's place (selftest_warp_tile_below_sized_threshold):
 * what a chooser that always picks the large tile launches. */
#define LAB7_SIZED_SPEED_SIZE 512
#define LAB7_SIZED_SPEEDUP_MIN CALIBRATED(LAB7_SIZED_SPEEDUP_MIN, 1.0)
/* Partial credit: floor 0.64, stage 4's ratio at 512 (above), so a stage
 * no faster than its large tile alone earns nothing; the reference's H100
 * median (above) for the review flag. */
#define LAB7_SIZED_SPEEDUP_FLOOR 0.64
#define LAB7_SIZED_SPEEDUP_REFERENCE 1.397

#endif
