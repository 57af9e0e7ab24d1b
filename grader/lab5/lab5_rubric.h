/* Lab 5 (parallel reduction): speed thresholds, each with its calibration.
 *
 * Each threshold is a ratio measured in one process against a baseline or a
 * ceiling (never an absolute time), on LAB5 speed inputs of 2^27 floats
 * (512 MiB, ten times an H100's L2). "Fraction of copy" is the stage's
 * bytes read per second over a device-to-device cudaMemcpy's read+write
 * bytes per second, measured in the same run: the copy moves n/2 floats, so
 * it reads and writes as many bytes (4n) as the reduction reads. The points
 * of each test are in lab5_grader.c's test table. */
#ifndef LAB5_RUBRIC_H
#define LAB5_RUBRIC_H

/* Each graded threshold below is CALIBRATED(NAME, default): the default is
 * the value here, and a calibration file of the GPU the grader runs on
 * (make calibrate, grader/calibration/; the rule it applies to each ratio is
 * in grader/calibration/rules.json) may set another at run time. */
#include "calibrated.h"

/* Measured: NVIDIA H100 80GB HBM3 (sm_90, driver 580.159, CUDA 13.0), 20
 * runs, and NVIDIA H200 (same driver), 3 runs, of `OUT_DIR=... REPEAT=N
 * LABS="5" grader/tools/gpu_session.sh`, each a median of interleaved,
 * L2-flushed, verified pairs at 2^27 floats; the copy at 2951-2960 GB/s on
 * the H100 and 4127-4145 GB/s on the H200.
 *
 * Stages (1)-(5) are not limited by memory: besides their shared-memory
 * steps, each block ends with one atomicAdd into the same float, and those
 * queue at about 1.8 ns each on both GPUs (stage (3): 524288 blocks in
 * 0.95 ms). So their GB/s are the same on both GPUs while the copy is 1.4x
 * faster on the H200, and their fractions of the copy are GPU-dependent:
 * the thresholds below are set to hold on both. */

/* No threshold for stage (3) over stage (1): the ratio is reported
 * (gpu_sequential_speed_vs_divergent, 0 points), and the lesson, convergent
 * warps, is graded on the mechanism by the CPU checks (lab5_grader.c).
 * Why: the ratio is not the cost of divergence. Measured on the H100
 * (handouts/results/h100-lab5-divergence.txt, solutions/measure: 2^27 floats,
 * 256-thread blocks, 21 interleaved L2-flushed runs, per-pair medians):
 *   (1)'s predicate t % (2s) == 0 against a mask, both divergent   1.535
 *   convergent against divergent, both with the mask (no %)        0.999
 *   sequential (3) against the divergent mask                      1.000
 *   the graded pair, solution (3) over the grader's (1)            1.542
 * and with per-block partial sums instead of the atomicAdd: 2.324, 0.805
 * (the compacted index's bank conflicts), 1.041. So the classic 1.5-2x is
 * the run-time modulo; divergence itself costs under 5% here, inside the
 * 15% re-measure band, so no threshold could hold both ways on it. (The
 * calibration runs before: reference 1.628-1.629 on the H100 over 20 runs,
 * 1.58 on the H200, handouts/results/h100-lab5.txt and h200-labs4-6.txt.) */

