/* cuBLAS GEMM, FP16 in, FP32 compute: see lab8_cublas.h. */
#include "lab8_cublas.h"

#include <cublas_v2.h>

static cublasHandle_t handle;

static lab_status cublas_failed(const char *call, cublasStatus_t status)
{
    return lab_fail(LAB_ERR_CUDA, "%s failed: %s (%d)", call, cublasGetStatusString(status),
                    (int)status);
}

lab_status lab8_cublas_gemm(int m, int n, int k, float alpha, const lab8_half *a,
                            const lab8_half *b, float beta, float *c)
{
    if (m <= 0 || n <= 0 || k <= 0)
        return lab_fail(LAB_ERR_INVALID_SIZE, "lab8_cublas_gemm: M=%d, N=%d, K=%d", m, n, k);
    if (!handle) {
        cublasStatus_t created = cublasCreate(&handle);
        if (created != CUBLAS_STATUS_SUCCESS) {
            handle = NULL;
            return cublas_failed("cublasCreate", created);
        }
    }
    /* Row-major X (r x c) is column-major X^T with leading dimension c, so
     * C^T (n x m) = B^T (n x k) * A^T (k x m), all without transposition. */
    cublasStatus_t status = cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, b,
                                         CUDA_R_16F, n, a, CUDA_R_16F, k, &beta, c, CUDA_R_32F,
                                         n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    if (status != CUBLAS_STATUS_SUCCESS)
        return cublas_failed("cublasGemmEx (FP16 in, FP32 compute)", status);
    return LAB_OK;
}
