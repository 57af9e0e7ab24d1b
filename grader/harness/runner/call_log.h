/* The verdict of a CPU check comes from the runner, not from the test
 * program that ran the student's code (docs/design.md, "Verdicts the runner
 * takes itself").
 *
 * A lab's CPU checks call the student's pure helpers (index arithmetic) and
 * judge what they return. The test program, where student code runs, could
 * write any verdict into its record; so for a lab that lists its helpers
 * (labN_calls.c), the test program only *records* each helper call the checks
 * make: a hash of the helper's name and arguments, and the bytes it returned.
 * When the test program says the test passed, the runner, which has the
 * same checks linked against replaying stand-ins instead of the student's
 * helpers, runs the test again on those recorded results. Its verdict is the
 * one that counts. To pass, a record must hold, for every call the checks
 * make, the right answer: computing it is solving the lab.
 *
 * A helper is listed once, in labN_calls.c:
 *
 *   int CALL_LOGGED(lab1_blocks_for)(int n, int block_size)
 *   {
 *       int r = 0;
 *       call_log_begin("lab1_blocks_for");
 *       CALL_ARG(n);
 *       CALL_ARG(block_size);
 *       CALL_STUDENT(r = CALL_REAL(lab1_blocks_for)(n, block_size));
 *       call_log_end(&r, sizeof r);
 *       return r;
 *   }
 *
 * In the test program that is __wrap_lab1_blocks_for (the link wraps the
 * checks' references to the helper, --wrap), which calls the student's
 * helper and records; in the runner it *is* lab1_blocks_for and returns the
 * recorded result. Calls a helper makes to another helper are the student's
 * business and are neither wrapped nor recorded. */
#ifndef CALL_LOG_H
#define CALL_LOG_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifdef GRADER_RUNNER
#define CALL_LOGGED(name) name
#define CALL_STUDENT(call) ((void)0)
#else
#define CALL_LOGGED(name) __wrap_##name
#define CALL_REAL(name) __real_##name
#define CALL_STUDENT(call) (call)
#endif
#define CALL_ARG(value) call_log_arg(&(value), sizeof(value))

/* A helper call starts: its name, then each argument. */
void call_log_begin(const char *helper);
void call_log_arg(const void *value, size_t bytes);
/* It ends: records *result (the test program) or replaces it with the
 * recorded result (the runner; a call that was not recorded fails the test). */
void call_log_end(void *result, size_t bytes);

/* The runner: a new, empty record to hand the test program; -1 on failure.
 * Its size is virtual: only what is recorded takes memory. Lab 1's largest
 * check records about 1 million calls, 12 MB; the size must stay under the
 * file-size limit the batch gives graders (RLIMIT_FSIZE, 256 MiB), since
 * sizing the memfd counts as writing a file. */
enum { CALL_LOG_BYTES = 64 << 20 };
int call_log_create(void);
/* The test program, for a CPU check: record into this descriptor. The
 * runner: replay from it. 0, or -1 when it cannot be used. */
int call_log_record_to(int fd);
int call_log_replay_from(int fd);

#ifdef __cplusplus
}
#endif

#endif
