/* The shared part of make time-labN: SIZE parsing, the GPU check, and one
 * measured line per kernel. See time_kernels.h. */
#include "time_kernels.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime_api.h>

#include "device_info.h"
#include "lab_status.h"
#include "rng.h"

/* The graders' plan: warm-up, then interleaved, L2-flushed runs. */
static const timing_plan PLAN = {.warmup = 3, .runs = 21, .launches_per_run = 1, .flush_l2 = 1};

int time_parse_size(const char *lab, const char *text, int dims, long max_each, long out[3],
                    const char *example)
{
    const char *p = text;
    for (int d = 0; d < dims; ++d) {
        char *end = NULL;
        errno = 0;
        long v = strtol(p, &end, 10);
        int last = d == dims - 1;
        if (end == p || errno || v <= 0 || v > max_each || (last ? *end != '\0' : *end != 'x')) {
            if (dims == 1)
                fprintf(stderr, "make time-%s: SIZE=%s is not a size for this lab: give one "
                        "positive integer, at most %ld, e.g. SIZE=%s\n", lab, text, max_each,
                        example);
            else
                fprintf(stderr, "make time-%s: SIZE=%s is not a size for this lab: give %d "
                        "positive integers joined by 'x', each at most %ld, e.g. SIZE=%s\n", lab,
                        text, dims, max_each, example);
            return 0;
        }
        out[d] = v;
        p = end + 1;
    }
    return 1;
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

int time_pair_run(const time_pair *pair, const char *size_text)
{
    timing_ab_result r;
    int status = timing_interleaved(pair->student, pair->student_ctx, pair->baseline,
                                    pair->baseline_ctx, &PLAN, NULL, &r);
    if (status != 0) {
        printf("%-34s %-16s not timed: %s (%s)\n", pair->name, size_text,
               lab_status_name((lab_status)status), lab_last_error());
        return 1;
    }
    char mine[32], base[32];
    rate_text(mine, sizeof mine, pair->bytes, pair->flops, r.a_ms.median);
    rate_text(base, sizeof base, pair->bytes, pair->flops, r.b_ms.median);
    printf("%-34s %-16s %9.3f ms %s | %s %.3f ms %s | %.2fx\n", pair->name, size_text,
           r.a_ms.median, mine, pair->baseline_name, r.b_ms.median, base, r.ratio);
    return 0;
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

int time_matmul_launch(void *ctx)
{
    const time_matmul *mm = ctx;
    return mm->fn(mm->a, mm->b, mm->c, mm->m, mm->n, mm->k);
}
