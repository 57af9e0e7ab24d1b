/* The shared part of make time-labN: SIZE parsing, the GPU check, and one
 * measured and checked line per kernel. See time_kernels.h. */
#include "time_kernels.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime_api.h>

#include "device_info.h"
#include "guard.h"
#include "kernel_table.h"
#include "lab_status.h"
#include "rng.h"

/* The graders' plan: warm-up, then interleaved, L2-flushed runs. */
static const timing_plan PLAN = {.warmup = 3, .runs = 21, .launches_per_run = 1, .flush_l2 = 1};

int time_parse_size(const char *lab, const char *text, int dims, long max_each, long out[3],
                    const char *example)
{
    kernel_size parsed; /* the kernel tables' parser (kernel_table.h), with make's words */
    if (dims <= 3 && kernel_size_parse(text, dims, max_each, parsed)) {
        for (int d = 0; d < dims; ++d)
            out[d] = parsed[d];
        return 1;
    }
    if (dims == 1)
        fprintf(stderr, "make time-%s: SIZE=%s is not a size for this lab: give one "
                "positive integer, at most %ld, e.g. SIZE=%s\n", lab, text, max_each, example);
    else
        fprintf(stderr, "make time-%s: SIZE=%s is not a size for this lab: give %d "
                "positive integers joined by 'x', each at most %ld, e.g. SIZE=%s\n", lab, text,
                dims, max_each, example);
    return 0;
}

int time_require_gpu(const char *lab)
{
    if (device_count() > 0)
        return 1;
    printf("make time-%s: needs a CUDA GPU, and none is visible here (nothing was timed).\n", lab);
    return 0;
}

static void rate_text(char *buf, size_t size, double bytes, double flops, double ms)
{
    if (flops > 0)
        snprintf(buf, size, "%9.1f GFLOP/s", flops / (ms * 1e6));
    else if (bytes > 0)
        snprintf(buf, size, "%9.1f GB/s", bytes / (ms * 1e6));
    else
        buf[0] = '\0';
}

/* Outputs are moved through the host in slices of this many floats, so a
 * check of a 4 GiB output needs 8 MiB of host memory, not 8 GiB. */
enum { CHECK_SLICE = 1 << 20 };

/* Fills n floats (GPU or host) with the poison, through one host slice:
 * an element the kernel never writes then stays NaN and cannot pass. */
static int poison_floats(float *out, size_t n, char *why, size_t why_size)
{
    static float slice[CHECK_SLICE];
    guard_fill_poison_floats(slice, CHECK_SLICE);
    for (size_t done = 0; done < n; done += CHECK_SLICE) {
        size_t count = n - done < CHECK_SLICE ? n - done : CHECK_SLICE;
        cudaError_t err = cudaMemcpy(out + done, slice, count * sizeof *slice, cudaMemcpyDefault);
        if (err != cudaSuccess) {
            snprintf(why, why_size, "the output could not be poisoned before the runs: %s",
                     cudaGetErrorString(err));
            return 0;
        }
    }
    return 1;
}

/* The worst of the elements checked so far. */
typedef struct {
    size_t wrong, unwritten, first_unwritten, not_finite, first_not_finite, worst;
    double worst_error;        /* the largest |got - want| among the failing elements */
    float worst_got, worst_want;
} check_tally;

static void tally_slice(const time_check *c, const float *got, const float *want, size_t count,
                        size_t offset, check_tally *t)
{
    for (size_t i = 0; i < count; ++i) {
        size_t at = offset + i;
        if (!isfinite(got[i])) {
            /* The poison left in place means never written; another NaN or
             * Inf was computed from something that was not the input. */
            if (guard_is_poison(got[i]) && t->unwritten++ == 0)
                t->first_unwritten = at;
            if (!guard_is_poison(got[i]) && t->not_finite++ == 0)
                t->first_not_finite = at;
            t->wrong++;
            continue;
        }
        double error = fabs((double)got[i] - (double)want[i]);
        if (error <= c->atol + c->rtol * fabs((double)want[i]))
            continue;
        t->wrong++;
        if (error > t->worst_error) {
            t->worst = at;
            t->worst_error = error;
            t->worst_got = got[i];
            t->worst_want = want[i];
        }
    }
}

