/* Keeping the GPU's driver state alive between test processes, and the
 * device line of the grader's header.
 *
 * When the last CUDA context on a GPU goes away the driver tears down state
 * the next test process must rebuild, about three times the start-up cost
 * (handouts/results/h100-batch-grading-times.txt). The keeper, a child the
 * runner forks before touching CUDA (never student code, so the device line
 * comes from no student process either), describes the device, creates a
 * context, launches nothing, and waits until the runner closes its end of a
 * socket or dies. An idle context takes no GPU time, only a few hundred MiB. */
#ifndef GPU_KEEPER_H
#define GPU_KEEPER_H

#include <stddef.h>

/* Starts the keeper and waits (a few seconds at most) until its context
 * exists, so that its creation cannot overlap a measurement. Returns 1 with
 * the device's one-line description in `device`; 0 when there is no keeper:
 * no device, a compute mode in which processes cannot share the GPU, or any
 * failure (then only the speed-up is lost, and the caller describes the
 * device another way). */
int gpu_keeper_start(char *device, size_t size);

/* Lets the keeper go (it exits by itself; nothing waits for its teardown). */
void gpu_keeper_stop(void);

#endif
