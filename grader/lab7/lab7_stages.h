/* Lab 7's four stages (and the optional final one) as plain C = A * B
 * (alpha 1, beta 0), the shape grader/matmul times and checks: shared by
 * the grader and the size bench. */
#ifndef LAB7_STAGES_H
#define LAB7_STAGES_H

#include "lab_status.h"

#ifdef __cplusplus
extern "C" {
#endif

lab_status lab7_product_block_tile_1d(const float *a, const float *b, float *c, int m, int n,
                                      int k);
lab_status lab7_product_block_tile_2d(const float *a, const float *b, float *c, int m, int n,
                                      int k);
lab_status lab7_product_vectorised(const float *a, const float *b, float *c, int m, int n,
                                   int k);
lab_status lab7_product_warp_tile(const float *a, const float *b, float *c, int m, int n,
                                  int k);
/* The optional final stage (LAB7_STAGE_SIZED): the block tile chosen per size. */
lab_status lab7_product_sized(const float *a, const float *b, float *c, int m, int n, int k);

#ifdef __cplusplus
}
#endif

#endif
