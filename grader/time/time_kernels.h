/* make time-labN: your kernels at the sizes you choose, against the lab's
 * baseline, timed the graders' way (common/timing.h: interleaved with the
 * baseline, an L2 flush before every run, the median of many runs), one
 * line per kernel. Nothing here is graded and no result is checked: that is
 * `make check-labN`'s job. */
#ifndef TIME_KERNELS_H
#define TIME_KERNELS_H

#include "lab_status.h"
#include "timing.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One measured pair: a kernel of yours and the baseline the grader times
 * it against, both doing the same work. */
typedef struct {
    const char *name;           /* "lab3_matmul_tiled" */
    timed_launch student;
    void *student_ctx;
    const char *baseline_name;  /* "lab 2's naive kernel" */
    timed_launch baseline;
    void *baseline_ctx;
    double bytes;               /* per launch, for GB/s (0: not shown) */
    double flops;               /* per launch, for GFLOP/s (0: not shown) */
} time_pair;

/* Parses SIZE: `dims` positive integers joined by 'x' (e.g. "2048x1024x512"
 * for dims 3), each at most max_each. Returns 1, or 0 after printing one
 * line that says what SIZE should look like. */
int time_parse_size(const char *lab, const char *text, int dims, long max_each, long out[3],
                    const char *example);

/* 1 when a CUDA device is there; otherwise prints one line and returns 0. */
int time_require_gpu(const char *lab);

/* Measures the pair and prints one line: name, size, median ms, GB/s or
 * GFLOP/s, the baseline's, and the ratio (baseline time / yours: 2.0 means
 * twice as fast). A launch that returns an error prints why instead.
 * Returns 0, or 1 when the pair could not be timed. */
int time_pair_run(const time_pair *pair, const char *size_text);

/* n floats on the GPU, uniform in [-1, 1) from `seed`; NULL after printing
 * one line when the GPU's memory is too small. Freed at exit. */
float *time_device_floats(const char *lab, size_t n, unsigned long long seed);

/* A matrix product C = A B of M x K by K x N floats, as every lab's
 * matmul entry point takes it: the context of time_matmul_launch. */
typedef lab_status (*time_matmul_fn)(const float *a, const float *b, float *c, int m, int n, int k);
typedef struct {
    time_matmul_fn fn;
    const float *a, *b;
    float *c;
    int m, n, k;
} time_matmul;
int time_matmul_launch(void *ctx);

#ifdef __cplusplus
}
#endif

#endif
