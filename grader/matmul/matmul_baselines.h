/* The naive matmul kernel twice, as baselines for the speed checks: with x
 * picking the column (coalesced: lab 2's answer, lab 3's yardstick) and with
 * x picking the row (uncoalesced: what lab 2's check must reject). Same
 * 32 x 8 block, same loop; only the mapping differs. */
#ifndef MATMUL_BASELINES_H
#define MATMUL_BASELINES_H

#include "lab_status.h"

#ifdef __cplusplus
extern "C" {
#endif

lab_status matmul_baseline_coalesced(const float *a, const float *b, float *c, int m, int n,
                                     int k);
lab_status matmul_baseline_uncoalesced(const float *a, const float *b, float *c, int m, int n,
                                       int k);

#ifdef __cplusplus
}
#endif

#endif
