/* Whether CUDA was already in use when a test program's own code began.
 *
 * Why: the launch and graph watches see only what follows their
 * subscription; code run before main (a static constructor in the student's
 * file or a library it pulls in) could launch work or build a graph first.
 * That needs a CUDA context, and a test program makes none before its test
 * starts: a context then means student code used the GPU unwatched. */
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
