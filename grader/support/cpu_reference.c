#include "cpu_reference.h"

#include <pthread.h>
#include <string.h>
#include <unistd.h>

/* Rows [row_begin, row_end) of C = A * B. */
static void matmul_rows(const float *a, const float *b, double *c, int row_begin, int row_end,
                        int n, int k)
{
    memset(c + (size_t)row_begin * n, 0, (size_t)(row_end - row_begin) * n * sizeof *c);
    /* i-p-j order: the inner loop walks rows of B and C contiguously. */
    for (int i = row_begin; i < row_end; ++i)
        for (int p = 0; p < k; ++p) {
            double aip = a[(size_t)i * k + p];
            const float *brow = b + (size_t)p * n;
            double *crow = c + (size_t)i * n;
            for (int j = 0; j < n; ++j)
                crow[j] += aip * brow[j];
        }
}

typedef struct {
    const float *a, *b;
    double *c;
    int row_begin, row_end, n, k;
} row_band;

static void *matmul_band(void *arg)
{
    const row_band *band = arg;
    matmul_rows(band->a, band->b, band->c, band->row_begin, band->row_end, band->n, band->k);
    return NULL;
}

void cpu_matmul_ref_threads(const float *a, const float *b, double *c, int m, int n, int k,
                            int threads)
{
    if (threads > CPU_REF_MAX_THREADS)
        threads = CPU_REF_MAX_THREADS;
    if (threads > m)
        threads = m;
    if (threads < 1)
        threads = 1;
    pthread_t ids[CPU_REF_MAX_THREADS];
    row_band bands[CPU_REF_MAX_THREADS];
    int started[CPU_REF_MAX_THREADS] = {0};
    /* Each row is summed by one thread in one order, so the result is the
     * same bit for bit whatever the number of threads. */
    for (int t = 0; t < threads; ++t)
        bands[t] = (row_band){a, b, c, (int)((long long)m * t / threads),
                              (int)((long long)m * (t + 1) / threads), n, k};
    for (int t = 1; t < threads; ++t)
        started[t] = pthread_create(&ids[t], NULL, matmul_band, &bands[t]) == 0;
    /* This thread takes the first band, and any band whose thread could not
     * be started. */
    for (int t = 0; t < threads; ++t)
        if (!started[t])
            matmul_band(&bands[t]);
    for (int t = 1; t < threads; ++t)
        if (started[t])
            pthread_join(ids[t], NULL);
}

/* Threads only pay off on products of some size (a thread costs ~50 us). */
enum { CPU_REF_FLOPS_PER_THREAD = 1 << 24 };

void cpu_matmul_ref(const float *a, const float *b, double *c, int m, int n, int k)
{
    double work = (double)m * n * k;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int threads = (int)(work / CPU_REF_FLOPS_PER_THREAD) + 1;
    if (cores > 0 && threads > cores)
        threads = (int)cores;
    cpu_matmul_ref_threads(a, b, c, m, n, k, threads);
}

double cpu_sum_ref(const float *x, size_t n)
{
    double sum = 0.0;
    for (size_t i = 0; i < n; ++i)
        sum += x[i];
    return sum;
}
