/* How far lab 8's results may be from the exact product: see
 * lab8_tolerance.c for the derivation. */
#ifndef LAB8_TOLERANCE_H
#define LAB8_TOLERANCE_H

#ifdef __cplusplus
extern "C" {
#endif

/* The absolute tolerance of one element of C = alpha * A * B + beta * C
 * with FP16 inputs in [-1, 1], FP32 accumulation over k products and C's
 * old values in [-1, 1]. An element passes when it is finite and
 * |got - exact| <= lab8_atol(k, alpha, beta) + MATMUL_RTOL * |exact|. */
double lab8_atol(int k, double alpha, double beta);

#ifdef __cplusplus
}
#endif

#endif
