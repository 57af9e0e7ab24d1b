/* Sharing one GPU between the graders of one student (the batch grader).
 *
 * The batch runs a student's lab graders at once on one GPU, all with
 * GRADER_GPU_SHARE naming one folder of two lock files ("gate" and "gpu":
 * gpu_share.c says why two). Every GPU test holds the lock shared while it
 * runs, so correctness tests (and --jobs) run side by side; a test that
 * measures claims it exclusively first (grader_gpu_exclusive). Only one
 * student's graders share a GPU, so abusing the lock slows only their own.
 *
 * Without GRADER_GPU_SHARE (make check-labN) nothing here does anything. */
#ifndef GPU_SHARE_H
#define GPU_SHARE_H

#include "result_record.h"

/* One test's hold on the locks: its own open files, so that tests a grader
 * runs side by side (--jobs) hold and convert the lock apart. */
typedef struct {
    int gate, gpu;
} gpu_hold;
#define GPU_HOLD_NONE {-1, -1}

/* Parent: checks that the locks in GRADER_GPU_SHARE can be opened. Returns
 * 0 (also when the variable is unset), -1 with a message on stderr when they
 * cannot: then the grader must not run, since its measurements would not be
 * protected. */
int gpu_share_open(void);
int gpu_share_active(void);

/* Parent, before forking a test: takes the lock for it, shared or
 * (exclusive) alone, waiting as long as it takes; but a shared take with
 * wait == 0 returns 0 at once when the GPU cannot be had now (a test
 * measures or asks to). Returns 1 when taken (or when there is no lock), -1
 * with a message on stderr when the lock failed. */
int gpu_share_take(gpu_hold *hold, int exclusive, int wait);
/* Parent, once the test has ended: releases the hold. */
void gpu_share_drop(gpu_hold *hold);
/* The test's child, right after fork: the hold grader_gpu_exclusive and
 * grader_gpu_share_again convert. */
void gpu_share_adopt(const gpu_hold *hold);

/* Parent: seconds the running test has spent waiting for the GPU (its own
 * time limit does not count them). */
double gpu_share_waited(const result_record *rec, double now);

/* Adds the time a test held the GPU alone up to `end` to its record. */
void gpu_share_account(result_record *rec, double end);
/* Marks the record as holding the GPU alone from `now` (harness_now),
 * keeping the first such moment. */
void gpu_share_alone_from(result_record *rec, double now);

#endif