/* Extension stages, each as a fraction of the copy.
 *                                       H100 (20 runs): min  median  max      H200 (3 runs)
 *   (4) first add during the load       0.3669  0.3673  0.3674    0.2649-0.2653
 *   (5) last warp with shuffles         0.3669  0.3674  0.3677    0.2653-0.2661
 *   (6) grid-stride, float4, one wave   0.9723  0.9741  0.9770    1.0002-1.0037
 *   stage (3) in their place (self-test) 0.1890 0.1892  0.1893    0.1361-0.1364
 * Stage (5) is no faster than (4): both read about 1085 GB/s on either GPU,
 * the queue of per-block atomics (half as many blocks as stage (3), so 2x)
 * being what limits them. 0.22 is 17% under their H200 fraction and 40%
 * under their H100 one, and 16% over stage (3)'s H100 fraction. 0.75 for
 * stage (6) is 23% under its lowest run.
 * Measured again on the H200 on 2026-11-27 (make calibrate, 20 rounds,
 * handouts/results/h200-calibrate-20.txt): (4) 0.2417-0.2431, (5)
 * 0.2420-0.2430, stage (3) in their place 0.1273-0.1278; on the H100 the
 * same day (20 rounds, handouts/results/h100-calibrate-20.txt): (4)
 * 0.3405-0.3416, (5) 0.3410-0.3553, stage (3) 0.1788-0.1796. Both GPUs
 * read these stages 7-10% slower than on 2026-11-22, and the cause is
 * where the one-float sum lies, not the clocks
 * (solutions/measure/measure_lab5_atomic_target.c, H100, 2026-11-27,
 * handouts/results/h100-lab5-atomic-target.txt): stage (4) takes 0.494 ms
 * with the sum at some addresses and 0.538-0.548 ms at the others (1 in 8
 * of 64 addresses 256 bytes apart is fast), the same at the start and
 * once settled, at 1980 MHz throughout. Every block's atomic queues at the
 * one L2 slice that holds that address, and slices are not equally quick
 * to reach. Which class a grader's sum falls in is fixed by its
 * allocations: the 2026-11-22 build hit a fast one (0.367), today's a slow
 * one (0.341), and make bench a fast one on the H200 (0.265). Stage (3) in
 * their place, itself atomic-bound, moves with them (0.1893 then, 0.1796
 * now). So both sides of the threshold move by up to 11% with a build, and
 * no value keeps the rule's 15% on both GPUs at every class: 0.22 keeps
 * 9.9% under the H200's slow class; 0.21, what make calibrate proposes on
 * the H200, would keep 15.1% there but only 10.9% over stage (3)'s
 * fast-class fraction on the H100 (the session of 2026-11-22, to which
 * calibration.tool_unit_tests holds the defaults). 0.22 stays: the
 * reference passed it in every round on both GPUs, and an H200 course
 * gets the rule's margin from its own make calibrate. The H100's file
 * (grader/calibration/nvidia-h100-80gb-hbm3_132sm.json) keeps 0.22. */
#define LAB5_FIRST_ADD_COPY_FRACTION_MIN CALIBRATED(LAB5_FIRST_ADD_COPY_FRACTION_MIN, 0.22)
#define LAB5_WARP_SHUFFLE_COPY_FRACTION_MIN CALIBRATED(LAB5_WARP_SHUFFLE_COPY_FRACTION_MIN, 0.22)
#define LAB5_GRID_STRIDE_COPY_FRACTION_MIN CALIBRATED(LAB5_GRID_STRIDE_COPY_FRACTION_MIN, 0.75)
/* Partial credit under the threshold, in the batch grader (harness.h,
 * grader_speed_curve): nothing at or below half the default threshold,
 * full points at the threshold; the reference's median on the H100 (the
 * table above) for the review list's "far beyond the reference" flag. The
 * halves are written out (0.11, 0.375): the thresholds are looked up at run
 * time (CALIBRATED), and the test table that holds the floors is static. */
#define LAB5_FIRST_ADD_COPY_FRACTION_FLOOR 0.11
#define LAB5_FIRST_ADD_COPY_FRACTION_REFERENCE 0.367
#define LAB5_WARP_SHUFFLE_COPY_FRACTION_FLOOR 0.11
#define LAB5_WARP_SHUFFLE_COPY_FRACTION_REFERENCE 0.367
#define LAB5_GRID_STRIDE_COPY_FRACTION_FLOOR 0.375
#define LAB5_GRID_STRIDE_COPY_FRACTION_REFERENCE 0.974

/* gpu_grid_stride_near_int_max's one array of 2^31 - 3 floats takes 8 GiB;
 * with the CUDA context and a margin, a GPU of less than this many GiB
 * cannot run it, and the runner records it not gradable there. */
#define LAB5_NEAR_INT_MAX_GIB 10

#endif
