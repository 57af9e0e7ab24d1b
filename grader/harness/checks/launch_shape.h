/* The launch shape a lab fixes, and the rule that judges a launch by it.
 *
 * A lesson fixes how much output one block computes and with how many
 * threads (a 32 x 32 tile, one thread per element); the layout (a 32 x 32
 * block or 1024 threads in x) is the programmer's choice. So a launch
 * follows the shape when its threads per block and, where the shape names
 * a grid, its number of blocks (the products of the sizes) are the shape's.
 * Graded calls (gpu_expect_launch_shape) and every timed call of a speed
 * check (speed_spec.shape) are judged by this one rule. */
#ifndef LAUNCH_SHAPE_H
#define LAUNCH_SHAPE_H

#include <stddef.h>

#include "launch_watch.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    unsigned block[3]; /* the block as the lab writes it; block[0] == 0: nothing judged */
    unsigned grid[3];  /* the grid; grid[0] == 0: the grid is not judged */
    const char *where; /* where the lab fixes it (TODO, header, handout section) */
} launch_shape;

/* 1 when every one of `count` launches follows `want`; otherwise 0, and
 * `why` (size bytes) says which launch did not, naming `call`. */
int launch_shape_followed(const launch_shape *want, const launch_record *launches, int count,
                          const char *call, char *why, size_t size);

#ifdef __cplusplus
}
#endif

#endif
