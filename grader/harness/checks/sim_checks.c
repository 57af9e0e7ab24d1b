#include "sim_checks.h"

#include <stdio.h>

#include "harness.h"

lab_dim3 sim_dim3(int x, int y, int z)
{
    lab_dim3 d = {x, y, z};
    return d;
}

int sim_ceil_div(int n, int d) { return n / d + (n % d != 0); }

void sim_expect_exact_coverage(coverage_map *map, const char *what, const char *done,
                               const char *act, todo_pointer where)
{
    char why[384];
    int ok = coverage_describe(map, done, act, why, sizeof why);
    coverage_free(map);
    GRADER_CHECK(ok, "TODO(%s) %s: %s. See %s, section %s.", where.todo, what, why,
                 where.handout, where.section);
}

/* "lanes 0-3 access bytes 0, 8192, 16384, 24576" for the message. */
static void describe_lanes(const warp_request *r, char *out, size_t size)
{
    size_t used = (size_t)snprintf(out, size, "its first lanes access bytes");
    int listed = 0;
    for (int l = 0; l < LAUNCH_SIM_WARP_SIZE && listed < 4 && used < size; ++l)
        if ((r->active >> l) & 1u) {
            used += (size_t)snprintf(out + used, size - used, "%s %lld (lane %d)",
                                     listed ? "," : "", r->address[l], l);
            ++listed;
        }
}

void sim_expect_coalesced(const warp_sector_survey *survey, const char *access,
                             const char *metric, double max_ratio, const char *fix,
                             todo_pointer where)
{
    char name[64];
    snprintf(name, sizeof name, "%s_sectors", metric);
    grader_metric(name, memory_sectors_mean(survey), "sectors/request");
    snprintf(name, sizeof name, "%s_ideal_sectors", metric);
    grader_metric(name, memory_sectors_mean_ideal(survey), "sectors/request");
    GRADER_CHECK(survey->requests > 0, "TODO(%s) %s: no thread of the simulated launch accessed "
                 "memory. See %s, section %s.", where.todo, access, where.handout,
                 where.section);
    grader_note("%s: %.1f sectors per warp request on average, worst %d where %d would do "
                "(32 consecutive floats need 4)",
                access, memory_sectors_mean(survey), survey->worst_sectors, survey->worst_ideal);
    if (survey->worst_sectors <= max_ratio * survey->worst_ideal)
        return;
    char lanes[160];
    describe_lanes(&survey->worst, lanes, sizeof lanes);
    GRADER_FAIL("TODO(%s) %s are not coalesced: warp %d of block (%d,%d) touches %d sectors of "
                "32 bytes in one request, where the %d distinct bytes it needs fit in %d (more "
                "than %.0fx; mean %.1f sectors per request); %s. %s See %s, section %s.",
                where.todo, access, survey->worst_warp, survey->worst_block.x,
                survey->worst_block.y, survey->worst_sectors,
                warp_request_distinct(&survey->worst) * survey->worst.access_bytes,
                survey->worst_ideal, max_ratio, memory_sectors_mean(survey), lanes, fix,
                where.handout, where.section);
}
