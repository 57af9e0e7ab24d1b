#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double *sorted_copy(const double *values, size_t n)
{
    double *copy = malloc(n * sizeof *copy);
    if (!copy)
        return NULL;
    memcpy(copy, values, n * sizeof *copy);
    qsort(copy, n, sizeof *copy, compare_doubles);
    return copy;
}

double stats_percentile(const double *values, size_t n, double p)
{
    if (n == 0 || p < 0.0 || p > 100.0)
        return NAN;
    double *sorted = sorted_copy(values, n);
    if (!sorted)
        return NAN;
    double rank = p / 100.0 * (double)(n - 1);
    size_t lo = (size_t)floor(rank);
    size_t hi = lo + 1 < n ? lo + 1 : lo;
    double result = sorted[lo] + (rank - (double)lo) * (sorted[hi] - sorted[lo]);
    free(sorted);
    return result;
}

double stats_median(const double *values, size_t n)
{
    return stats_percentile(values, n, 50.0);
}

stats_summary stats_summarize(const double *values, size_t n)
{
    stats_summary s = {NAN, NAN, NAN, n};
    if (n == 0)
        return s;
    s.min = s.max = values[0];
    for (size_t i = 1; i < n; ++i) {
        if (values[i] < s.min) s.min = values[i];
        if (values[i] > s.max) s.max = values[i];
    }
    s.median = stats_median(values, n);
    return s;
}
