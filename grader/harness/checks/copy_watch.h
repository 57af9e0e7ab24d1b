/* Which host buffers a student call's copies read and wrote, and whether the
 * caller's output stayed what the device-to-host copy put there.
 *
 * Why: a host flow (lab 2's lab2_matmul_host) is graded on the work the GPU
 * did. Copies of the right sizes and a long enough kernel are not proof: the
 * copies could read other buffers, and C could be computed on the CPU after
 * the copy-back. So, through the same CUPTI callbacks as launch_watch.h
 * (one subscriber per process), every cudaMemcpy(Async) inside a student
 * call is noted with its host pointers, and the caller's output is hashed
 * the moment the copy into it has completed (at the synchronous copy's
 * return, or at the first synchronising call after an asynchronous one).
 * The grader compares that hash with the output at the call's return. */
#ifndef COPY_WATCH_H
#define COPY_WATCH_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Before the student call: the caller's output buffer, to hash once a copy
 * into it completes. */
void copy_watch_output(void *host, size_t bytes);
/* After it: whether a copy read exactly `bytes` from `host` (an input). */
int copy_watch_read(const void *host, size_t bytes);
/* Whether a copy wrote the whole output. */
int copy_watch_wrote_output(void);
/* 1: the output is what the last copy into it left; 0: it changed after
 * that copy completed; -1: no completed copy into it was seen. */
int copy_watch_output_kept(void);

/* launch_watch.c's side: a student call starts (forget the last one's
 * copies); a runtime API callback inside one. */
void copy_watch_reset(void);
void copy_watch_on_runtime(unsigned cbid, int at_exit, const void *params);
/* The runtime callbacks to enable (ids), and how many. */
const unsigned *copy_watch_callbacks(int *count);

#ifdef __cplusplus
}
#endif

#endif
