/* Lab 3 (shared-memory tiles): speed thresholds. Each is a ratio measured in one
 * process against a baseline or a ceiling, never an absolute time; its
 * comment gives the reference's and the baseline's range on the GPU it was
 * calibrated on, and the margin. The whole record (commands, every GPU,
 * history) is in docs/notes/lab3-shared-tiles.md, "Thresholds". The points
 * of each test are in lab3_grader.c's test table. */
#ifndef LAB3_RUBRIC_H
#define LAB3_RUBRIC_H

/* Each graded threshold below is CALIBRATED(NAME, default): the default is
 * the value here, and a calibration file of the GPU the grader runs on
 * (make calibrate, grader/calibration/; the rule it applies to each ratio is
 * in grader/calibration/rules.json) may set another at run time. */
#include "calibrated.h"

/* CPU coalescing checks, as for lab 2 (a property of the index maths). */
#define LAB3_MAX_SECTOR_RATIO 2.0

/* The tiled kernel (TILE 32) at 2048^3 over the grader's naive coalesced
 * kernel (lab 2's solution). H200, 20 runs: reference 1.3744-1.3759, the
 * same with 16x16 tiles 1.2050-1.2061 (a metric), the baseline against
 * itself 0.9988-1.0009. 1.2 is 13% under the reference, 20% over the
 * baseline. */
#define LAB3_TILED_SPEEDUP_MIN CALIBRATED(LAB3_TILED_SPEEDUP_MIN, 1.2)
/* Partial credit under the threshold, in the batch grader (harness.h,
 * grader_speed_curve): nothing for a kernel no faster than the
 * naive one (1.0); the reference's median on the H200 (README) for the
 * review list's "far beyond the reference" flag. */
#define LAB3_TILED_SPEEDUP_FLOOR 1.0
#define LAB3_TILED_SPEEDUP_REFERENCE 1.375

/* The thread-tile kernel (BM=BN=64, BK=8, TM=8) at 2048^3 over the same
 * baseline. H200, 20 runs: reference 2.5466-2.5564. 2.0 is 21% under it and
 * well above what tiling alone gives (1.375). */
#define LAB3_THREAD_TILE_SPEEDUP_MIN CALIBRATED(LAB3_THREAD_TILE_SPEEDUP_MIN, 2.0)
/* Partial credit as for the tiled kernel: floor 1.0 (no faster than the
 * naive kernel), the reference's H200 median (README) for the review flag. */
#define LAB3_THREAD_TILE_SPEEDUP_FLOOR 1.0
#define LAB3_THREAD_TILE_SPEEDUP_REFERENCE 2.55

#endif
