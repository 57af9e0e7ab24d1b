/* Sharing one GPU between the graders of one student (the batch grader).
 *
 * The batch grader may run all of a student's lab graders at once on one
 * GPU and sets GRADER_GPU_SHARE to a folder of two lock files ("gate" and
 * "gpu", gpu_share.c says why two), the same for all of them.
 * Every GPU test then holds the lock shared while it runs, so correctness
 * tests of several labs run side by side; a test that measures time claims
 * it exclusively first (grader_gpu_exclusive, harness.h), so nothing else
 * runs on the GPU while it measures. Only one student's graders share a
 * GPU at a time: a student who abuses the lock slows only their own tests.
 *
 * Without GRADER_GPU_SHARE (a student's `make check-labN`) nothing here
 * does anything: a grader runs its tests one at a time, alone. */
#ifndef GPU_SHARE_H
#define GPU_SHARE_H

#include "result_record.h"

/* Parent: opens the locks in GRADER_GPU_SHARE. Returns 0 (also when the
 * variable is unset), -1 with a message on stderr when they cannot be
 * opened: then the grader must not run, since its measurements would not
 * be protected. */
int gpu_share_open(void);
int gpu_share_active(void);

/* Parent, around one test process: takes the lock (shared, or exclusive
 * for a test that must run alone) and drops it once the test has ended. */
void gpu_share_take(int exclusive);
void gpu_share_drop(void);

/* Parent: seconds the running test has spent waiting for the GPU (its own
 * time limit does not count them). */
double gpu_share_waited(const result_record *rec, double now);

/* Adds the time a test held the GPU alone up to `end` to its record. */
void gpu_share_account(result_record *rec, double end);

#endif
