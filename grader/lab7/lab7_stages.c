/* Lab 7's stages as C = A * B (lab7_stages.h). */
#include "lab7_stages.h"

#include "lab7.h"

lab_status lab7_product_block_tile_1d(const float *a, const float *b, float *c, int m, int n,
                                      int k)
{
    return lab7_sgemm(LAB7_STAGE_BLOCK_TILE_1D, m, n, k, 1.0f, a, b, 0.0f, c);
}

lab_status lab7_product_block_tile_2d(const float *a, const float *b, float *c, int m, int n,
                                      int k)
{
    return lab7_sgemm(LAB7_STAGE_BLOCK_TILE_2D, m, n, k, 1.0f, a, b, 0.0f, c);
}

lab_status lab7_product_vectorised(const float *a, const float *b, float *c, int m, int n,
                                   int k)
{
    return lab7_sgemm(LAB7_STAGE_VECTORISED, m, n, k, 1.0f, a, b, 0.0f, c);
}

lab_status lab7_product_warp_tile(const float *a, const float *b, float *c, int m, int n,
                                  int k)
{
    return lab7_sgemm(LAB7_STAGE_WARP_TILE, m, n, k, 1.0f, a, b, 0.0f, c);
}

lab_status lab7_product_sized(const float *a, const float *b, float *c, int m, int n, int k)
{
    return lab7_sgemm(LAB7_STAGE_SIZED, m, n, k, 1.0f, a, b, 0.0f, c);
}
