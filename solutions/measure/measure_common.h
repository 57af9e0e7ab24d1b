/* What the measurement programs of solutions/measure share: a header that
 * says where and how a table was made, the no-GPU exit, random device
 * arrays and one line per timed kernel.
 *
 * These programs are experiments for the handouts, not graders: each
 * prints a plain-text table (GPU, command, sizes, repetitions, median and
 * min/max) that a handout can quote from a committed file. Timing is the
 * graders' routine (grader/support/timing.h): warm-up runs, then timed runs, an
 * L2 flush before each where the plan asks for it, the median kept. */
#ifndef MEASURE_COMMON_H
#define MEASURE_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "stats.h"
#include "timing.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Exit status of a program that found no GPU: run-all.sh tells it from a
 * failed measurement. */
enum { MEASURE_NO_DEVICE = 3 };

/* Prints the table's header: program, command line, GPU, UTC date. Returns
 * 1 when a CUDA device is there; otherwise prints one "no CUDA device"
 * line and returns 0 (the caller then exits with MEASURE_NO_DEVICE). */
int measure_start(const char *title, int argc, char **argv);

/* The plan's repetitions in words, for the header:
 * "3 warm-up + 21 timed runs, L2 flushed before each". */
void measure_print_plan(const timing_plan *plan);

/* n floats on the GPU, uniform in [-1, 1) from `seed` (grader/support/rng.h);
 * NULL after printing one line when the GPU's memory is too small. */
float *measure_device_floats(const char *program, size_t n, uint64_t seed);

/* Fills n device floats with NaN (every byte 0xff), so that an element a
 * kernel never writes cannot pass a comparison. Returns 0 or -1. */
int measure_poison(float *dev, size_t n);

/* How many of the n elements of two device arrays differ, bit for bit
 * (NaN never equals anything): 0 means a copy or a transpose is exact.
 * Returns (size_t)-1 when the comparison itself failed. */
size_t measure_count_mismatches(const float *a, const float *b, size_t n);

/* Milliseconds summarised as a rate: `amount` units per launch (bytes,
 * flops) over ms, scaled by `scale` (1e9 for GB/s, 1e12 for TFLOP/s). The
 * fastest run gives the largest rate, so min and max swap. */
stats_summary measure_rate(const stats_summary *ms, double amount, double scale);

#ifdef __cplusplus
}
#endif

#endif
