/* Order statistics for timing samples. */
#ifndef STATS_H
#define STATS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    double min, median, max;
    size_t count;
} stats_summary;

/* Median of n values (mean of the middle two when n is even); the input is
 * left untouched. Returns NaN for n == 0. */
double stats_median(const double *values, size_t n);
/* Linear-interpolated percentile, p in [0, 100]. */
double stats_percentile(const double *values, size_t n, double p);
stats_summary stats_summarize(const double *values, size_t n);

#ifdef __cplusplus
}
#endif

#endif
