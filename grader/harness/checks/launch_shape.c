#include "launch_shape.h"

#include <stdio.h>

static unsigned long long product(const unsigned v[3])
{
    return (unsigned long long)v[0] * v[1] * v[2];
}

int launch_shape_followed(const launch_shape *want, const launch_record *launches, int count,
                          const char *call, char *why, size_t size)
{
    if (!want || want->block[0] == 0)
        return 1;
    const int judge_grid = want->grid[0] != 0;
    for (int i = 0; i < count; ++i) {
        const launch_record *l = &launches[i];
        int block_ok = product(l->block) == product(want->block);
        int grid_ok = !judge_grid || product(l->grid) == product(want->grid);
        if (block_ok && grid_ok)
            continue;
        if (judge_grid)
            snprintf(why, size,
                     "%s launched a grid of %ux%ux%u blocks of %ux%ux%u threads; the lab fixes "
                     "%ux%ux%u blocks of %ux%ux%u threads (%llu blocks of %llu threads, in any "
                     "layout: the lesson fixes how much of the output a block computes and "
                     "with how many threads, not how they are arranged; %s)",
                     call, l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1],
                     l->block[2], want->grid[0], want->grid[1], want->grid[2], want->block[0],
                     want->block[1], want->block[2], product(want->grid), product(want->block),
                     want->where);
        else
            snprintf(why, size,
                     "%s launched blocks of %ux%ux%u threads; the lab fixes %ux%ux%u (%llu "
                     "threads per block, in any layout: the lesson fixes how many threads "
                     "compute a block's part of the output, not how they are arranged; %s)",
                     call, l->block[0], l->block[1], l->block[2], want->block[0],
                     want->block[1], want->block[2], product(want->block), want->where);
        return 0;
    }
    return 1;
}
