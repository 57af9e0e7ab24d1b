/* The shared part of the measurement programs: see measure_common.h. */
#include "measure_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <cuda_runtime_api.h>

#include "device_info.h"
#include "rng.h"

int measure_start(const char *title, int argc, char **argv)
{
    char gpu[256], date[32];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&now));
    printf("%s\n", title);
    printf("command: ");
    for (int i = 0; i < argc; ++i)
        printf("%s%s", i ? " " : "", argv[i]);
    printf("\ndate:    %s\n", date);
    device_describe(gpu, sizeof gpu);
    printf("gpu:     %s\n", gpu);
    if (device_count() > 0)
        return 1;
    /* device_describe said why; one more line says what it means here. */
    printf("%s: no CUDA device, nothing measured\n", argv[0]);
    return 0;
}

void measure_print_plan(const timing_plan *plan)
{
    printf("runs:    %d warm-up + %d timed runs per kernel%s; median (min .. max)\n",
           plan->warmup, plan->runs,
           plan->flush_l2 ? ", L2 flushed before each run" : ", no L2 flush");
}

float *measure_device_floats(const char *program, size_t n, uint64_t seed)
{
    float *host = malloc(n * sizeof *host), *dev = NULL;
    if (!host || cudaMalloc((void **)&dev, n * sizeof *dev) != cudaSuccess) {
        printf("%s: cannot allocate %zu MiB\n", program, (n * sizeof(float)) >> 20);
        free(host);
        return NULL;
    }
    rng_fill_uniform(host, n, seed, -1.0f, 1.0f);
    cudaError_t err = cudaMemcpy(dev, host, n * sizeof *dev, cudaMemcpyHostToDevice);
    free(host);
    if (err != cudaSuccess) {
        printf("%s: cannot fill the input: %s\n", program, cudaGetErrorString(err));
        cudaFree(dev);
        return NULL;
    }
    return dev;
}

int measure_poison(float *dev, size_t n)
{
    return cudaMemset(dev, 0xff, n * sizeof *dev) == cudaSuccess ? 0 : -1;
}

stats_summary measure_rate(const stats_summary *ms, double amount, double scale)
{
    stats_summary rate = {amount / (ms->max * 1e-3) / scale, amount / (ms->median * 1e-3) / scale,
                          amount / (ms->min * 1e-3) / scale, ms->count};
    return rate;
}
