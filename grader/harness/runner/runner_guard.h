/* The boundary between a runner and the test programs it starts.
 *
 * The runner holds every verdict and the results channel; the test program
 * runs the student's code. A test program of the runner's own uid could
 * otherwise open /proc/<runner>/mem, ptrace it or write it with
 * process_vm_writev, and so rewrite its verdicts. So:
 *  - the runner makes itself non-dumpable before it starts any test, which
 *    puts its memory, maps, descriptors and ptrace behind the kernel's
 *    ptrace access check (same uid is no longer enough);
 *  - in the batch (--test-uid), each test program runs as a uid of its own
 *    (the second of its slot's pair, grader/batch/uids.py): it cannot
 *    signal, trace or read the runner at all. The runner keeps only the
 *    capabilities to switch to that uid and to kill it (the batch's
 *    setpriv gives it CAP_SETUID, CAP_SETGID and CAP_KILL, nothing else);
 *    the child drops every one of them, and sets no_new_privs, before exec. */
#ifndef RUNNER_GUARD_H
#define RUNNER_GUARD_H

#include <stddef.h>

/* -1: test programs run as the runner's own uid (make check-labN). */
extern long runner_test_uid;

/* Non-dumpable; 0, or -1 with errno (the runner must not go on then). */
int runner_guard_self(void);

/* --test-uid's value: 1 when it is one (a uid other than root and than the
 * runner's own), else 0. */
int runner_set_test_uid(const char *text);

/* In the forked child, before exec: becomes runner_test_uid (no groups,
 * no capabilities, no_new_privs). 0, or -1 with `why` filled in. A no-op
 * without --test-uid. */
int runner_become_test_uid(char *why, size_t size);

#endif
