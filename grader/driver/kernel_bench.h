/* make bench: the kernel driver's bench mode (kernel_driver.c), for every
 * lab's kernel table (kernel_table.h: the rows' `bench` columns and the
 * table's bench problems).
 *
 *   labN_kernels bench [--runs N] [--seed S] [--dry-run]
 *
 * times each problem of the table at each of its sizes and prints one JSON
 * object per line for grader/bench/bench.py (merged into
 * results/bench-<gpu>.json):
 *   {"type":"device", ...}        once: what the GPU is
 *   {"type":"plan","points":N}    once: how many results follow (the progress bar)
 *   {"type":"result", ...}        one per (problem, size, row)
 *   {"type":"note","text":...}    anything a reader of the file should know
 * (--dry-run, no GPU needed: only {"type":"dry_run", ...} per result, with
 * the keys that need no measurement)
 *
 * Timing is the graders' routine (grader/support/timing.h): interleaved
 * A B A B with the problem's baseline, each run after an L2 flush, after
 * warm-up, medians kept; "speedup" is their ratio, what a grader compares
 * with its threshold. The ceiling (a device-to-device cudaMemcpy of the
 * same bytes, or cuBLAS on the same product) is timed alone, so bench.py
 * states each kernel as a fraction of it. Each output is compared once,
 * before timing, with the baseline's ("verified").
 *
 * The clocks (bench_rules.h): each entry runs until its time settles
 * ("settle_runs"); a row whose runs spread past the limit, or whose median
 * drifted above its fastest run, is measured again, the steadiest kept
 * ("spread", "tries", "steady"); a kernel faster than the ceiling (timed
 * first) by more than its slack is measured again with it, and left out
 * with an error note if it stays faster. */
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
