/* The launch shape a lab fixes, and the rule that judges a launch by it.
 *
 * What a lesson fixes is how much of the output one block computes and with
 * how many threads: a 32 x 32 tile of C with one thread per element, 128
 * blocks of 256 threads for a grid-stride loop. How those threads and
 * blocks are laid out (a 2D block of 32 x 32 or a 1D block of 1024 reading
 * its row and column from threadIdx.x) is the programmer's choice, and the
 * kernel computes the same tiles either way. So a launch follows the shape
 * when its threads per block (the product of the block's sizes) and, where
 * the shape names a grid, its number of blocks (the grid's product) are the
 * shape's. Graded calls (gpu_expect_launch_shape) and every timed call of a
 * speed check (speed_spec.shape) are judged by the same rule. */
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
