#include "timing.h"

#include <stdlib.h>

#include <cuda_runtime_api.h>

#include "cuda_check.h"
#include "device_info.h"

static void *flush_buffer;
static size_t flush_bytes;

static void flush_l2(void)
{
    if (!flush_buffer) {
        size_t l2 = device_l2_bytes();
        flush_bytes = 2 * (l2 ? l2 : ((size_t)64 << 20));
        CUDA_CHECK(cudaMalloc(&flush_buffer, flush_bytes));
    }
    CUDA_CHECK(cudaMemsetAsync(flush_buffer, 0, flush_bytes, 0));
}

void timing_release(void)
{
    if (flush_buffer)
        CUDA_CHECK(cudaFree(flush_buffer));
    flush_buffer = NULL;
}

/* One run; returns the launch status and stores milliseconds per launch. */
static int timed_run(timed_launch launch, void *ctx, const timing_plan *plan,
                     cudaEvent_t start, cudaEvent_t stop, double *ms)
{
    int per_run = plan->launches_per_run > 0 ? plan->launches_per_run : 1;
    if (plan->flush_l2)
        flush_l2();
    CUDA_CHECK(cudaEventRecord(start, 0));
    for (int i = 0; i < per_run; ++i) {
        int status = launch(ctx);
        if (status != 0)
            return status;
    }
    CUDA_CHECK(cudaEventRecord(stop, 0));
    CUDA_CHECK(cudaEventSynchronize(stop));
    float elapsed = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&elapsed, start, stop));
    *ms = (double)elapsed / per_run;
    return 0;
}

int timing_interleaved(timed_launch a, void *ctx_a, timed_launch b, void *ctx_b,
                       const timing_plan *plan, timing_ab_result *result)
{
    int runs = plan->runs > 0 ? plan->runs : 1;
    double *a_ms = calloc((size_t)runs, sizeof *a_ms);
    double *b_ms = calloc((size_t)runs, sizeof *b_ms);
    double *pair = calloc((size_t)runs, sizeof *pair);
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    int status = (a_ms && b_ms && pair) ? 0 : -1;
    double scratch;
    for (int i = 0; status == 0 && i < plan->warmup; ++i) {
        status = timed_run(a, ctx_a, plan, start, stop, &scratch);
        if (status == 0 && b)
            status = timed_run(b, ctx_b, plan, start, stop, &scratch);
    }
    for (int i = 0; status == 0 && i < runs; ++i) {
        status = timed_run(a, ctx_a, plan, start, stop, &a_ms[i]);
        if (status == 0 && b)
            status = timed_run(b, ctx_b, plan, start, stop, &b_ms[i]);
        if (status == 0 && b)
            pair[i] = b_ms[i] / a_ms[i];
    }
    result->status = status;
    if (status == 0) {
        result->a_ms = stats_summarize(a_ms, (size_t)runs);
        result->b_ms = stats_summarize(b_ms, (size_t)runs);
        result->pair_ratio = stats_summarize(pair, (size_t)runs);
        result->ratio = result->b_ms.median / result->a_ms.median;
    }
    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    free(a_ms);
    free(b_ms);
    free(pair);
    return status;
}

int timing_measure(timed_launch launch, void *ctx, const timing_plan *plan,
                   stats_summary *ms_per_launch)
{
    timing_ab_result result;
    int status = timing_interleaved(launch, ctx, NULL, NULL, plan, &result);
    if (status == 0)
        *ms_per_launch = result.a_ms;
    return status;
}
