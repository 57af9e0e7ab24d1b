#include "steady_timing.h"

#include <stdio.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "lab_status.h"

int timing_settle(timed_launch launch, void *ctx, int *runs)
{
    *runs = 0;
    cudaEvent_t start, stop;
    if (cudaEventCreate(&start) != cudaSuccess)
        return LAB_ERR_CUDA;
    if (cudaEventCreate(&stop) != cudaSuccess) {
        cudaEventDestroy(start);
        return LAB_ERR_CUDA;
    }
    double ms[BENCH_SETTLE_MAX_RUNS], total = 0.0;
    int n = 0, status = 0;
    while (n < BENCH_SETTLE_MAX_RUNS && total < BENCH_SETTLE_MAX_MS && !bench_settled(ms, n)) {
        cudaEventRecord(start, 0);
        status = launch(ctx);
        cudaEventRecord(stop, 0);
        float elapsed = 0.0f;
        if (status != 0 || cudaEventSynchronize(stop) != cudaSuccess ||
            cudaEventElapsedTime(&elapsed, start, stop) != cudaSuccess) {
            status = status ? status : LAB_ERR_CUDA;
            break;
        }
        ms[n++] = elapsed;
        total += elapsed;
    }
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    *runs = n;
    return status;
}

double steady_spread(const stats_summary *ms)
{
    return ms->min > 0 ? ms->max / ms->min : 1e300;
}

const char *steady_describe(const steady_measurement *m, char *text, size_t size)
{
    snprintf(text, size, "%.3f", steady_spread(&m->ms));
    if (m->tries > 1) {
        size_t n = strlen(text);
        snprintf(text + n, size - n, " (%d tries%s%s)", m->tries, m->steady ? "" : ", unsteady",
                 m->rechecked ? ", rechecked with the ceiling" : "");
    }
    return text;
}

static void arm(const steady_watch *w, double limit_s)
{
    if (w->arm)
        w->arm(w->what, limit_s);
}

static void disarm(const steady_watch *w)
{
    if (w->disarm)
        w->disarm();
}

/* One settle and one measurement, each under the watchdog. Settling stops
 * once BENCH_SETTLE_MAX_MS of runs are done, so it takes at most that and
 * one more run (twice a run's limit covers the launches' own overhead). */
static int settle_and_measure(const steady_entry *e, const timing_plan *plan, int *settle_runs,
                              stats_summary *ms)
{
    /* Fresh inputs first, as every timed run will have them. */
    if (e->guard && e->guard->prepare && e->guard->prepare(e->guard->ctx, 0) != 0)
        return LAB_ERR_CUDA;
    arm(&e->watch, 2.0 * e->watch.run_limit_s + BENCH_SETTLE_MAX_MS / 1e3);
    int status = timing_settle(e->launch, e->ctx, settle_runs);
    disarm(&e->watch);
    if (status != 0)
        return status;
    arm(&e->watch, e->watch.run_limit_s * (plan->warmup + plan->runs));
    status = timing_measure(e->launch, e->ctx, plan, e->guard, ms);
    disarm(&e->watch);
    return status;
}

int timing_measure_steadily(const steady_entry *e, const timing_plan *plan,
                            steady_measurement *out)
{
    *out = (steady_measurement){.tries = 0};
    for (int t = 0; t <= BENCH_REMEASURE_TRIES; ++t) {
        stats_summary ms;
        int settle_runs = 0;
        int status = settle_and_measure(e, plan, &settle_runs, &ms);
        if (status != 0)
            return status;
        if (t == 0 || steady_spread(&ms) < steady_spread(&out->ms)) {
            out->ms = ms;
            out->settle_runs = settle_runs;
        }
        out->tries = t + 1;
        out->steady = !bench_unsteady(out->ms.min, out->ms.median, out->ms.max, 0);
        if (out->steady)
            break;
    }
    return 0;
}

int timing_row_steadily(const steady_entry *row, const steady_entry *ceiling,
                        const timing_plan *plan, steady_measurement *ceiling_ms,
                        steady_measurement *out, bench_row_fate *fate)
{
    double ceiling_median = ceiling ? ceiling_ms->ms.median : 0.0;
    int status = timing_measure_steadily(row, plan, out);
    if (status != 0)
        return status;
    *fate = bench_row_fate_of(out->ms.min, out->ms.median, out->ms.max, ceiling_median, 1);
    if (*fate != BENCH_ROW_RECHECK)
        return 0;
    /* Once more, the ceiling first, so that both are timed at the clocks
     * the row now runs at. */
    steady_measurement again;
    if (timing_measure_steadily(ceiling, plan, &again) == 0) {
        /* (Failed this time, the row is held to the first measurement.) */
        if (again.ms.median < ceiling_ms->ms.median) {
            again.tries += ceiling_ms->tries;
            *ceiling_ms = again;
        } else {
            ceiling_ms->tries += again.tries;
        }
    }
    steady_measurement first = *out;
    status = timing_measure_steadily(row, plan, out);
    if (status != 0)
        return status;
    out->tries += first.tries;
    out->rechecked = 1;
    *fate = bench_row_fate_of(out->ms.min, out->ms.median, out->ms.max, ceiling_ms->ms.median, 2);
    return 0;
}
