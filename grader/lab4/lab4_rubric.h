/* Lab 4 (transpose and bank conflicts): thresholds, each with its calibration.
 *
 * Each threshold is a ratio measured in one process against a yardstick
 * (never an absolute time), at 8192 x 8192 floats (256 MiB each way, five
 * times the 50 MiB L2 of an H100). Next to it: how it was calibrated (the
 * GPU, the command, min/median/max of the reference and of the yardstick).
 * The points of each test are in lab4_grader.c's test table. */
#ifndef LAB4_RUBRIC_H
#define LAB4_RUBRIC_H

/* The square matrix the speed checks time. */
#define LAB4_SPEED_SIZE 8192

/* CPU: a warp's 32 loads (stores) of consecutive floats need 4 sectors;
 * allow no more than this many times the ideal. A transposed mapping
 * touches 32, eight times the ideal. */
#define LAB4_MAX_SECTOR_RATIO 1.5

/* (b) the unpadded tile over the naive transpose (lab4_baseline_naive).
 * CALIBRATION PENDING: set from the first device session. */
#define LAB4_SMEM_SPEEDUP_MIN 2.0

/* (c) the padded tile over the grader's unpadded tile
 * (lab4_baseline_unpadded, 32 x 32 threads like (c)).
 * CALIBRATION PENDING. */
#define LAB4_PADDED_SPEEDUP_MIN 1.3

/* (d) the multirow kernel's bandwidth as a fraction of the device-to-device
 * cudaMemcpy of the same bytes, timed in the same run.
 * CALIBRATION PENDING. */
#define LAB4_MULTIROW_COPY_FRACTION_MIN 0.8

#endif
