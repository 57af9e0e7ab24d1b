/* Shared between the harness's parent (harness.c, test_process.c), child
 * (harness_child.c), reports (harness_report.c, junit_report.c) and the
 * test program's entry (checks/test_program.c); not for tests. */
#ifndef HARNESS_INTERNAL_H
#define HARNESS_INTERNAL_H

#include "calibration.h"
#include <stdio.h>
#include <sys/types.h>

#include "gpu_share.h"
#include "harness.h"
#include "result_record.h"

/* Exit codes between a test child and the parent (77: the automake/ctest
 * convention for "skipped"). */
enum { CHILD_PASS = 0, CHILD_FAIL = 1, CHILD_HUNG = 3, CHILD_SKIP = 77 };
/* The test program could not be started, or could not run the test it was
 * asked for (a runner and a test program of different builds): the record's
 * message says why. */
enum { CHILD_NO_EXEC = 127 };

/* What a test may print before its output is cut (a flood stops there). */
#define HARNESS_CAPTURE_LIMIT (4L << 20)
/* What the parent keeps of it: all of it up to this size, else the start
 * and the end (test_process.c, read_capture). */
enum { HARNESS_OUTPUT_KEEP = 6144 };

extern result_record *harness_shared;
/* The descriptor of --results-fd, or -1 (harness.c): the runner's alone (a
 * test process gets only the descriptors test_process.c hands it). */
extern int harness_results_fd;
/* The program the runner executes for each test (an absolute path). */
extern char harness_tests_program[4096];
/* The calibration grading this run (calibration.h), for the results file;
 * NULL until the runner has chosen it. */
extern const calibration *harness_calibration;
/* 1 when the suite's GPU tests are not graded in GRADER_SM_COUNT's green
 * context (grader_suite's orders_by_legacy_stream): the report says why. */
extern int harness_green_context_unordered;

/* CLOCK_MONOTONIC in seconds: the same clock in parent and child. */
double harness_now(void);
/* The runner's start, on that clock and as Unix time (grader_runner_main):
 * the results give each test's moments in seconds after it, and the Unix
 * time lines up the results of a student's graders run side by side. */
extern double harness_run_start, harness_run_started_at;

/* Runs `test` under CMocka into harness_shared, with its output going to
 * the capture file `capture`, and returns the exit code a test program
 * would (CHILD_*). `prepare`, when not NULL, is called just before the test
 * runs: the test program's setup that needs CUDA (checks/test_program.c);
 * `finish`, when not NULL, just after the test function returns, still
 * inside the test: what it checks may fail the test (the launch watch's
 * launches from a student's own threads). */
int harness_run_test(const char *group, const grader_test *test, int capture,
                     void (*prepare)(const grader_test *test), void (*finish)(void));
/* In a forked runner (no exec, so no student code): runs a CPU check again
 * on the helper results the test program recorded in calls_fd
 * (call_log.h); returns the exit code a test program would. */
int harness_replay_child(const grader_test *test, int capture_fd, int calls_fd);

typedef struct {
    const grader_test *test;
    outcome_status status;
    int credited;           /* points earned after gating */
    const char *gated_by;   /* set when a passing test earns nothing because its gate failed */
    double seconds;
    /* When its process was forked and reaped (harness_now); 0 when none
     * was (a test the runner skipped, or one that could not start). */
    double started, ended;
    result_record record;
    /* What the test printed (never CMocka's framing), its start and end when
     * long: room for the cut line and for every byte as three (a NUL is kept
     * as U+FFFD, test_process.c). */
    char output[3 * HARNESS_OUTPUT_KEEP + 128];
    int calls_fd;           /* a CPU check's recorded helper calls (call_log.h), or -1 */
    /* The runner itself could not run the test (its fork or its GPU lock
     * failed): its own uid's doing, never the test program's, which runs as
     * another uid in the batch; the batch runs such a lab again. */
    int runner_failed;
} test_outcome;

