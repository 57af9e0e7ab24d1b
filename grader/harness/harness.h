/* The grader harness: runs each test of a suite in its own process.
 *
 * Why a process per test: a CUDA fault is sticky for the whole process, and a
 * student kernel can hang. The parent never touches CUDA; it forks one child
 * per test, gives it a time limit, and turns whatever happens (pass, failed
 * assertion, skip, crash, timeout) into one result line and one record in the
 * machine-readable results file. Inside a child the test is an ordinary
 * CMocka test, so CMocka's usual output appears too. */
#ifndef HARNESS_H
#define HARNESS_H

#include <stddef.h>
#include <stdint.h>

/* CMocka needs these before its header. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    GROUP_CPU,      /* runs anywhere: CPU simulation of the student's index math */
    GROUP_GPU,      /* needs a CUDA device; skipped without one */
    GROUP_SELFTEST  /* proves the grader itself discriminates (e.g. a baseline fails) */
} grader_group;

typedef struct {
    const char *name;       /* stable id: results file, ctest and rubric use it */
    grader_group group;
    void (*run)(void **state);
    int points;             /* from rubric.h */
    int timeout_s;          /* 0: the default for its group */
} grader_test;

typedef struct {
    const char *lab;        /* "lab1" */
    const char *title;      /* "Lab 1 - thread indexing" */
    const char *handout;    /* "handouts/lab1-indexing.md" */
    const char *implementation; /* "labs" or "solutions": GRADER_IMPLEMENTATION */
    const grader_test *tests;
    size_t count;
} grader_suite;

/* Parses the command line (see usage in harness.c), runs the selected tests
 * and returns the process exit code: 0 all passed (skips allowed), 1 a test
 * failed, crashed or timed out, 2 usage error, 77 every test was skipped. */
int grader_main(const grader_suite *suite, int argc, char **argv);

/* ---- inside a test ---- */

/* Skips the test (reported as SKIP, never as pass) when there is no GPU. */
void grader_require_gpu(void);

/* Skips the test with a reason. Does not return. */
void grader_skip_at(const char *file, int line, const char *reason)
#if defined(__GNUC__)
    __attribute__((noreturn))
#endif
    ;

/* CMocka's skip() alone would look like a pass to the parent (CMocka counts
 * only failures); route it through the harness so it is recorded as SKIP. */
#undef skip
#define skip() grader_skip_at(__FILE__, __LINE__, "skipped by the test")

/* Base seed (LAB_SEED or the default); printed in the report. */
uint64_t grader_seed(void);

/* Attaches a number to the test's result record (and prints it). */
void grader_metric(const char *name, double value, const char *unit);

/* Records the failure message for the results file, prints it, and fails the
 * test through CMocka. Does not return. */
void grader_fail_at(const char *file, int line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4), noreturn))
#endif
    ;
#define GRADER_FAIL(...) grader_fail_at(__FILE__, __LINE__, __VA_ARGS__)
#define GRADER_CHECK(cond, ...)           \
    do {                                  \
        if (!(cond))                      \
            GRADER_FAIL(__VA_ARGS__);     \
    } while (0)

/* malloc that fails the test (instead of returning NULL) when host memory
 * runs out; never returns NULL, also for 0 bytes. */
void *grader_malloc(size_t bytes);

/* Prints an informational line (not a failure) and keeps it in the record. */
void grader_note(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

#ifdef __cplusplus
}
#endif

#endif
