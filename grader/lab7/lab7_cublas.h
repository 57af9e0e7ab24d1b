/* cuBLAS SGEMM in pure FP32, the yardstick of lab 7 (grader and bench only).
 *
 * The handle is created on first use with CUBLAS_PEDANTIC_MATH: FP32
 * arithmetic throughout, no TF32 tensor cores (whatever NVIDIA_TF32_OVERRIDE
 * says), so the comparison with the lab's FP32 kernels is like for like.
 * Row-major C = alpha * A * B + beta * C is computed through the
 * column-major view: C^T = B^T * A^T. */
#ifndef LAB7_CUBLAS_H
#define LAB7_CUBLAS_H

#include "lab_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Same convention as lab7_sgemm (device pointers, any positive size; when
 * beta == 0 C is not read). Returns LAB_ERR_CUDA, with the cuBLAS status in
 * lab_last_error(), on failure. Does not synchronise. */
lab_status lab7_cublas_sgemm(int m, int n, int k, float alpha, const float *a, const float *b,
                             float beta, float *c);

/* C = A * B (alpha 1, beta 0): the matmul_fn signature of grader/matmul. */
lab_status lab7_cublas_matmul(const float *a, const float *b, float *c, int m, int n, int k);

#ifdef __cplusplus
}
#endif

#endif
