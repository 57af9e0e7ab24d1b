#define _DEFAULT_SOURCE /* setenv, unsetenv */
#include <math.h>
#include <stdlib.h>

#include "common_tests.h"
#include "rng.h"
#include "stats.h"

void rng_is_deterministic(void **state)
{
    (void)state;
    /* splitmix64's published first output for seed 0: any platform must agree. */
    rng_state r = rng_make(0);
    assert_true(rng_next_u64(&r) == 0xE220A8397B1DCDAFull);
    float a[16], b[16], c[16];
    rng_fill_uniform(a, 16, 42, -1.0f, 1.0f);
    rng_fill_uniform(b, 16, 42, -1.0f, 1.0f);
    rng_fill_uniform(c, 16, 43, -1.0f, 1.0f);
    assert_memory_equal(a, b, sizeof a);
    assert_memory_not_equal(a, c, sizeof a);
    for (int i = 0; i < 16; ++i)
        assert_true(a[i] >= -1.0f && a[i] < 1.0f);
}

void rng_integers_stay_in_range(void **state)
{
    (void)state;
    enum { N = 10000 };
    float *v = malloc(N * sizeof *v);
    assert_non_null(v);
    rng_fill_integers(v, N, 7, -3, 3);
    int seen[7] = {0};
    for (int i = 0; i < N; ++i) {
        assert_true(v[i] == floorf(v[i]));
        assert_true(v[i] >= -3 && v[i] <= 3);
        seen[(int)v[i] + 3]++;
    }
    for (int k = 0; k < 7; ++k) /* each value near N/7 = 1428 */
        assert_true(seen[k] > 1200 && seen[k] < 1650);
    free(v);
}

void rng_seed_from_env_overrides(void **state)
{
    (void)state;
    unsetenv("LAB_SEED");
    assert_true(rng_seed_from_env(5) == 5);
    setenv("LAB_SEED", "12345", 1);
    assert_true(rng_seed_from_env(5) == 12345);
    setenv("LAB_SEED", "12x", 1); /* not a number: ignored */
    assert_true(rng_seed_from_env(5) == 5);
    unsetenv("LAB_SEED");
}

void stats_median_and_percentiles(void **state)
{
    (void)state;
    double odd[5] = {5, 1, 4, 2, 3};
    double even[4] = {4, 1, 3, 2};
    assert_float_equal(stats_median(odd, 5), 3.0, 0.0);
    assert_float_equal(stats_median(even, 4), 2.5, 0.0);
    assert_float_equal(stats_percentile(odd, 5, 0), 1.0, 0.0);
    assert_float_equal(stats_percentile(odd, 5, 100), 5.0, 0.0);
    assert_float_equal(stats_percentile(odd, 5, 25), 2.0, 0.0);
    assert_float_equal(odd[0], 5.0, 0.0); /* input untouched */
}

void stats_summary_and_empty_input(void **state)
{
    (void)state;
    double v[3] = {2.0, 9.0, -1.0};
    stats_summary s = stats_summarize(v, 3);
    assert_float_equal(s.min, -1.0, 0.0);
    assert_float_equal(s.median, 2.0, 0.0);
    assert_float_equal(s.max, 9.0, 0.0);
    assert_int_equal(s.count, 3);
    assert_true(isnan(stats_median(v, 0)));
    assert_true(isnan(stats_summarize(v, 0).median));
    assert_true(isnan(stats_percentile(v, 3, 101)));
}