/* One phrase for the line: what is wrong, most telling first. */
static void describe_tally(const check_tally *t, size_t n, char *why, size_t why_size)
{
    if (t->unwritten == n && n == 1)
        snprintf(why, why_size, "the result was never written: it still holds the NaN poison");
    else if (t->unwritten == n)
        snprintf(why, why_size, "no element was written: all %zu still hold the NaN poison", n);
    else if (t->unwritten)
        snprintf(why, why_size, "%zu of %zu elements never written, the first at element %zu",
                 t->unwritten, n, t->first_unwritten);
    else if (t->not_finite)
        snprintf(why, why_size, "%zu of %zu elements NaN or Inf, the first at element %zu",
                 t->not_finite, n, t->first_not_finite);
    else
        snprintf(why, why_size, "max error %.1e at element %zu: %g, expected %g; %zu of %zu "
                 "elements off", t->worst_error, t->worst, (double)t->worst_got,
                 (double)t->worst_want, t->wrong, n);
}

/* Reads both outputs back slice by slice and compares them. Returns 1 when
 * every element passes; otherwise 0 with the reason in `why`. */
static int check_output(const time_check *c, char *why, size_t why_size)
{
    static float got[CHECK_SLICE], want[CHECK_SLICE];
    check_tally t = {0};
    for (size_t done = 0; done < c->n; done += CHECK_SLICE) {
        size_t count = c->n - done < CHECK_SLICE ? c->n - done : CHECK_SLICE;
        cudaError_t err = cudaMemcpy(got, c->got + done, count * sizeof *got, cudaMemcpyDefault);
        if (err == cudaSuccess)
            err = cudaMemcpy(want, c->want + done, count * sizeof *want, cudaMemcpyDefault);
        if (err != cudaSuccess) {
            snprintf(why, why_size, "the output could not be read back: %s",
                     cudaGetErrorString(err));
            return 0;
        }
        tally_slice(c, got, want, count, done, &t);
    }
    if (t.wrong)
        describe_tally(&t, c->n, why, why_size);
    return t.wrong == 0;
}

int time_pair_run(const time_pair *pair, const char *size_text)
{
    char why[256];
    if (pair->check && !poison_floats(pair->check->got, pair->check->n, why, sizeof why)) {
        printf("%-34s %-16s not timed: %s\n", pair->name, size_text, why);
        return TIME_NOT_TIMED;
    }
    timing_ab_result r;
    int status = timing_interleaved(pair->student, pair->student_ctx, pair->baseline,
                                    pair->baseline_ctx, &PLAN, pair->after_run, &r);
    if (status == TIMING_WRONG_RESULT) {
        printf("%-34s %-16s not timed: the work after a run failed (%s)\n", pair->name,
               size_text, lab_last_error());
        return TIME_NOT_TIMED;
    }
    if (status != 0) {
        printf("%-34s %-16s not timed: %s (%s)\n", pair->name, size_text,
               lab_status_name((lab_status)status), lab_last_error());
        return TIME_NOT_TIMED;
    }
    if (pair->check && !check_output(pair->check, why, sizeof why)) {
        printf("%-34s %-16s %9.3f ms | WRONG RESULT (%s): the time means nothing; run make "
               "check-%s\n", pair->name, size_text, r.a_ms.median, why, pair->check->lab);
        return TIME_WRONG;
    }
    char mine[32], base[32];
    rate_text(mine, sizeof mine, pair->bytes, pair->flops, r.a_ms.median);
    rate_text(base, sizeof base, pair->bytes, pair->flops, r.b_ms.median);
    printf("%-34s %-16s %9.3f ms %s | %s %.3f ms %s | %.2fx%s\n", pair->name, size_text,
           r.a_ms.median, mine, pair->baseline_name, r.b_ms.median, base, r.ratio,
           pair->check ? "" : " (result not checked)");
    return TIME_OK;
}

float *time_device_floats(const char *lab, size_t n, unsigned long long seed)
{
    float *host = malloc(n * sizeof *host), *dev = NULL;
    if (!host || cudaMalloc((void **)&dev, n * sizeof *dev) != cudaSuccess) {
        printf("make time-%s: cannot allocate %zu MiB for this SIZE; try a smaller one.\n", lab,
               (n * sizeof(float)) >> 20);
        free(host);
        return NULL;
    }
    rng_fill_uniform(host, n, seed, -1.0f, 1.0f);
    cudaMemcpy(dev, host, n * sizeof *dev, cudaMemcpyHostToDevice);
    free(host);
    return dev;
}
