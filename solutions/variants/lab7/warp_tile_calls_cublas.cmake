# A cheat: the warp-tile stage hands the multiplication to cuBLAS. The result
# is right and fast, but the kernel that ran is cuBLAS's (on the H100 with
# CUDA 13.0, a CUTLASS kernel inside cuBLAS), not the student's: the stage
# earns nothing (launch_watch.h), whatever its name.
lab_variant(SOLUTION warp_tiling.cu
  FIND [[
#include "lab7.h"
]]
  REPLACE [[
#include "lab7.h"
#include <cublas_v2.h>
]]
  FIND [[
                            LAB7_WT_BK);
        return launch(warp_tile_kernel<false>, LAB7_WT_BM, LAB7_WT_BN, LAB7_WT_THREADS, m, n, k,
                      alpha, a, b, beta, c);]]
  REPLACE [[
                            LAB7_WT_BK);
    {
        /* Row-major C = A B is column-major C^T = B^T A^T. */
        static cublasHandle_t handle;
        if (!handle && cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
            return lab_fail(LAB_ERR_CUDA, "cublasCreate failed");
        if (cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, b, n, a, k, &beta,
                        c, n) != CUBLAS_STATUS_SUCCESS)
            return lab_fail(LAB_ERR_CUDA, "cublasSgemm failed");
        return LAB_OK;
    }]]
  FAILS gpu_warp_tile_correct
    MESSAGE [[launched the kernel .*which does not count: it is (not defined in your lab file|a library's kernel)]])
