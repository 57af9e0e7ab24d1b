/* The graded race check: compute-sanitizer's racecheck tool on a small run
 * of the student's shared-memory kernels.
 *
 * Why graded: a missing __syncthreads() is a race, and a race can give the
 * right numbers by luck in every output check. racecheck watches every
 * shared-memory access of a run and reports two accesses of one word by
 * different threads with no barrier between them, whether or not the
 * numbers came out wrong this time.
 *
 * The test runs a small program (the lab's "race runner": it links the
 * same student library as the grader, calls each shared-memory entry point
 * once on a small problem and checks the results) under
 *   compute-sanitizer --tool racecheck --log-file FILE
 * and reads the tool's summary from FILE, never from the runner's output:
 * the student's code runs in the runner and could print a summary of its
 * own (the variant lab3/racecheck_summary_forged does). The runner lies next to the grader's
 * executable (the build puts it there: the batch grader links it there
 * too), under the name the build gives it: grader_race_runner, defined with
 * the implementation's other names (harness.h, grader_implementation). */
#ifndef RACECHECK_H
#define RACECHECK_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The race runner's file name, run-time data of each implementation, so
 * that the checks that name it are compiled once per lab; the labs' checks
 * spell it GRADER_RACE_RUNNER. Defined only for a lab that has a race
 * runner: a check of another lab that names it does not link. */
extern const char grader_race_runner[];
#define GRADER_RACE_RUNNER grader_race_runner

/* What compute-sanitizer's racecheck printed, as far as the grader needs it. */
typedef struct {
    int has_summary;        /* the "RACECHECK SUMMARY:" line was there */
    int hazards;            /* hazards displayed (race reports) */
    int errors, warnings;   /* of which errors / warnings */
    char first_race[512];   /* the first "Race reported between ..." report, one line */
    char first_location[256]; /* "file.cu:61" of the first race's first access, or "" */
} racecheck_summary;

/* Parses racecheck's report (stdout and stderr together). Returns 1 when
 * the summary line was found, 0 otherwise (the tool never finished). */
int racecheck_parse(const char *report, racecheck_summary *out);

/* One graded race check (a GPU test's whole body). */
typedef struct {
    const char *runner;        /* the race runner's file name: GRADER_RACE_RUNNER */
    const char *lab_number;    /* "3": for `make sanitize-lab3` */
    const char *what;          /* "lab3_matmul_tiled (TILE 32) on 64x64x96" */
    const char *const *args;   /* the runner's arguments, NULL-terminated (may be NULL) */
    const char *fix_hint;      /* which TODOs and handout section a race points to */
    double limit_s;            /* the sanitizer run's own limit */
} racecheck_spec;

/* racecheck slows kernels 10-100 times and takes a few seconds to start:
 * a small problem takes seconds under it. The run's own limit, and the
 * test's (the harness's backstop, a grader_test's timeout_s). */
#define RACECHECK_RUN_LIMIT_S 90.0
#define RACECHECK_TEST_TIMEOUT_S 150

/* Skips (never passes) without a GPU or without compute-sanitizer; fails
 * when racecheck reports an error-level hazard, when the runner is missing,
 * or when the runner's kernels did not run right (its own message). */
void racecheck_expect_clean(const racecheck_spec *spec);

/* compute-sanitizer's path into buf, or 0 when there is none: $CUDA_LABS_SANITIZER,
 * PATH, the toolkit the course was built with (GRADER_TOOLKIT_BIN), /usr/local/cuda/bin. */
int racecheck_find_sanitizer(char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif
