#include "sim_checks.h"

#include <stdio.h>

#include "harness.h"

lab_dim3 sim_dim3(int x, int y, int z)
{
    lab_dim3 d = {x, y, z};
    return d;
}

int sim_ceil_div(int n, int d) { return n / d + (n % d != 0); }

void sim_expect_exact_coverage(coverage_map *map, const char *what, todo_pointer where)
{
    coverage_summary s;
    int ok = coverage_summarize(map, &s);
    char problems[384] = "";
    size_t used = 0;
    if (s.never)
        used += (size_t)snprintf(problems + used, sizeof problems - used,
                                 " %zu were never written (first: element %lld);", s.never,
                                 s.first_never);
    if (s.repeated && used < sizeof problems)
        used += (size_t)snprintf(problems + used, sizeof problems - used,
                                 " %zu were written more than once (first: element %lld);",
                                 s.repeated, s.first_repeated);
    if (map->out_of_range && used < sizeof problems)
        snprintf(problems + used, sizeof problems - used,
                 " %zu writes fell outside the data (first: index %lld);", map->out_of_range,
                 map->first_out_of_range);
    coverage_free(map);
    GRADER_CHECK(ok, "TODO(%s) %s: every element must be written by exactly one thread, but%s "
                 "see %s, section %s.", where.todo, what, problems, where.handout, where.section);
}
