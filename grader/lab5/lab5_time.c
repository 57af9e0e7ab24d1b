/* make time-lab5 [SIZE=N]: each of your stages summing N floats against the
 * grader's own divergent reduction (stage (1) as the grader writes it, the
 * yardstick of gpu_sequential_speed_vs_divergent); GB/s counts the bytes
 * read. Extension stages not written yet say so. Each sum is then checked
 * against the grader's divergent sum of the same input. Default 67108864
 * (2^26). */
#include <math.h>
#include <stdio.h>

#include "lab5.h"
#include "lab5_baselines.h"
#include "time_kernels.h"

typedef struct {
    lab_status (*sum)(const float *in, float *out, int n);
    const float *in;
    float *out;
    int n;
} sum_call;

static int launch_sum(void *ctx)
{
    const sum_call *s = ctx;
    return s->sum(s->in, s->out, s->n);
}

int main(int argc, char **argv)
{
    const char *size = argc > 1 ? argv[1] : "67108864";
    long d[3];
    if (!time_parse_size("lab5", size, 1, 0x7fffffffL, d, "67108864"))
        return 2;
    if (!time_require_gpu("lab5"))
        return 0;
    int n = (int)d[0];
    const float *in = time_device_floats("lab5", (size_t)n, 1);
    float *out = time_device_floats("lab5", 1, 2), *out_base = time_device_floats("lab5", 1, 3);
    if (!in || !out || !out_base)
        return 1;
    static const struct {
        const char *name;
        lab_status (*sum)(const float *, float *, int);
    } stages[] = {
        {"(1) lab5_sum_divergent", lab5_sum_divergent},
        {"(2) lab5_sum_strided", lab5_sum_strided},
        {"(3) lab5_sum_sequential", lab5_sum_sequential},
        {"(4) lab5_sum_first_add (ext.)", lab5_sum_first_add},
        {"(5) lab5_sum_warp_shuffle (ext.)", lab5_sum_warp_shuffle},
        {"(6) lab5_sum_grid_stride (ext.)", lab5_sum_grid_stride},
    };
    sum_call base = {lab5_baseline_sum_divergent, in, out_base, n};
    /* Twice the graders' tolerance (lab5_gpu_checks.c, sum_tolerance: n *
     * 2^-25 plus four roundings of the sum), since both sums round: the
     * two may sit on opposite sides of the exact one. */
    time_check check = {"lab5", out, out_base, 1, ldexp((double)n, -24), 8.0 * ldexp(1.0, -24)};
    int failed = 0;
    for (size_t s = 0; s < sizeof stages / sizeof stages[0]; ++s) {
        sum_call mine = {stages[s].sum, in, out, n};
        time_pair pair = {stages[s].name, launch_sum, &mine, "grader's divergent", launch_sum,
                          &base, (double)n * sizeof(float), 0, &check};
        int result = time_pair_run(&pair, size);
        /* An extension not written yet is no failure; a wrong sum always is. */
        failed |= result == TIME_WRONG || (result == TIME_NOT_TIMED && s < 3);
    }
    return failed;
}
