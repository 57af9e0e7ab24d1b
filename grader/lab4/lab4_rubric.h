/* Lab 4 (transpose and bank conflicts): speed thresholds. Each is a ratio measured in one
 * process against a baseline or a ceiling, never an absolute time; its
 * comment gives the reference's and the baseline's range on the GPU it was
 * calibrated on, and the margin. The whole record (commands, every GPU,
 * history) is in docs/notes/lab4-transpose.md, "Thresholds". The points
 * of each test are in lab4_grader.c's test table. */
#ifndef LAB4_RUBRIC_H
#define LAB4_RUBRIC_H

/* Each graded threshold below is CALIBRATED(NAME, default): the default is
 * the value here, and a calibration file of the GPU the grader runs on
 * (make calibrate, grader/calibration/; the rule it applies to each ratio is
 * in grader/calibration/rules.json) may set another at run time. */
#include "calibrated.h"

/* The square matrix the speed checks time. */
#define LAB4_SPEED_SIZE 8192

/* CPU: a warp's 32 loads (stores) of consecutive floats need 4 sectors;
 * allow no more than this many times the ideal. A transposed mapping
 * touches 32, eight times the ideal. */
#define LAB4_MAX_SECTOR_RATIO 1.5

/* (b) the unpadded tile over the naive transpose (lab4_baseline_naive).
 * H100, 20 runs: reference 2.1316-2.1363, the naive kernel against itself
 * 1.0047-1.0068. 1.5 is 30% under the reference, 50% over the baseline. */
#define LAB4_SMEM_SPEEDUP_MIN CALIBRATED(LAB4_SMEM_SPEEDUP_MIN, 1.5)
/* Partial credit under the threshold, in the batch grader (harness.h,
 * grader_speed_curve): nothing for a kernel no faster than the
 * yardstick, the naive transpose (1.0); the reference's median on the
 * H100 for the review list's "far beyond the reference" flag (recorded
 * as 2.132; the session above has 2.1342). */
#define LAB4_SMEM_SPEEDUP_FLOOR 1.0
#define LAB4_SMEM_SPEEDUP_REFERENCE 2.132

/* (c) the padded tile over the grader's unpadded tile. H100, same
 * session: reference 1.6480-1.6541, the unpadded tile against itself
 * 0.9984-1.0018. 1.3 is 21% under the reference, 30% over the baseline. */
#define LAB4_PADDED_SPEEDUP_MIN CALIBRATED(LAB4_PADDED_SPEEDUP_MIN, 1.3)
/* Partial credit: floor 1.0, no faster than the unpadded tile; the
 * reference's H100 median for the review flag (recorded as 1.655; the
 * session above has 1.6512). */
#define LAB4_PADDED_SPEEDUP_FLOOR 1.0
#define LAB4_PADDED_SPEEDUP_REFERENCE 1.655

/* (d) the multirow kernel's bandwidth over a device-to-device cudaMemcpy of
 * the same bytes in the same run. H100, same session: reference
 * 0.9367-0.9397, the unpadded tile in its place 0.3313-0.3325. 0.75 is 20%
 * under the reference. */
#define LAB4_MULTIROW_COPY_FRACTION_MIN CALIBRATED(LAB4_MULTIROW_COPY_FRACTION_MIN, 0.75)
/* Partial credit: floor 0.5, about what a plain shared-memory transpose
 * reaches (the padded tile, 0.55 above); the reference's H100 median for
 * the review flag. */
#define LAB4_MULTIROW_COPY_FRACTION_FLOOR 0.5
#define LAB4_MULTIROW_COPY_FRACTION_REFERENCE 0.938

/* (e) the final stage (bonus), as a fraction of the copy as for (d).
 * H100, 3 rounds: reference 0.9660-0.9703, the unpadded tile in its place
 * 0.3316-0.3325; H200, 6 rounds: 0.9507-0.9533 and 0.2460-0.2470. 0.75
 * keeps 1.27x under the reference and 2.26x over the baseline. The margin
 * rule cannot tell this stage from (d), so its goal (0.95 of the copy) is
 * reported, not graded; its lesson, the gather's pitch, is graded on the
 * CPU (LAB4_VEC_MAX_CONFLICT_DEGREE). */
#define LAB4_VECTOR_COPY_FRACTION_MIN CALIBRATED(LAB4_VECTOR_COPY_FRACTION_MIN, 0.75)
/* Partial credit: floor 0.5, as for (d) (about the padded tile with
 * 32 x 32 threads); the reference's H100 median (above) for the review
 * flag. */
#define LAB4_VECTOR_COPY_FRACTION_FLOOR 0.5
#define LAB4_VECTOR_COPY_FRACTION_REFERENCE 0.967

/* CPU: the worst bank conflict a warp's tile access of the final stage may
 * have. 2 is the fewest the layout allows: for one component, the 16 lanes
 * of a block row read or write words 4*tx apart (times the pitch for the
 * gather), and 4*tx mod 32 takes only 8 values, so some bank always serves
 * two lanes; pitch 65 reaches it on both sides (pitch 68: 8-way gather,
 * pitch 64: 16-way). */
#define LAB4_VEC_MAX_CONFLICT_DEGREE 2

#endif
