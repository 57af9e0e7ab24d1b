/* What the kernel tables of the matmul labs (2, 3, 7) share: C = A B of
 * M x K by K x N floats, A and B as args.in[0] and in[1], C as args.out,
 * M, N, K as size[0..2]. */
#ifndef MATMUL_KERNELS_H
#define MATMUL_KERNELS_H

#include "kernel_table.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MATMUL_M(a) ((int)(a)->size[0])
#define MATMUL_N(a) ((int)(a)->size[1])
#define MATMUL_K(a) ((int)(a)->size[2])

/* A row's adapter for an entry point of grader/matmul's shape (matmul_fn:
 * C = A B from a, b, c, m, n, k), so a table names the same function the
 * matmul checks do instead of a second wrapper of its own. */
#define MATMUL_ADAPTER(adapter, fn)                                                    \
    static int adapter(const kernel_args *a)                                         \
    {                                                                                \
        return fn(a->in[0], a->in[1], a->out, MATMUL_M(a), MATMUL_N(a), MATMUL_K(a)); \
    }

/* 2 M N K: a multiply and an add per product. */
double matmul_flops(const kernel_size size);

/* A timed C against the yardstick's: both are float sums of the same K
 * products, so each may be compare_dot_atol(K) + MATMUL_RTOL*|C| off the
 * exact value, and twice that apart, as the speed tests allow
 * (grader/matmul/matmul_checks.c). */
kernel_tolerance matmul_time_tolerance(const kernel_size size);

/* The problem for a mode: time, random A and B and two C's (the row's and
 * the yardstick's, which the row's is checked against); profile, square
 * zeroed matrices of size[0] (the profile runners' one number); race,
 * small integers (A from seed 7, B from 8, in [-2, 2]) and the exact C on
 * the host. `lab` names the programs in their messages. */
int matmul_kernels_setup(const char *lab, kernel_mode mode, const kernel_size size,
                         kernel_problem *p);

#ifdef __cplusplus
}
#endif

#endif
