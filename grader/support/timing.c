#include "timing.h"

#include <stdlib.h>

#include <cuda_runtime_api.h>

#include "cuda_check.h"
#include "device_info.h"

static void *flush_buffer;
static cudaEvent_t start_event, stop_event;
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
static int timed_run(timed_launch launch, void *ctx, const timing_plan *plan, int per_run,
                     cudaEvent_t start, cudaEvent_t stop, double *ms)
{
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

/* One run of A then B (B may be NULL), with the guard's hooks around them. */
static int one_pair(timed_launch a, void *ctx_a, timed_launch b, void *ctx_b,
                    const timing_plan *plan, const timing_guard *guard, int run, double *a_ms,
                    double *b_ms)
{
    int per_run = plan->launches_per_run > 0 ? plan->launches_per_run : 1;
    if (guard)
        per_run = 1;
    int status = 0;
    if (guard && guard->prepare)
        status = guard->prepare(guard->ctx, run);
    if (status == 0)
        status = timed_run(a, ctx_a, plan, per_run, start_event, stop_event, a_ms);
    if (status == 0 && b)
        status = timed_run(b, ctx_b, plan, per_run, start_event, stop_event, b_ms);
    if (status == 0 && guard && guard->verify && guard->verify(guard->ctx, run) != 0)
        status = TIMING_WRONG_RESULT;
    return status;
}

int timing_interleaved(timed_launch a, void *ctx_a, timed_launch b, void *ctx_b,
                       const timing_plan *plan, const timing_guard *guard,
                       timing_ab_result *result)
{
    int runs = plan->runs > 0 ? plan->runs : 1;
    double *a_ms = calloc((size_t)runs, sizeof *a_ms);
    double *b_ms = calloc((size_t)runs, sizeof *b_ms);
    double *pair = calloc((size_t)runs, sizeof *pair);
    CUDA_CHECK(cudaEventCreate(&start_event));
    CUDA_CHECK(cudaEventCreate(&stop_event));
    int status = (a_ms && b_ms && pair) ? 0 : -1;
    int warmup = plan->warmup > 0 ? plan->warmup : 0, run = 0;
    double scratch_a, scratch_b;
    for (; status == 0 && run < warmup + runs; ++run) {
        int i = run - warmup; /* the timed runs' index */
        if (i < 0) {
            status = one_pair(a, ctx_a, b, ctx_b, plan, guard, run, &scratch_a, &scratch_b);
            continue;
        }
        status = one_pair(a, ctx_a, b, ctx_b, plan, guard, run, &a_ms[i], &b_ms[i]);
        if (status == 0 && b)
            pair[i] = b_ms[i] / a_ms[i];
    }
    result->status = status;
    result->failed_run = status == 0 ? -1 : run - 1;
    if (status == 0) {
        result->a_ms = stats_summarize(a_ms, (size_t)runs);
        result->b_ms = stats_summarize(b_ms, (size_t)runs);
        result->pair_ratio = stats_summarize(pair, (size_t)runs);
        result->ratio = result->b_ms.median / result->a_ms.median;
    }
    CUDA_CHECK(cudaEventDestroy(start_event));
    CUDA_CHECK(cudaEventDestroy(stop_event));
    free(a_ms);
    free(b_ms);
    free(pair);
    return status;
}

int timing_measure(timed_launch launch, void *ctx, const timing_plan *plan,
                   const timing_guard *guard, stats_summary *ms_per_launch)
{
    timing_ab_result result;
    int status = timing_interleaved(launch, ctx, NULL, NULL, plan, guard, &result);
    if (status == 0)
        *ms_per_launch = result.a_ms;
    return status;
}
