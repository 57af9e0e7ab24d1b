/* The matmul labs' shared table setup: see matmul_kernels.h. */
#include "matmul_kernels.h"

#include <stdio.h>
#include <stdlib.h>

#include "compare.h"
#include "cpu_reference.h"
#include "time_kernels.h"

double matmul_flops(const kernel_size size)
{
    return 2.0 * (double)size[0] * (double)size[1] * (double)size[2];
}

kernel_tolerance matmul_time_tolerance(const kernel_size size)
{
    return (kernel_tolerance){2.0 * compare_dot_atol((size_t)size[2]), 2.0 * MATMUL_RTOL};
}

static int setup_time(const char *lab, int m, int n, int k, kernel_problem *p)
{
    p->args.in[0] = time_device_floats(lab, (size_t)m * k, 1);
    p->args.in[1] = time_device_floats(lab, (size_t)k * n, 2);
    p->args.out = time_device_floats(lab, (size_t)m * n, 3);
    p->yardstick_out = time_device_floats(lab, (size_t)m * n, 4);
    p->checked = (size_t)m * n;
    return p->args.in[0] && p->args.in[1] && p->args.out && p->yardstick_out;
}

static int setup_race(int m, int n, int k, kernel_problem *p)
{
    size_t na = (size_t)m * k, nb = (size_t)k * n, nc = (size_t)m * n;
    float *a = kernel_host_integers(na, 7, -2, 2), *b = kernel_host_integers(nb, 8, -2, 2);
    double *exact = malloc(nc * sizeof *exact);
    float *want = malloc(nc * sizeof *want);
    if (!a || !b || !exact || !want) {
        fprintf(stderr, "race runner: out of host memory\n");
        return 0;
    }
    /* Small integers: every product and sum is exact in float too. */
    cpu_matmul_ref(a, b, exact, m, n, k);
    for (size_t i = 0; i < nc; ++i)
        want[i] = (float)exact[i];
    free(exact);
    p->args.in[0] = kernel_device_array("race runner", a, na);
    p->args.in[1] = kernel_device_array("race runner", b, nb);
    p->args.out = kernel_device_array("race runner", NULL, nc);
    p->reference[0] = want;
    p->checked = nc;
    free(a);
    free(b);
    return p->args.in[0] && p->args.in[1] && p->args.out;
}

/* Bench: A and B uniform from the bench's seed (seed + 1), one C. */
static int setup_bench(int m, int n, int k, unsigned long long seed, kernel_problem *p)
{
    p->args.in[0] = kernel_bench_array((size_t)m * k, seed, 0.0f);
    p->args.in[1] = kernel_bench_array((size_t)k * n, seed + 1, 0.0f);
    p->args.out = kernel_bench_array((size_t)m * n, 0, 0.0f);
    p->checked = (size_t)m * n;
    return p->args.in[0] && p->args.in[1] && p->args.out;
}

int matmul_kernels_setup(const char *lab, kernel_mode mode, const kernel_size size,
                         kernel_problem *p)
{
    int m = (int)size[0], n = (int)size[1], k = (int)size[2];
    if (mode == KERNEL_PROFILE)
        n = k = m;
    p->args.size[0] = m;
    p->args.size[1] = n;
    p->args.size[2] = k;
    if (mode == KERNEL_TIME)
        return setup_time(lab, m, n, k, p);
    if (mode == KERNEL_RACE)
        return setup_race(m, n, k, p);
    if (mode == KERNEL_BENCH)
        return setup_bench(m, n, k, p->seed, p);
    char runner[64];
    snprintf(runner, sizeof runner, "%s_profile", lab);
    size_t floats = (size_t)m * (size_t)m;
    p->args.in[0] = kernel_device_array(runner, NULL, floats);
    p->args.in[1] = kernel_device_array(runner, NULL, floats);
    p->args.out = kernel_device_array(runner, NULL, floats);
    return p->args.in[0] && p->args.in[1] && p->args.out;
}
