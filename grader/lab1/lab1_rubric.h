/* Lab 1 (thread indexing): speed thresholds, each a ratio measured in one process against a
 * baseline or a ceiling, never an absolute time. How each was calibrated, and why each floor:
 * docs/notes/lab1-indexing.md, "Thresholds". Points: lab1_grader.c's test table. */
#ifndef LAB1_RUBRIC_H
#define LAB1_RUBRIC_H

/* CALIBRATED(NAME, default): a calibration file of the GPU the grader runs on (make calibrate,
 * grader/calibration/) may replace the default at run time. */
#include "calibrated.h"

/* FLOOR: no partial credit at or below it (harness.h, grader_speed_curve). REFERENCE: the
 * reference's median, for the review list's "far beyond the reference" flag. */

/* The 2D image kernel over a 1D copy of the same bytes. H200, 20 runs: reference
 * 0.8787-0.8795, swapped x/y 0.6019-0.6025 (the floor). */
#define LAB1_IMAGE_COPY_FRACTION_MIN CALIBRATED(LAB1_IMAGE_COPY_FRACTION_MIN, 0.74)
#define LAB1_IMAGE_COPY_FRACTION_FLOOR 0.60
#define LAB1_IMAGE_COPY_FRACTION_REFERENCE 0.879

/* The grid-stride kernel over the copy kernel; no partial credit. H100, 20 runs: reference
 * 0.2936-0.2973, block stride 0.00336-0.00340. */
#define LAB1_GRID_STRIDE_COPY_FRACTION_MIN CALIBRATED(LAB1_GRID_STRIDE_COPY_FRACTION_MIN, 0.1)

/* The GPU memory below which gpu_scale_grid_stride_near_int_max (16 GiB of arrays) is not
 * gradable. */
#define LAB1_NEAR_INT_MAX_GIB 18

#endif
