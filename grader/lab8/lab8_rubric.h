/* Lab 8 (tensor cores): speed thresholds, each with its calibration.
 *
 * None yet. A speed test's threshold is a ratio measured in one process
 * against a baseline or a ceiling (never an absolute time), and goes here
 * as a #define with how it was calibrated: the GPU, driver and CUDA
 * version, the command (grader/tools/gpu_session.sh), min/median/max of the
 * reference and of the baseline, and why it sits where it does
 * (docs/design.md, section 3.2). Write it as
 *     #define LAB8_X_MIN CALIBRATED(LAB8_X_MIN, 1.5)
 * (calibrated.h: a GPU's calibration file may set it at run time) and give
 * it its rule in grader/calibration/rules.json: the ctest
 * calibration.tool_unit_tests wants one for every GRADER_SPEED row
 * (docs/design.md, section 3.7). The handouts quote these values through
 * grader/bench/handout_numbers.py, which reads every lab's rubric. The
 * points of each test are in lab8_grader.c's test table. */
#ifndef LAB8_RUBRIC_H
#define LAB8_RUBRIC_H

#endif
