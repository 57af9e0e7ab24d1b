/* Lab 7 (warp tiling): thresholds, each with its calibration.
 *
 * Each speed threshold is a ratio measured in one process against a
 * yardstick (never an absolute time) at M = N = K = LAB7_SPEED_SIZE: lab 3's
 * tiled kernel (lab3_matmul_tiled, TILE 32, from lab 3's reference:
 * lab3_reference in grader/answer_libraries.list), or cuBLAS SGEMM in pure
 * FP32 (CUBLAS_PEDANTIC_MATH: no TF32, no tensor cores; lab7_cublas.c).
 * The points of each test are in lab7_grader.c's test table.
 *
 * ***** PROVISIONAL until calibrated on the GPU *****
 * Every speed threshold below is a placeholder chosen before any GPU run
 * of this lab. Calibrate with
 *   OUT_DIR=... REPEAT=20 LABS="7" grader/tools/gpu_session.sh
 * and replace each comment with the GPU, driver, CUDA version and the
 * min/median/max of the reference and of the self-tests, as lab 4's
 * rubric does. */
#ifndef LAB7_RUBRIC_H
#define LAB7_RUBRIC_H

/* The cube the speed checks time: 2 * 4096^3 = 137 GFLOP per call, each
 * matrix 64 MiB (C alone is larger than an H100's 50 MiB L2). */
#define LAB7_SPEED_SIZE 4096

/* CPU: a warp's float4 loads (and stage 1's stores) may touch at most this
 * many times the sectors their bytes need. */
#define LAB7_MAX_SECTOR_RATIO 1.5

/* Stage 1 (block tile 1D) over lab 3's tiled kernel. PROVISIONAL. */
#define LAB7_BLOCK_TILE_1D_SPEEDUP_MIN 1.5
/* Stage 2 (block tile 2D) over lab 3's tiled kernel. PROVISIONAL. */
#define LAB7_BLOCK_TILE_2D_SPEEDUP_MIN 2.5
/* Stage 3 (vectorised) over lab 3's tiled kernel. PROVISIONAL. */
#define LAB7_VECTORISED_SPEEDUP_MIN 3.0
/* Stage 4 (warp tile) over lab 3's tiled kernel. PROVISIONAL. */
#define LAB7_WARP_TILE_SPEEDUP_MIN 3.5
/* Stage 4 as a fraction of cuBLAS FP32 (cuBLAS time / stage-4 time),
 * measured in the same run. PROVISIONAL. */
#define LAB7_WARP_TILE_CUBLAS_FRACTION_MIN 0.70

#endif
