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
 * (handouts/results/h100-lab5-divergence.txt, grader/measure: 2^27 floats,
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
 * 0.2420-0.2430, stage (3) in their place 0.1273-0.1278. 0.22 then keeps
 * 9.9% under the reference, short of the rule's 15%: the grader timed
 * stage (4) at 0.535 ms there while make bench, the same day, timed the
 * same kernel at 0.4865 ms, as both did before. On the H100 it went the
 * other way: on 2026-11-22 the grader read 0.367 (1085 GB/s) while that
 * day's bench read 1007 GB/s; now both read 0.341 (1009 GB/s). The kernel
 * did not change, so the grader's setting moves this atomic-bound stage by
 * up to 10% (the clocks, or where its one-float sum lands in the L2); the
 * cause is not yet found, and 0.22 stays until it is (the reference passed
 * every round). The handout's table quotes the 2026-11-22 grader. */
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

#endif
