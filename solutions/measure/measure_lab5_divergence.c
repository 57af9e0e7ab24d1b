/* Lab 5: how much of "divergent against convergent" is divergence?
 *
 *   measure_lab5_divergence [n]         default 2^27 floats (the graded size)
 *
 * The graded speed-up of stage (3) over the divergent stage (1) mixes three
 * things: divergence, the run-time `%` in (1)'s predicate, and the queue of
 * per-block atomicAdds that sets a floor under every stage. The kernels of
 * lab5_divergence.h change one thing at a time, each with the lab's atomic
 * ending and without it (per-block partial sums), so:
 *   (b)/(a)  the speed-up from replacing `%` by a mask: what the modulo costs;
 *   (e)/(a)  convergent over divergent, both paying for the `%`, same
 *            interleaved addressing: what divergence costs, modulo kept;
 *   (d)/(b)  the same with cheap predicates: what divergence costs, no modulo;
 *   (c)/(b)  convergent sequential addressing (conflict-free) over (b);
 *   (c)/(a)  the classic ratio, the one the grader measures.
 * The lab solution's stages (1)-(3) and the grader's yardstick are timed too,
 * to show the experiment's kernels behave like the lab's.
 *
 * Each ratio comes from interleaved runs (A B A B, L2 flushed before each,
 * the graders' routine): median time of the slower over the faster, with the
 * spread of the per-pair ratios. Every sum is checked against a double sum
 * of the input on the host. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime_api.h>

#include "copy_baseline.h"
#include "lab5.h"
#include "lab5_baselines.h"
#include "lab5_divergence.h"
#include "measure_common.h"
#include "rng.h"

#define PROGRAM "measure_lab5_divergence"

static const timing_plan PLAN = {.warmup = 3, .runs = 21, .launches_per_run = 1, .flush_l2 = 1};

/* What one timed call runs: an experiment kernel, a lab entry point, or the copy. */
typedef struct {
    const char *label;
    int kernel, ending;                             /* for lab5x_sum; kernel < 0: not one */
    lab_status (*entry)(const float *, float *, int); /* a lab5.h entry point, or NULL */
    const float *in;
    float *out;
    int n;
} sum_call;

static int launch(void *ctx)
{
    const sum_call *c = ctx;
    if (c->kernel >= 0)
        return lab5x_sum((lab5x_kernel)c->kernel, (lab5x_ending)c->ending, c->in, c->out, c->n);
    if (c->entry)
        return c->entry(c->in, c->out, c->n);
    /* The ceiling: n/2 floats copied read and write the bytes a sum reads. */
    return baseline_memcpy_floats(c->in, c->out, (size_t)c->n / 2);
}

static const char *const KERNEL_NAMES[LAB5X_KERNELS] = {
    "(a) t % (2s) == 0, divergent",       "(b) (t & (2s-1)) == 0, divergent",
    "(c) t < s, sequential, convergent",  "(d) i = 2*s*t, compacted, convergent",
    "(e) (d) + i % (2s) == 0, convergent"};
static const char *const ENDING_NAMES[] = {"atomicAdd per block", "partial sums, no atomic"};

/* The sum a call left in out, in double: one float, or the block partials. */
static double result_of(const sum_call *c)
{
    int count = c->kernel >= 0 && c->ending == LAB5X_PARTIALS ? lab5x_blocks(c->n) : 1;
    float *host = malloc((size_t)count * sizeof *host);
    double sum = NAN;
    if (host && cudaMemcpy(host, c->out, (size_t)count * sizeof *host,
                           cudaMemcpyDeviceToHost) == cudaSuccess) {
        sum = 0.0;
        for (int i = 0; i < count; ++i)
            sum += host[i];
    }
    free(host);
    return sum;
}

/* One kernel alone: a table row. Returns 0, or 1 when it failed or was wrong. */
static int time_alone(const sum_call *c, double exact)
{
    stats_summary ms;
    int status = timing_measure(launch, (void *)c, &PLAN, NULL, &ms);
    if (status != 0) {
        printf("%-40s %-24s not timed: %s (%s)\n", c->label, "",
               lab_status_name((lab_status)status), lab_last_error());
        return 1;
    }
    const char *ending = c->kernel >= 0 ? ENDING_NAMES[c->ending] : c->entry ? "atomicAdd per block"
                                                                             : "(read + write)";
    stats_summary gbps = measure_rate(&ms, (double)c->n * sizeof(float), 1e9);
    /* The graders' tolerance, doubled (lab5_kernels.c): n*2^-24 plus 8 roundings. */
    double got = c->kernel < 0 && !c->entry ? exact : result_of(c);
    double tolerance = ldexp((double)c->n, -24) + 8.0 * ldexp(fabs(exact), -24);
    if (!(fabs(got - exact) <= tolerance)) {
        printf("%-40s %-24s WRONG SUM %.6g, expected %.6g: the time means nothing\n", c->label,
               ending, got, exact);
        return 1;
    }
    printf("%-40s %-24s %9.4f %8.0f (%4.0f .. %4.0f)\n", c->label, ending, ms.median, gbps.median,
           gbps.min, gbps.max);
    fflush(stdout);
    return 0;
}

