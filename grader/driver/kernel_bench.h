/* make bench: the kernel driver's bench mode (kernel_driver.c), for every
 * lab's kernel table (kernel_table.h: the rows' `bench` columns and the
 * table's bench problems).
 *
 *   labN_kernels bench [--runs N] [--seed S] [--dry-run]
 *
 * times each problem of the table at each of its sizes and prints one JSON
 * object per line on stdout for grader/bench/bench.py, which merges every
 * lab's lines into one result file (results/bench-<gpu>.json):
 *   {"type":"device", ...}        once: what the GPU is
 *   {"type":"plan","points":N}    once: how many results follow (the progress bar)
 *   {"type":"result", ...}        one per (problem, size, row)
 *   {"type":"note","text":...}    anything a reader of the file should know
 * (--dry-run, no GPU needed: {"type":"dry_run", ...} for each result it would
 * time, with the keys that need no measurement, and nothing else)
 *
 * Timing is the graders' own routine (grader/support/timing.h, which the graders'
 * speed_check wraps): every kernel is timed interleaved A B A B with the
 * problem's baseline, each run after an L2 flush, after warm-up, and the
 * median kept; "speedup" is the ratio of the medians, exactly what a grader
 * compares with its threshold. The ceiling (a device-to-device cudaMemcpy of
 * the same bytes, or cuBLAS on the same product) is timed alone on the
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
#ifndef KERNEL_BENCH_H
#define KERNEL_BENCH_H

#include "kernel_table.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The bench of `t`; argv: the words after "bench". Returns 0 when every
 * point was measured, 1 when one failed (a note says which), 2 for a usage
 * error, 77 where there is no CUDA device (one line says so). */
int kernel_bench_main(const kernel_table *t, int argc, char **argv);

/* The result lines the bench of `t` prints (the plan line's count). */
int kernel_bench_points(const kernel_table *t);

/* A ceiling from outside the table (kernel_bench_problem.outside_ceiling),
 * by its results' name, or NULL (bench_ceilings.c). */
const kernel_row *kernel_bench_outside_ceiling(const char *name);

#ifdef __cplusplus
}
#endif

#endif
