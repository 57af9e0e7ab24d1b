#include "bench_rules.h"

static double window_mean(const double *ms, int from)
{
    double sum = 0.0;
    for (int i = from; i < from + BENCH_SETTLE_WINDOW; ++i)
        sum += ms[i];
    return sum / BENCH_SETTLE_WINDOW;
}

int bench_settled(const double *ms, int n)
{
    if (n < 2 * BENCH_SETTLE_WINDOW)
        return 0;
    int last = n - BENCH_SETTLE_WINDOW;
    double fastest = ms[last], slowest = ms[last];
    for (int i = last; i < n; ++i) {
        fastest = ms[i] < fastest ? ms[i] : fastest;
        slowest = ms[i] > slowest ? ms[i] : slowest;
    }
    if (!(fastest > 0.0) || slowest > fastest * (1.0 + BENCH_SETTLE_TOLERANCE))
        return 0;
    /* Still getting faster: the clocks are still rising. */
    return window_mean(ms, last) >= window_mean(ms, last - BENCH_SETTLE_WINDOW) *
                                        (1.0 - BENCH_SETTLE_TOLERANCE);
}

int bench_drifted(double min_ms, double median_ms)
{
    return median_ms >= BENCH_SHORT_MS && min_ms > 0.0 && median_ms > min_ms * BENCH_DRIFT_MAX;
}

double bench_spread_limit(double median_ms)
{
    return median_ms >= BENCH_SHORT_MS ? BENCH_SPREAD_MAX : BENCH_SPREAD_MAX_SHORT;
}

int bench_too_spread(double min_ms, double median_ms, double max_ms)
{
    return !(min_ms > 0.0) || max_ms > min_ms * bench_spread_limit(median_ms);
}

int bench_unsteady(double min_ms, double median_ms, double max_ms, int over_bus)
{
    return bench_too_spread(min_ms, median_ms, max_ms) ||
           (!over_bus && bench_drifted(min_ms, median_ms));
}

double bench_ceiling_slack(double ceiling_ms, int over_bus)
{
    if (ceiling_ms < BENCH_SHORT_MS)
        return BENCH_SHORT_CEILING_SLACK;
    return over_bus ? BENCH_BUS_CEILING_SLACK : 0.0;
}

int bench_ceiling_is_limit(double ceiling_ms, int over_bus)
{
    return bench_ceiling_slack(ceiling_ms, over_bus) == 0.0;
}

int bench_above_ceiling(double rate, double ceiling_rate, double slack)
{
    return ceiling_rate > 0.0 && rate > ceiling_rate * (1.0 + slack);
}

bench_row_fate bench_row_fate_of(double min_ms, double median_ms, double max_ms,
                                 double ceiling_median_ms, int ceiling_checks)
{
    /* A time of zero is no measurement: never faster than anything. */
    if (median_ms > 0.0 && ceiling_median_ms > 0.0 &&
        bench_above_ceiling(1.0 / median_ms, 1.0 / ceiling_median_ms,
                            bench_ceiling_slack(ceiling_median_ms, 0)))
        return ceiling_checks < 2 ? BENCH_ROW_RECHECK : BENCH_ROW_ABOVE_CEILING;
    return bench_unsteady(min_ms, median_ms, max_ms, 0) ? BENCH_ROW_UNSTEADY : BENCH_ROW_KEPT;
}
