/* Lab 2 (naive matmul): speed thresholds, each a ratio measured in one process against a
 * baseline or a ceiling, never an absolute time. How each was calibrated, and why each floor:
 * docs/notes/lab2-naive-matmul.md, "Thresholds". Points: lab2_grader.c's test table. */
#ifndef LAB2_RUBRIC_H
#define LAB2_RUBRIC_H

/* CALIBRATED(NAME, default): a calibration file of the GPU the grader runs on (make calibrate,
 * grader/calibration/) may replace the default at run time. */
#include "calibrated.h"

/* CPU: the sectors a warp request may touch over those its bytes need (a property of the
 * index maths: no calibration). */
#define LAB2_MAX_SECTOR_RATIO 2.0

/* FLOOR: no partial credit at or below it (harness.h, grader_speed_curve). REFERENCE: the
 * reference's median, for the review list's "far beyond the reference" flag. */

/* The naive kernel at 2048^3 over the grader's copy with threadIdx.x picking the row. H200,
 * 20 runs: reference 13.556-13.586, the baseline against itself 0.9999-1.0001. */
#define LAB2_SPEEDUP_OVER_UNCOALESCED_MIN CALIBRATED(LAB2_SPEEDUP_OVER_UNCOALESCED_MIN, 6.0)
#define LAB2_SPEEDUP_OVER_UNCOALESCED_FLOOR 1.0
#define LAB2_SPEEDUP_OVER_UNCOALESCED_REFERENCE 13.6

/* TODO(2.11): the student's median event time over CUPTI's, at 2048^3. H100, 20 runs:
 * 1.0029-1.0112; wide on the low side for hosts that record events late. */
#define LAB2_TIMING_RATIO_MIN 0.90
#define LAB2_TIMING_RATIO_MAX 1.25

#endif
