/* Keeping the GPU's driver state alive between test processes, and the
 * device line of the grader's header.
 *
 * Every test runs in its own process, with its own CUDA context. When the
 * last context on a GPU goes away, the driver tears down state that the next
 * process must then build again, so a test that starts on an otherwise idle
 * GPU pays for it: on an H100 (CUDA 13.0, persistence mode on), ten trivial
 * GPU tests in a row took 4.35 s, and 1.38 s while another process held a
 * context (handouts/results/h100-batch-grading-times.txt).
 *
 * The keeper is a child of the runner, forked before the runner touches
 * CUDA: the runner's own code, never the student's. It describes the device
 * (so the header's device line does not come from a process of the
 * student's code either), creates a context, launches nothing, and waits
 * until the runner closes its end of a socket (or dies). An idle context
 * takes no GPU time, so it does not disturb the tests' measurements; it
 * holds some device memory (a few hundred MiB). */
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
