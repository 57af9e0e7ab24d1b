/* cuBLAS SGEMM in pure FP32: see lab7_cublas.h. */
#include "lab7_cublas.h"

#include <cublas_v2.h>

static cublasHandle_t handle;

static lab_status cublas_failed(const char *call, cublasStatus_t status)
{
    return lab_fail(LAB_ERR_CUDA, "%s failed: %s (%d)", call, cublasGetStatusString(status),
                    (int)status);
}

static lab_status ensure_handle(void)
{
    if (handle)
        return LAB_OK;
    cublasStatus_t status = cublasCreate(&handle);
    if (status != CUBLAS_STATUS_SUCCESS) {
        handle = NULL;
        return cublas_failed("cublasCreate", status);
    }
    status = cublasSetMathMode(handle, CUBLAS_PEDANTIC_MATH);
    if (status != CUBLAS_STATUS_SUCCESS)
        return cublas_failed("cublasSetMathMode(CUBLAS_PEDANTIC_MATH)", status);
    return LAB_OK;
}

lab_status lab7_cublas_sgemm(int m, int n, int k, float alpha, const float *a, const float *b,
                             float beta, float *c)
{
    if (m <= 0 || n <= 0 || k <= 0)
        return lab_fail(LAB_ERR_INVALID_SIZE, "lab7_cublas_sgemm: M=%d, N=%d, K=%d", m, n, k);
    lab_status ok = ensure_handle();
    if (ok != LAB_OK)
        return ok;
    /* Row-major X (r x c) is column-major X^T with leading dimension c, so
     * C^T (n x m) = B^T (n x k) * A^T (k x m), all without transposition. */
    cublasStatus_t status = cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, b, n,
                                        a, k, &beta, c, n);
    if (status != CUBLAS_STATUS_SUCCESS)
        return cublas_failed("cublasSgemm", status);
    return LAB_OK;
}

lab_status lab7_cublas_matmul(const float *a, const float *b, float *c, int m, int n, int k)
{
    return lab7_cublas_sgemm(m, n, k, 1.0f, a, b, 0.0f, c);
}
