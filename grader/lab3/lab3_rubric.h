/* Lab 3 (shared-memory tiles): speed thresholds, each a ratio measured in one process against
 * a baseline or a ceiling, never an absolute time. How each was calibrated, and why each floor:
 * docs/notes/lab3-shared-tiles.md, "Thresholds". Points: lab3_grader.c's test table. */
#ifndef LAB3_RUBRIC_H
#define LAB3_RUBRIC_H

/* CALIBRATED(NAME, default): a calibration file of the GPU the grader runs on (make calibrate,
 * grader/calibration/) may replace the default at run time. */
#include "calibrated.h"

/* CPU coalescing checks, as for lab 2 (a property of the index maths). */
#define LAB3_MAX_SECTOR_RATIO 2.0

/* FLOOR: no partial credit at or below it (harness.h, grader_speed_curve): 1.0, no faster
 * than the naive kernel. REFERENCE: the reference's median, for the review list's "far beyond
 * the reference" flag. */

/* The tiled kernel (TILE 32) at 2048^3 over the grader's naive coalesced kernel. H200, 20
 * runs: reference 1.3744-1.3759, 16x16 tiles 1.2050-1.2061, the baseline 0.9988-1.0009. */
#define LAB3_TILED_SPEEDUP_MIN CALIBRATED(LAB3_TILED_SPEEDUP_MIN, 1.2)
#define LAB3_TILED_SPEEDUP_FLOOR 1.0
#define LAB3_TILED_SPEEDUP_REFERENCE 1.375

/* The thread-tile kernel (BM=BN=64, BK=8, TM=8), same baseline. H200, 20 runs: reference
 * 2.5466-2.5564, well above tiling alone (1.375). */
#define LAB3_THREAD_TILE_SPEEDUP_MIN CALIBRATED(LAB3_THREAD_TILE_SPEEDUP_MIN, 2.0)
#define LAB3_THREAD_TILE_SPEEDUP_FLOOR 1.0
#define LAB3_THREAD_TILE_SPEEDUP_REFERENCE 2.55

#endif
