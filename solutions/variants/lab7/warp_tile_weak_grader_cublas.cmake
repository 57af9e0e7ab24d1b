# A cheat: the warp-tile stage reaches the grader's own cuBLAS wrapper
# through a weak reference (it links with or without the grader). The
# kernel that runs is cuBLAS's: the stage earns nothing, and the symbol
# check lists the weak reference for review.
lab_variant(SOLUTION warp_tiling.cu
  FIND [[
#include "lab7.h"
]]
  REPLACE [[
#include "lab7.h"
extern "C" lab_status lab7_cublas_sgemm(int m, int n, int k, float alpha, const float *a,
                                        const float *b, float beta, float *c)
    __attribute__((weak));
]]
  FIND [[
                            LAB7_WT_BK);
        return launch(warp_tile_kernel<false>, LAB7_WT_BM, LAB7_WT_BN, LAB7_WT_THREADS, m, n, k,
                      alpha, a, b, beta, c);]]
  REPLACE [[
                            LAB7_WT_BK);
        if (lab7_cublas_sgemm)
            return lab7_cublas_sgemm(m, n, k, alpha, a, b, beta, c);
        return launch(warp_tile_kernel<false>, LAB7_WT_BM, LAB7_WT_BN, LAB7_WT_THREADS, m, n, k,
                      alpha, a, b, beta, c);]]
  FAILS gpu_warp_tile_correct
    MESSAGE [[launched the kernel .*which does not count: it is (not defined in your lab file|a library's kernel)]])
