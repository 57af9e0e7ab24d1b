/* Lab 5's yardstick: a divergent reduction (stage (1)) that the grader owns,
 * so that stage (3)'s speedup is measured against the same kernel for every
 * student, whatever their own stage (1) does (a deliberately slow one must
 * not buy points). Answer-shaped, so its source is
 * solutions/lab5_reduction_divergence/reduction_baselines.cu and a student
 * copy links it prebuilt (lab5_answer_libraries.list). Same contract as
 * lab5_sum_divergent: device pointers, n >= 1, *out overwritten, launched
 * on the default stream without synchronising. */
#ifndef LAB5_BASELINES_H
#define LAB5_BASELINES_H

#include "lab_status.h"

#ifdef __cplusplus
extern "C" {
#endif

lab_status lab5_baseline_sum_divergent(const float *in, float *out, int n);

#ifdef __cplusplus
}
#endif

#endif
