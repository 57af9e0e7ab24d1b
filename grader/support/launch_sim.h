/* Simulating a kernel launch on the CPU.
 *
 * Visits every (block, thread) of a grid in the order the hardware numbers
 * them: threadIdx.x fastest, then y, then z; consecutive groups of 32 linear
 * thread ids form a warp. Graders call a lab's index helpers from the
 * visitor to check coverage, bounds and memory layout without a GPU. */
#ifndef LAUNCH_SIM_H
#define LAUNCH_SIM_H

#include <stddef.h>

#include "lab_dim3.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { LAUNCH_SIM_WARP_SIZE = 32 };

typedef struct {
    lab_dim3 grid_dim, block_dim, block_idx, thread_idx;
    int thread_in_block; /* x + y*bdx + z*bdx*bdy */
    int warp, lane;      /* thread_in_block / 32 and % 32 */
} sim_thread;

/* Return non-zero from the visitor to stop the simulation early. */
typedef int (*sim_visitor)(const sim_thread *thread, void *ctx);

/* Returns 1 if every thread was visited, 0 if the visitor stopped it. */
int launch_sim_run(lab_dim3 grid, lab_dim3 block, sim_visitor visit, void *ctx);

long long launch_sim_threads(lab_dim3 grid, lab_dim3 block);

/* How often each element of an output was written by a simulated launch. */
typedef struct {
    unsigned char *hits; /* saturating counters, one per element */
    size_t n;
    size_t out_of_range; /* writes with an index outside [0, n) */
    long long first_out_of_range;
} coverage_map;

int coverage_init(coverage_map *map, size_t n);
void coverage_free(coverage_map *map);
void coverage_record(coverage_map *map, long long index);

typedef struct {
    size_t never;     /* elements nobody wrote */
    size_t repeated;  /* elements written more than once */
    long long first_never, first_repeated;
} coverage_summary;

/* Returns 1 when every element was written exactly once and nothing fell
 * outside the range. */
int coverage_summarize(const coverage_map *map, coverage_summary *summary);

/* The same check in words, for a grader's message: returns what
 * coverage_summarize returns and writes to `out`, for example
 * "every element must be loaded by exactly one thread, but 1 was loaded
 * more than once (first: element 0)". `done` is what happens to an
 * element ("written", "loaded", "stored"), `act` one access by name
 * ("write", "load", "store"): a load helper's message speaks of loads,
 * and one element is "1 was", not "1 were". */
int coverage_describe(const coverage_map *map, const char *done, const char *act, char *out,
                      size_t size);

#ifdef __cplusplus
}
#endif

#endif
