/* Lab 8 (tensor cores): thresholds, each with its calibration.
 *
 * Each speed threshold is a ratio measured in one process against a
 * yardstick (never an absolute time) at M = N = K = LAB8_SPEED_SIZE: lab
 * 7's warp-tiled FP32 kernel (lab7_sgemm(LAB7_STAGE_WARP_TILE), from lab
 * 7's reference: lab7_reference, grader/lab7/lab7_answer_libraries.list),
 * on the same values as floats, or cuBLAS cublasGemmEx with FP16 inputs
 * and FP32 compute (lab8_cublas.c). The points of each test are in
 * lab8_grader.c's test table.
 *
 * PROVISIONAL: to be calibrated on H200. No value below has been measured
 * yet. Each is a guess from public peak rates and lab 7's measured ratios,
 * written so that the lab can be built and its tests registered; the
 * calibration (make calibrate on an H200, grader/calibration/rules.json)
 * replaces them with values that sit between the reference's minimum and
 * the self-tests' maximum, with the runs written here as for lab 7. */
#ifndef LAB8_RUBRIC_H
#define LAB8_RUBRIC_H

/* Each graded threshold below is CALIBRATED(NAME, default): a calibration
 * file of the GPU the grader runs on (make calibrate) may set another at
 * run time (grader/calibration/, docs/design.md section 3.7). */
#include "calibrated.h"

/* The cube the speed checks time: 2 * 4096^3 = 137 GFLOP per call; A and B
 * are 32 MiB each in FP16, C 64 MiB in FP32. */
#define LAB8_SPEED_SIZE 4096

/* Stage 2 (WMMA through shared memory) over lab 7's warp tile.
 * PROVISIONAL: to be calibrated on H200. 4.0 is the goal for the
 * H200 (stage 2 at least 4 times lab 7's warp tile at 4096^3), not a
 * measurement. The self-test (lab 7's warp tile in stage 2's place) must
 * stay below it: it reads about 1.0 by construction. */
#define LAB8_WMMA_SHARED_SPEEDUP_MIN CALIBRATED(LAB8_WMMA_SHARED_SPEEDUP_MIN, 4.0)
/* Partial credit under the threshold (harness.h, grader_speed_curve):
 * nothing for a kernel no faster than lab 7's FP32 warp tile (1.0), which
 * uses no tensor core. The reference's median: 0, not measured yet
 * (PROVISIONAL: to be calibrated on H200). */
#define LAB8_SPEEDUP_OVER_LAB7_FLOOR 1.0
#define LAB8_WMMA_SHARED_SPEEDUP_REFERENCE 0.0

/* Stage 2 as a fraction of cuBLAS (FP16 in, FP32 compute).
 * PROVISIONAL: to be calibrated on H200. A single-buffered WMMA kernel
 * with 128 x 128 block tiles is expected well below cuBLAS (no
 * asynchronous copies, no ldmatrix swizzle, no pipelining: part 2 of the
 * lab); 0.25 is a guess. Lab 7's warp tile in stage 2's place (the
 * self-test) reaches the FP32 rate only, a small fraction of the FP16
 * tensor rate. */
#define LAB8_WMMA_SHARED_CUBLAS_FRACTION_MIN CALIBRATED(LAB8_WMMA_SHARED_CUBLAS_FRACTION_MIN, 0.25)
/* Nothing for lab 7's FP32 rate as a fraction of cuBLAS FP16; the
 * PROVISIONAL floor is the H200's FP32 peak over its dense FP16 tensor peak
 * from NVIDIA's data sheet (67 / 989 TFLOPS, about 0.07), to be replaced by
 * the self-test's measured median. */
#define LAB8_CUBLAS_FRACTION_FLOOR 0.07
#define LAB8_WMMA_SHARED_CUBLAS_FRACTION_REFERENCE 0.0

#endif