/* `fast` against `slow`, interleaved: median(slow) / median(fast). */
static int time_ratio(const char *what, const sum_call *fast, const sum_call *slow)
{
    timing_ab_result r;
    int status = timing_interleaved(launch, (void *)fast, launch, (void *)slow, &PLAN, NULL, &r);
    if (status != 0) {
        printf("  %-62s not timed: %s (%s)\n", what, lab_status_name((lab_status)status),
               lab_last_error());
        return 1;
    }
    printf("  %-62s %6.3f (%.3f .. %.3f)\n", what, r.ratio, r.pair_ratio.min, r.pair_ratio.max);
    fflush(stdout);
    return 0;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1 << 27;
    if (argc > 2 || n < 2 || n > (1 << 29)) {
        fprintf(stderr, "usage: %s [n]   (floats, 2 .. 2^29; default 2^27)\n", argv[0]);
        return 2;
    }
    if (!measure_start("Lab 5: the divergence experiment (what the modulo costs, what divergence "
                       "costs)", argc, argv))
        return MEASURE_NO_DEVICE;
    printf("size:    %d floats (%zu MiB), %d threads per block (LAB5_BLOCK), %d blocks; GB/s "
           "counts the bytes read\n", n, ((size_t)n * sizeof(float)) >> 20, LAB5_BLOCK,
           lab5x_blocks(n));
    measure_print_plan(&PLAN);

    float *host = malloc((size_t)n * sizeof *host), *in = NULL, *out = NULL;
    if (!host || cudaMalloc((void **)&in, (size_t)n * sizeof *in) != cudaSuccess ||
        cudaMalloc((void **)&out, (size_t)n * sizeof *out) != cudaSuccess) {
        printf("%s: cannot allocate %zu MiB twice\n", PROGRAM, ((size_t)n * sizeof(float)) >> 20);
        return 1;
    }
    rng_fill_uniform(host, (size_t)n, 20261121, -1.0f, 1.0f);
    double exact = 0.0;
    for (int i = 0; i < n; ++i)
        exact += host[i];
    cudaMemcpy(in, host, (size_t)n * sizeof *in, cudaMemcpyHostToDevice);
    free(host);

    /* out holds n floats: the copy's n/2, or the partials (n/256). */
    sum_call x[LAB5X_KERNELS][2];
    for (int k = 0; k < LAB5X_KERNELS; ++k)
        for (int e = 0; e < 2; ++e)
            x[k][e] = (sum_call){KERNEL_NAMES[k], k, e, NULL, in, out, n};
    const sum_call lab[] = {
        {"lab5_sum_divergent (1), solution", -1, 0, lab5_sum_divergent, in, out, n},
        {"lab5_sum_strided (2), solution", -1, 0, lab5_sum_strided, in, out, n},
        {"lab5_sum_sequential (3), solution", -1, 0, lab5_sum_sequential, in, out, n},
        {"grader's divergent yardstick", -1, 0, lab5_baseline_sum_divergent, in, out, n},
        {"cudaMemcpy of n/2 floats (ceiling)", -1, 0, NULL, in, out, n},
    };

    printf("\n%-40s %-24s %9s %24s\n", "kernel", "block ends with", "median ms",
           "GB/s median (min .. max)");
    int failed = 0;
    for (int e = 0; e < 2; ++e)
        for (int k = 0; k < LAB5X_KERNELS; ++k)
            failed |= time_alone(&x[k][e], exact);
    for (size_t i = 0; i < sizeof lab / sizeof lab[0]; ++i)
        failed |= time_alone(&lab[i], exact);

    printf("\nspeed-ups, interleaved pairs: median (per-pair min .. max)\n");
    for (int e = 0; e < 2; ++e) {
        printf("%s:\n", ENDING_NAMES[e]);
        const sum_call *a = &x[LAB5X_MODULO][e], *b = &x[LAB5X_MASK][e];
        const sum_call *c = &x[LAB5X_SEQUENTIAL][e], *d = &x[LAB5X_COMPACTED][e];
        const sum_call *m = &x[LAB5X_COMPACTED_MODULO][e];
        failed |= time_ratio("(b)/(a)  mask over modulo, both divergent: what the % costs", b, a);
        failed |= time_ratio("(e)/(a)  convergent over divergent, both with %: divergence", m, a);
        failed |= time_ratio("(d)/(b)  convergent over divergent, no %: divergence", d, b);
        failed |= time_ratio("(c)/(b)  sequential (conflict-free) over divergent mask", c, b);
        failed |= time_ratio("(c)/(a)  the classic ratio: sequential over modulo-divergent", c, a);
    }
    printf("graded (for reference):\n");
    failed |= time_ratio("solution (3) over the grader's divergent yardstick", &lab[2], &lab[3]);
    printf("\nReading it: with the atomic ending every kernel may sit on the same floor (one "
           "atomicAdd per\nblock into one address); the partial-sum ending removes that floor, "
           "so its ratios show the\nin-block cost of the modulo and of divergence alone.\n");
    return failed;
}
