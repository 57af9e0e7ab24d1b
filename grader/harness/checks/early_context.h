/* Whether CUDA was already in use when a test program's own code began.
 *
 * Why: the launch watch (launch_watch.h) and the graph watch
 * (graph_watch.h) see what happens after they subscribe. Code that runs
 * before main (a static constructor in the student's file or in a library
 * it pulls in) could launch work, fill buffers or build a graph before
 * them. All of that needs a CUDA context; a test program makes none before
 * its test starts. So a context at that moment means student code used the
 * GPU where the grader could not look. */
#ifndef EARLY_CONTEXT_H
#define EARLY_CONTEXT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 1, with what was found in `why`, when this thread has a current context
 * or any device's primary context is active; 0 otherwise (also when the
 * driver is not even loaded: nothing can have used the GPU). */
int early_context_found(char *why, size_t size);

#ifdef __cplusplus
}
#endif

#endif
