/* Lab 4's yardsticks: the naive transpose (a), and the unpadded shared tile
 * (b) that the padded tile is timed against. Answer-shaped, so their source
 * is solutions/lab4_transpose_bank_conflicts/transpose_baselines.cu and a
 * student copy links them prebuilt (lab4_answer_libraries.list). Both take
 * device pointers and valid sizes, launch and return without synchronising. */
#ifndef LAB4_BASELINES_H
#define LAB4_BASELINES_H

#include "lab_status.h"

#ifdef __cplusplus
extern "C" {
#endif

lab_status lab4_baseline_naive(const float *in, float *out, int rows, int cols);
lab_status lab4_baseline_unpadded(const float *in, float *out, int rows, int cols);

#ifdef __cplusplus
}
#endif

#endif
