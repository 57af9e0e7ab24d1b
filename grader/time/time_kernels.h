/* make time-labN: your kernels at the sizes you choose, against the lab's
 * baseline, timed the graders' way (grader/support/timing.h: interleaved with the
 * baseline, an L2 flush before every run, the median of many runs), one
 * line per kernel. Nothing here is graded, but a time is only worth showing
 * for a kernel that does its work: each pair's output is poisoned with NaN
 * before the runs and compared once, after them, with the same work done by
 * trusted code (time_check). A wrong or unwritten output replaces the speed
 * and ratio with WRONG RESULT and sends the student to `make check-labN`,
 * which says what is wrong; the program then exits non-zero. */
#ifndef TIME_KERNELS_H
#define TIME_KERNELS_H

#include "lab_status.h"
#include "timing.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a pair's output must be, checked once after its runs. Element i
 * passes when it is finite and |got[i] - want[i]| <= atol + rtol*|want[i]|,
 * the graders' rule (grader/support/compare.h). Both pointers may be on the GPU or
 * on the host: they are read through cudaMemcpyDefault. */
typedef struct {
    const char *lab;            /* "lab3": for the "run make check-lab3" hint */
    float *got;                 /* your output; filled with NaN before the runs */
    const float *want;          /* the same work done by the baseline or the host */
    size_t n;                   /* floats in each */
    double atol, rtol;
} time_check;

/* What time_pair_run returns. */
enum { TIME_OK = 0, TIME_NOT_TIMED = 1, TIME_WRONG = 2 };

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
    const time_check *check;    /* NULL: no check possible, and the line says so */
    /* NULL, or work after each run, outside the timed region (timing.h): its
     * verify makes the output the check reads; non-zero stops the pair. */
    const timing_guard *after_run;
} time_pair;

/* Parses SIZE: `dims` positive integers joined by 'x' (e.g. "2048x1024x512"
 * for dims 3), each at most max_each. Returns 1, or 0 after printing one
 * line that says what SIZE should look like. */
int time_parse_size(const char *lab, const char *text, int dims, long max_each, long out[3],
                    const char *example);

/* 1 when a CUDA device is there; otherwise prints one line and returns 0. */
int time_require_gpu(const char *lab);

/* Poisons pair->check->got, measures the pair, checks the output and
 * prints one line: name, size, median ms, GB/s or GFLOP/s, the baseline's,
 * and the ratio (baseline time / yours: 2.0 means twice as fast). A launch
 * that returns an error prints its status and message instead; a wrong
 * output prints the time, then WRONG RESULT and the worst element instead
 * of the speeds. Returns TIME_OK, TIME_NOT_TIMED or TIME_WRONG. */
int time_pair_run(const time_pair *pair, const char *size_text);

/* n floats on the GPU, uniform in [-1, 1) from `seed`; NULL after printing
 * one line when the GPU's memory is too small. Freed at exit. */
float *time_device_floats(const char *lab, size_t n, unsigned long long seed);

#ifdef __cplusplus
}
#endif

#endif
