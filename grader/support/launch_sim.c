#include "launch_sim.h"

#include <stdio.h>
#include <stdlib.h>

int launch_sim_run(lab_dim3 grid, lab_dim3 block, sim_visitor visit, void *ctx)
{
    sim_thread t;
    t.grid_dim = grid;
    t.block_dim = block;
    for (t.block_idx.z = 0; t.block_idx.z < grid.z; ++t.block_idx.z)
        for (t.block_idx.y = 0; t.block_idx.y < grid.y; ++t.block_idx.y)
            for (t.block_idx.x = 0; t.block_idx.x < grid.x; ++t.block_idx.x)
                for (t.thread_idx.z = 0; t.thread_idx.z < block.z; ++t.thread_idx.z)
                    for (t.thread_idx.y = 0; t.thread_idx.y < block.y; ++t.thread_idx.y)
                        for (t.thread_idx.x = 0; t.thread_idx.x < block.x; ++t.thread_idx.x) {
                            t.thread_in_block = t.thread_idx.x +
                                                block.x * (t.thread_idx.y + block.y * t.thread_idx.z);
                            t.warp = t.thread_in_block / LAUNCH_SIM_WARP_SIZE;
                            t.lane = t.thread_in_block % LAUNCH_SIM_WARP_SIZE;
                            if (visit(&t, ctx))
                                return 0;
                        }
    return 1;
}

long long launch_sim_threads(lab_dim3 grid, lab_dim3 block)
{
    return (long long)grid.x * grid.y * grid.z * block.x * block.y * block.z;
}

int coverage_init(coverage_map *map, size_t n)
{
    map->hits = calloc(n ? n : 1, 1);
    map->n = n;
    map->out_of_range = 0;
    map->first_out_of_range = 0;
    return map->hits != NULL;
}

void coverage_free(coverage_map *map)
{
    free(map->hits);
    map->hits = NULL;
}

void coverage_record(coverage_map *map, long long index)
{
    if (index < 0 || (size_t)index >= map->n) {
        if (map->out_of_range++ == 0)
            map->first_out_of_range = index;
        return;
    }
    if (map->hits[index] < 255)
        ++map->hits[index];
}

int coverage_summarize(const coverage_map *map, coverage_summary *s)
{
    s->never = s->repeated = 0;
    s->first_never = s->first_repeated = -1;
    for (size_t i = 0; i < map->n; ++i) {
        if (map->hits[i] == 0 && s->never++ == 0)
            s->first_never = (long long)i;
        if (map->hits[i] > 1 && s->repeated++ == 0)
            s->first_repeated = (long long)i;
    }
    return s->never == 0 && s->repeated == 0 && map->out_of_range == 0;
}

int coverage_describe(const coverage_map *map, const char *done, const char *act, char *out,
                      size_t size)
{
    coverage_summary s;
    int ok = coverage_summarize(map, &s);
    size_t used = (size_t)snprintf(out, size, "every element must be %s by exactly one thread",
                                   done);
    const char *joint = ", but";
    if (s.never && used < size) {
        used += (size_t)snprintf(out + used, size - used, "%s %zu %s never %s (first: element %lld)",
                                 joint, s.never, s.never == 1 ? "was" : "were", done,
                                 s.first_never);
        joint = ";";
    }
    if (s.repeated && used < size) {
        used += (size_t)snprintf(out + used, size - used,
                                 "%s %zu %s %s more than once (first: element %lld)", joint,
                                 s.repeated, s.repeated == 1 ? "was" : "were", done,
                                 s.first_repeated);
        joint = ";";
    }
    if (map->out_of_range && used < size)
        snprintf(out + used, size - used, "%s %zu %s%s fell outside the data (first: index %lld)",
                 joint, map->out_of_range, act, map->out_of_range == 1 ? "" : "s",
                 map->first_out_of_range);
    return ok;
}
