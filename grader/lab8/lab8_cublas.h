/* cuBLAS cublasGemmEx with FP16 inputs and FP32 compute, the yardstick of
 * lab 8 (grader and bench only): A and B CUDA_R_16F, C CUDA_R_32F,
 * CUBLAS_COMPUTE_32F (FP32 accumulation, on tensor cores), the same
 * arithmetic the lab asks of its kernels. Row-major C = alpha * A * B +
 * beta * C through the column-major view C^T = B^T * A^T. */
#ifndef LAB8_CUBLAS_H
#define LAB8_CUBLAS_H

#include "lab8.h"
#include "lab_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Same convention as lab8_wmma_* (device pointers, any positive size;
 * when beta == 0 C is not read). Returns LAB_ERR_CUDA, with the cuBLAS
 * status in lab_last_error(), on failure. Does not synchronise. */
lab_status lab8_cublas_gemm(int m, int n, int k, float alpha, const lab8_half *a,
                            const lab8_half *b, float beta, float *c);

#ifdef __cplusplus
}
#endif

#endif
