/* Comparing a kernel's output with a CPU reference in double.
 *
 * An element passes when it is finite and |got - ref| <= atol + rtol*|ref|.
 * NaN and Inf never pass, whatever the tolerance. On failure the result holds
 * a report naming the first wrong elements with (row, col) coordinates and,
 * where the pattern is recognisable, a diagnosis. */
#ifndef COMPARE_H
#define COMPARE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    size_t rows, cols;  /* shape used for coordinates and diagnosis; a vector is 1 x n */
    double atol, rtol;
    size_t tile;        /* the kernel's tile edge, for "last partial tile" diagnosis; 0 = none */
} compare_spec;

typedef enum {
    DIAG_NONE = 0,          /* all good, or no pattern recognised */
    DIAG_NEVER_WRITTEN,     /* every wrong element still holds the NaN poison */
    DIAG_PARTLY_UNWRITTEN,  /* some elements still hold the poison */
    DIAG_TRANSPOSED,        /* output equals the transpose of the reference */
    DIAG_PARTIAL_TILE,      /* only the last partial row/column of tiles is wrong */
    DIAG_ROW_SHIFT,         /* output is the reference shifted by one row */
    DIAG_NOT_FINITE         /* NaN/Inf that is not the poison: computed from garbage */
} compare_diagnosis;

typedef struct {
    size_t checked;
    size_t mismatches;
    size_t poisoned;        /* elements still holding the poison pattern */
    double max_abs_error;   /* over finite elements */
    compare_diagnosis diagnosis;
    char report[1536];      /* human-readable: count, first mismatches, diagnosis */
} compare_result;

/* Returns 1 when every element passes, 0 otherwise (result filled either way). */
int compare_floats(const float *got, const double *ref, const compare_spec *spec,
                   compare_result *result);

/* Exact comparison of integers (lab outputs such as indices and labels). */
int compare_ints(const int *got, const int *ref, const compare_spec *spec,
                 compare_result *result);

const char *compare_diagnosis_text(compare_diagnosis diagnosis);

/* Absolute tolerance for a float32 dot product of length k whose inputs lie
 * in [-1, 1]. The running sum has magnitude ~sqrt(k)/3 and each of the k
 * additions rounds by at most 2^-24 of it, so random-sign errors add up to
 * about k*2^-24/3; we allow 8*k*2^-24, 24 times that, which is still far
 * below the change made by one missing or doubled product (~1/3). */
double compare_dot_atol(size_t k);

/* Relative part of a matmul's tolerance, compare_dot_atol(K) + MATMUL_RTOL
 * * |ref|: the absolute part (scaled with K) does the real work; this only
 * keeps large references from failing on rounding. One value for the
 * graders (grader/matmul), make time-labN and make bench. */
#define MATMUL_RTOL 1e-5

#ifdef __cplusplus
}
#endif

#endif