typedef struct {
    int earned, possible;             /* required tests */
    int bonus_earned, bonus_possible; /* extra credit */
    int not_graded;                   /* points of skipped tests */
    int not_gradable;                 /* points of ratios this GPU cannot grade (out of
                                       * the possible total: calibration.h) */
    int passes, failures, skips;
    int skipped_for_gpu;
} score_totals;

/* ---- test processes (test_process.c) ---- */

/* The most tests a grader runs side by side (--jobs). */
enum { HARNESS_MAX_JOBS = 8 };

/* A test (or, test == NULL, the device probe) in a process of its own. */
typedef struct {
    test_outcome *out;   /* where the outcome goes */
    result_record *rec;  /* shared with the process (a memfd, mapped by both) */
    int rec_fd;          /* that memfd */
    int calls_fd;        /* where a CPU check records its helper calls, or -1 */
    int replay_fd;       /* >= 0: the process replays those calls (no exec) */
    gpu_hold hold;
    FILE *capture;       /* what the process prints */
    pid_t pid;           /* 0: not running */
    double start;
    int limit_s;
} test_process;

enum { TEST_STARTED, TEST_NOT_NOW, TEST_ENDED };

/* Ctrl-C or SIGTERM on the grader kills the test processes too. */
void test_process_forward_interrupts(void);
/* Set by a lab's runner whose table links its CPU checks (call_log.h):
 * their verdicts are the runner's own replay of the recorded calls. */
extern int harness_replays_cpu_checks;
/* A passing CPU check with recorded calls: the runner runs it again on them,
 * and a failure there is the test's outcome. */
void test_process_check_by_replay(test_outcome *out, int limit_s);
/* Maps a new zeroed record to share with test processes; -1 on failure. */
int test_process_shared_record(result_record **rec);
/* Forks and executes the test program for the test, after taking the GPU lock for it (gpu_share.h; `alone`:
 * the GPU to itself from the start). TEST_NOT_NOW: wait == 0 and the GPU
 * cannot be had now, nothing started. TEST_ENDED: it could not start, and
 * its outcome says why. */
int test_process_start(test_process *tp, const grader_test *test, int limit_s, int alone,
                       int wait);
/* 1 once the test has ended (its outcome filled in), killing it past its
 * limit; 0 while it runs. */
int test_process_poll(test_process *tp);
/* Start (waiting for the GPU) and wait for the end. */
void test_process_run(test_process *tp, const grader_test *test, int limit_s, int alone);
/* A short sleep between polls. */
void test_process_nap(void);

void report_outcome_line(const test_outcome *out, int verbose);
void report_summary(const grader_suite *suite, const test_outcome *outs, size_t n,
                    const score_totals *totals, int cpu_only_run);
/* --rubric: the suite's test table as JSON, so tools that never ran a test
 * (a batch grader whose build failed) still know every test's points; and
 * the batch grader's partial credit for speed (each test's curve). */
void report_write_rubric(FILE *f, const grader_suite *suite);
int report_write_json(const char *path, const grader_suite *suite, const char *device,
                      const test_outcome *outs, size_t n, const score_totals *totals);
/* --junit: the same results as JUnit XML (junit_report.c), for CI servers
 * (GitLab, Jenkins) and instructors' scripts. */
int report_write_junit(const char *path, const grader_suite *suite, const char *device,
                       const test_outcome *outs, size_t n, const score_totals *totals);
/* Writes a report to `path` through a temporary file and a rename, so a
 * reader never sees half a file. 1 when written; 0 with a message. */
typedef void report_writer(FILE *f, const grader_suite *suite, const char *device,
                           const test_outcome *outs, size_t n, const score_totals *totals);
int report_write_file(const char *path, report_writer *write, const grader_suite *suite,
                      const char *device, const test_outcome *outs, size_t n,
                      const score_totals *totals);
int report_write_json_fd(int fd, const grader_suite *suite, const char *device,
                         const test_outcome *outs, size_t n, const score_totals *totals);

#endif
