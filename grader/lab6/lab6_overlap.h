/* Lab 6's mechanism check: did copies overlap kernels, and each other?
 *
 * A pure function of a recorded activity log (the harness's CUPTI
 * recorder), so what it decides and what its messages say are unit-tested
 * on the CPU with hand-made timelines (lab6_overlap_test.c). */
#ifndef LAB6_OVERLAP_H
#define LAB6_OVERLAP_H

#include <stddef.h>

#include "activity_recorder.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    size_t h2d, kernels, d2h;      /* how many of each were recorded */
    size_t streams_used;           /* distinct streams among them */
    size_t on_default;             /* of them, how many ran in the default stream */
    size_t pageable;               /* copies whose host side was not pinned */
    size_t untimed;                /* events CUPTI could not time */
    double h2d_bytes, d2h_bytes;   /* moved by the copies each way */
    /* Busy time (the union of intervals) of each kind, and the time during
     * which a copy (either way) and a kernel ran at once, and during which
     * an H2D and a D2H ran at once. Nanoseconds. */
    double h2d_ns, kernel_ns, d2h_ns, copy_ns;
    double copy_kernel_ns, h2d_d2h_ns;
} lab6_overlap;

/* Measures the copies and kernels of `log`. `default_stream` is the id the
 * recorder gave the default stream (has_default: whether it is known). */
void lab6_overlap_measure(const activity_log *log, unsigned default_stream, int has_default,
                          lab6_overlap *out);

/* Fractions the judge compares with its minimums: copy/kernel overlap over
 * the shorter of the copies' and the kernels' busy time; H2D/D2H overlap
 * over the shorter of the two. 0 when there is nothing to overlap. */
double lab6_copy_kernel_fraction(const lab6_overlap *o);
double lab6_copy_copy_fraction(const lab6_overlap *o);

/* What the recorded run had to do: the bytes of its input (each must go
 * to the GPU and back) and the least time its kernels can take for its
 * work on this GPU, in ns (speed_floor_ms of its FLOPs). 0: not checked.
 * The same rule as lab 2's host flow: a trace with copies and some kernel
 * is not proof that the kernels did the work. */
typedef struct {
    double bytes, min_kernel_ns;
} lab6_expected_work;

/* 1 when the pipeline overlapped: copies and kernels recorded and timed,
 * the whole input moved each way, kernels busy long enough for the work,
 * not in the default stream, from pinned memory, in several streams, with
 * copy/kernel and H2D/D2H overlap fractions reaching the minimums.
 * Otherwise 0, and `why` says the first thing wrong as a sentence that
 * names the TODO and the handout section. */
int lab6_overlap_judge(const lab6_overlap *o, const lab6_expected_work *work,
                       double min_copy_kernel, double min_copy_copy, char *why,
                       size_t why_size);

#ifdef __cplusplus
}
#endif

#endif
