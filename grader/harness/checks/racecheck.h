/* The graded race check: compute-sanitizer's racecheck tool on a small run
 * of the student's shared-memory kernels.
 *
 * Why graded: a missing __syncthreads() is a race that can give the right
 * numbers by luck in every output check; racecheck reports two unsynchronised
 * accesses of one shared word whether or not the numbers came out wrong.
 *
 * The test runs the lab's "race runner" (the student's library, each
 * shared-memory entry point once on a small problem, results checked) under
 *   compute-sanitizer --tool racecheck --log-file FILE
 * and reads the summary from FILE, never from the runner's output: the
 * student's code runs there and could print a summary of its own (variant
 * lab3/racecheck_summary_forged). The race runner lies next to the grader's
 * executable, named grader_race_runner (harness.h, grader_implementation). */
#ifndef RACECHECK_H
#define RACECHECK_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The race runner's file name, run-time data of each implementation so that
 * the checks naming it compile once per lab. Defined only for a lab that
 * has a race runner: another lab's check that names it does not link. */
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
