/* make bench: what every lab's bench runner shares.
 *
 * A runner times a lab's kernels at a few sizes and prints one JSON object
 * per line on stdout for grader/bench/bench.py, which merges the runners'
 * lines into one result file (results/bench-<gpu>.json):
 *   {"type":"device", ...}        once: what the GPU is
 *   {"type":"plan","points":N}    once: how many results follow (the progress bar)
 *   {"type":"result", ...}        one per (problem, size, kernel)
 *   {"type":"note","text":...}    anything a reader of the file should know
 *
 * Timing is the graders' own routine (grader/support/timing.h, which the graders'
 * speed_check wraps): every kernel is timed interleaved A B A B with the
 * problem's baseline, each run after an L2 flush, after warm-up, and the
 * median kept; "speedup" is the ratio of the medians, exactly what a grader
 * compares with its threshold. The ceiling (a device-to-device cudaMemcpy of
 * the same bytes, or cuBLAS FP32 on the same product) is timed alone on the
 * same work, so bench.py can state each kernel as a fraction of it.
 *
 * Each kernel's output is compared once, before timing, with the baseline's
 * (device_count_mismatches): "verified" in the result.
 *
 * The clocks (bench_rules.h): before every measurement the entry runs until
 * its time has settled ("settle_runs"); a row whose runs spread more than
 * the limit, or whose median drifted above its fastest run, is measured
 * again, the steadiest kept ("spread", "tries", "steady"); the ceiling is
 * timed first, and a kernel faster than it by more than its slack is
 * measured again with the ceiling, and left out with an error note if it
 * stays faster. */
#ifndef BENCH_CORE_H
#define BENCH_CORE_H

#include <stddef.h>

#include "timing.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { BENCH_BASELINE, BENCH_KERNEL, BENCH_CEILING } bench_role;

typedef struct {
    const char *name;   /* short key used in the JSON and in handouts: "naive" */
    const char *label;  /* what a reader sees in a table or legend */
    timed_launch launch;
    void *ctx;
} bench_entry;

/* One problem at one size: the baseline, the kernels, the ceiling. */
typedef struct {
    int lab;
    const char *problem;    /* "matmul", "transpose", ... */
    const char *size;       /* as a handout writes it: "2048", "8192x8192", "2^26" */
    double x;               /* the size as a number for plots (edge or element count) */
    double work;            /* bytes moved or flops done per launch */
    const char *unit;       /* "GB/s" (work in bytes) or "GFLOP/s" (work in flops) */
    bench_entry baseline;
    const bench_entry *kernels;
    int kernel_count;
    /* Bit k set: kernels[k] is an optional final stage (lab 4's (e), lab
     * 7's tile per size). Where it fails, as a student copy's skeleton does
     * when the stage is not written, it is left out with a note, and that
     * is no error of the bench. */
    unsigned optional_kernels;
    bench_entry ceiling;    /* launch NULL: none */
    const char *ceiling_name; /* "memcpy_d2d", "cublas_fp32", ... */
    /* The problem moves its data over PCIe (lab 6): its ceiling is no hard
     * limit, and its rows' drift is the bus's, not the GPU's (bench_rules.h). */
    int over_bus;
    /* The output every entry writes, compared with the baseline's (NULL: not
     * compared, e.g. host memory). */
    float *out;
    size_t out_count;
    double atol, rtol;
} bench_problem;

typedef struct {
    timing_plan plan;
    unsigned long long seed;
} bench_options;

/* Parses `--runs N --seed S` (anything else: usage on stderr, exit 2),
 * exits 1 with one line when there is no GPU, prints the device line. */
bench_options bench_start(int argc, char **argv, const char *runner);

/* The plan line: how many result lines will follow. */
void bench_plan(int points);

/* Result lines per problem: 1 (baseline) + kernel_count + (ceiling ? 1 : 0). */
int bench_points(const bench_problem *p);

/* Times the problem's entries and prints their result lines. Returns 0, or
 * the first failing launch's status (a note says which). */
int bench_run(const bench_problem *p, const bench_options *o);

/* A note line (printf-style). */
void bench_note(const char *format, ...);

/* cudaMalloc of n floats, exiting with a message on failure. */
float *bench_alloc_floats(size_t n);

#ifdef __cplusplus
}
#endif

#endif
