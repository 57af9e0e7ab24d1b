/* Lab 4 (transpose and bank conflicts): speed thresholds, each a ratio measured in one process
 * against a baseline or a ceiling, never an absolute time. How each was calibrated, and why
 * each floor: docs/notes/lab4-transpose.md, "Thresholds" (the H100 session's results:
 * handouts/results/h100-lab4.txt). Points: lab4_grader.c's test table. */
#ifndef LAB4_RUBRIC_H
#define LAB4_RUBRIC_H

/* CALIBRATED(NAME, default): a calibration file of the GPU the grader runs on (make calibrate,
 * grader/calibration/) may replace the default at run time. */
#include "calibrated.h"

/* The square matrix the speed checks time. */
#define LAB4_SPEED_SIZE 8192

/* CPU: the sectors a warp's 32 loads (stores) may touch over the ideal 4 (transposed: 8x). */
#define LAB4_MAX_SECTOR_RATIO 1.5

/* FLOOR: no partial credit at or below it (harness.h, grader_speed_curve). REFERENCE: the
 * reference's H100 median, for the review list's "far beyond the reference" flag. */

/* (b) the unpadded tile over the naive transpose. H100, 20 runs: reference 2.1316-2.1363,
 * the naive kernel against itself 1.0047-1.0068 (the floor: no faster than it). */
#define LAB4_SMEM_SPEEDUP_MIN CALIBRATED(LAB4_SMEM_SPEEDUP_MIN, 1.5)
#define LAB4_SMEM_SPEEDUP_FLOOR 1.0
#define LAB4_SMEM_SPEEDUP_REFERENCE 2.132

/* (c) the padded tile over the grader's unpadded tile. Same session: reference
 * 1.6480-1.6541, the unpadded tile against itself 0.9984-1.0018 (the floor). */
#define LAB4_PADDED_SPEEDUP_MIN CALIBRATED(LAB4_PADDED_SPEEDUP_MIN, 1.3)
#define LAB4_PADDED_SPEEDUP_FLOOR 1.0
#define LAB4_PADDED_SPEEDUP_REFERENCE 1.655

/* (d) the multirow kernel over a device-to-device cudaMemcpy of the same bytes. Same session:
 * reference 0.9367-0.9397, the unpadded tile 0.3313-0.3325; floor: the padded tile (0.55). */
#define LAB4_MULTIROW_COPY_FRACTION_MIN CALIBRATED(LAB4_MULTIROW_COPY_FRACTION_MIN, 0.75)
#define LAB4_MULTIROW_COPY_FRACTION_FLOOR 0.5
#define LAB4_MULTIROW_COPY_FRACTION_REFERENCE 0.938

/* (e) the final stage (bonus), as for (d). H100, 3 rounds: reference 0.9660-0.9703, the
 * unpadded tile 0.3316-0.3325. Its goal (0.95) is reported, not graded: the margin rule cannot
 * tell it from (d); its lesson, the gather's pitch, is graded by the degree below. */
#define LAB4_VECTOR_COPY_FRACTION_MIN CALIBRATED(LAB4_VECTOR_COPY_FRACTION_MIN, 0.75)
#define LAB4_VECTOR_COPY_FRACTION_FLOOR 0.5
#define LAB4_VECTOR_COPY_FRACTION_REFERENCE 0.967

/* CPU: the worst bank conflict a warp's tile access of the final stage may have; 2 is the
 * fewest its layout allows (pitch 65; 68 gives 8-way, 64 gives 16-way). */
#define LAB4_VEC_MAX_CONFLICT_DEGREE 2

#endif
