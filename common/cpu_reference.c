#include "cpu_reference.h"

#include <string.h>

void cpu_matmul_ref(const float *a, const float *b, double *c, int m, int n, int k)
{
    memset(c, 0, (size_t)m * n * sizeof *c);
    /* i-p-j order: the inner loop walks rows of B and C contiguously. */
    for (int i = 0; i < m; ++i)
        for (int p = 0; p < k; ++p) {
            double aip = a[(size_t)i * k + p];
            const float *brow = b + (size_t)p * n;
            double *crow = c + (size_t)i * n;
            for (int j = 0; j < n; ++j)
                crow[j] += aip * brow[j];
        }
}

double cpu_sum_ref(const float *x, size_t n)
{
    double sum = 0.0;
    for (size_t i = 0; i < n; ++i)
        sum += x[i];
    return sum;
}
