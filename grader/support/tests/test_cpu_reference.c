/* The CPU matmul reference: right on a product worked by hand, and the
 * same bit for bit on one thread and on many (its rows are split between
 * threads, never the sums). */
#include "common_tests.h"
#include "cpu_reference.h"
#include "rng.h"

#include <stdlib.h>
#include <string.h>

void cpu_matmul_ref_small_product(void **state)
{
    (void)state;
    /* [1 2; 3 4] * [5 6 7; 8 9 10] */
    const float a[] = {1, 2, 3, 4};
    const float b[] = {5, 6, 7, 8, 9, 10};
    const double expected[] = {21, 24, 27, 47, 54, 61};
    double c[6];
    cpu_matmul_ref(a, b, c, 2, 3, 2);
    for (int i = 0; i < 6; ++i)
        assert_true(c[i] == expected[i]);
}

void cpu_matmul_ref_threads_change_nothing(void **state)
{
    (void)state;
    const int m = 97, n = 61, k = 130; /* odd sizes: uneven bands */
    float *a = malloc(sizeof *a * m * k), *b = malloc(sizeof *b * k * n);
    double *one = malloc(sizeof *one * m * n), *many = malloc(sizeof *many * m * n);
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(one);
    assert_non_null(many);
    rng_fill_uniform(a, (size_t)m * k, 7, -1.0f, 1.0f);
    rng_fill_uniform(b, (size_t)k * n, 8, -1.0f, 1.0f);
    cpu_matmul_ref_threads(a, b, one, m, n, k, 1);
    const int counts[] = {2, 7, CPU_REF_MAX_THREADS, 1000};
    for (size_t t = 0; t < sizeof counts / sizeof counts[0]; ++t) {
        memset(many, 0xff, sizeof *many * m * n);
        cpu_matmul_ref_threads(a, b, many, m, n, k, counts[t]);
        assert_memory_equal(one, many, sizeof *one * m * n);
    }
    memset(many, 0xff, sizeof *many * m * n);
    cpu_matmul_ref(a, b, many, m, n, k);
    assert_memory_equal(one, many, sizeof *one * m * n);
    free(a);
    free(b);
    free(one);
    free(many);
}
