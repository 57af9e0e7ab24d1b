/* The grader harness: runs each test of a suite in its own process.
 *
 * Why a process per test: a CUDA fault is sticky for the whole process, and a
 * student kernel can hang. The runner never touches CUDA; it runs each test
 * (an ordinary CMocka test) in a process with a time limit, captures its
 * output, and turns whatever happens (pass, failure, skip, crash, hang, an
 * early exit) into one result line and one record in the results file.
 *
 * A lab's grader is two programs (docs/design.md, "The runner and the test
 * program"): the runner, labN_check, built from the test table alone, holds
 * no student code and executes the test program, labN_check_tests (the
 * checks linked with the student's library), once per test. So no student
 * code (a static constructor included) runs where outcomes, points and time
 * limits are decided. Suites without student code run themselves per test.
 *
 * A test passes only when its test function returned: any other exit
 * (exit(0) from student code included) is a failure. */
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

/* A speed test's partial credit in the batch grader (grader/batch/score.py),
 * exported by --rubric: a failed run earns points x (ratio - floor) /
 * (threshold - floor), clamped to [0, 1], ratio being the metric `metric`.
 * The grader's own score stays all or nothing; the curve is for a
 * gradebook, where a kernel just under the threshold should not score as
 * the mistake does. Values and their reasons: labN_rubric.h. */
typedef struct {
    const char *metric; /* the ratio the test reports; NULL: no partial credit */
    double floor;       /* the ratio that earns nothing (the mistake the test is about) */
    double reference;   /* the reference solution's median ratio, for the batch's review
                         * flag "far beyond the reference"; 0: not measured */
} grader_speed_curve;

typedef struct {
    const char *name;       /* stable id: results file, ctest, the rubric; = the function's name */
    grader_group group;
    void (*run)(void **state);
    int points;
    int bonus;              /* extra credit: reported apart, not in the possible total */
    const char *gate;       /* a test (earlier in the table) that checks the lab's mechanism:
                             * when it fails, this test's points are not credited */
    int timeout_s;          /* 0: the default for its group */
    grader_speed_curve curve; /* speed tests: partial credit in the batch */
    int device_gib;         /* 0: any GPU; else the device memory (GiB, the GPU's total) the
                             * test needs: on a GPU with less the runner records it not
                             * gradable (harness.c, skip_not_graded) */
    const char *todos;      /* the TODOs the test exercises, "" for none: "7.1-7.3, 7.5"
                             * (numbers, ranges within one lab, commas). A run without a GPU
                             * lists those of its skipped tests that nothing else exercised
                             * (harness_report.c) */
} grader_test;

/* Table rows, so that each test's name is written once (it is the function's).
 * Every row may end with the TODOs it exercises (grader_test.todos):
 *   GRADER_TEST(gpu_block_tile_1d_correct, GROUP_GPU, 3, "7.1-7.3"),
 *   GRADER_TEST(cpu_blocks_for_is_ceil_div, GROUP_CPU, 5),
 *   GRADER_GATED(gpu_tiled_tile_edges, GROUP_GPU, 12, cpu_tiled_uses_shared_tiles),
 *   GRADER_BONUS(gpu_thread_tile_correct, GROUP_GPU, 6),
 *   GRADER_BONUS_GATED(gpu_thread_tile_correct, GROUP_GPU, 6, cpu_thread_tile_uses_shared_tiles) */
#define GRADER_TEST(fn, group, points, ...) \
    {#fn, group, GRADER_FN(fn, group), points, 0, NULL, 0, GRADER_NO_CURVE, 0, \
     GRADER_TODOS(__VA_ARGS__)}
#define GRADER_GATED(fn, group, points, gate_fn, ...) \
    {#fn, group, GRADER_FN(fn, group), points, 0, #gate_fn, 0, GRADER_NO_CURVE, 0, \
     GRADER_TODOS(__VA_ARGS__)}
#define GRADER_BONUS(fn, group, points, ...) \
    {#fn, group, GRADER_FN(fn, group), points, 1, NULL, 0, GRADER_NO_CURVE, 0, \
     GRADER_TODOS(__VA_ARGS__)}
#define GRADER_BONUS_GATED(fn, group, points, gate_fn, ...) \
    {#fn, group, GRADER_FN(fn, group), points, 1, #gate_fn, 0, GRADER_NO_CURVE, 0, \
     GRADER_TODOS(__VA_ARGS__)}
/* Any required row: gate a test's name or NULL, limit_s 0 for the default. */
#define GRADER_ROW(fn, group, points, gate, limit_s, ...) \
    {#fn, group, GRADER_FN(fn, group), points, 0, gate, limit_s, GRADER_NO_CURVE, 0, \
     GRADER_TODOS(__VA_ARGS__)}
/* The same for a bonus row. */
#define GRADER_BONUS_ROW(fn, group, points, gate, limit_s, ...) \
    {#fn, group, GRADER_FN(fn, group), points, 1, gate, limit_s, GRADER_NO_CURVE, 0, \
     GRADER_TODOS(__VA_ARGS__)}
/* A test that needs `gib` GiB of device memory (the GPU's total): on a
 * smaller GPU it is not gradable, out of the total rather than lost.
 *   GRADER_NEEDS_MEMORY(gpu_scale_grid_stride_near_int_max, GROUP_GPU, 2,
 *                       gpu_grid_stride_bandwidth, 18) */
#define GRADER_NEEDS_MEMORY(fn, group, points, gate_fn, gib, ...) \
    {#fn, group, GRADER_FN(fn, group), points, 0, #gate_fn, 0, GRADER_NO_CURVE, gib, \
     GRADER_TODOS(__VA_ARGS__)}
/* The same for a bonus row, without a gate: on a smaller GPU it leaves the
 * bonus total.
 *   GRADER_BONUS_NEEDS_MEMORY(gpu_grid_stride_near_int_max, GROUP_GPU, 1, 10) */
#define GRADER_BONUS_NEEDS_MEMORY(fn, group, points, gib, ...) \
    {#fn, group, GRADER_FN(fn, group), points, 1, NULL, 0, GRADER_NO_CURVE, gib, \
     GRADER_TODOS(__VA_ARGS__)}
/* A speed test with its partial-credit curve (grader_speed_curve):
 *   GRADER_SPEED(gpu_image_bandwidth, GROUP_GPU, 6, "fraction_of_copy_bandwidth",
 *                LAB1_IMAGE_COPY_FRACTION_FLOOR, LAB1_IMAGE_COPY_FRACTION_REFERENCE) */
#define GRADER_SPEED(fn, group, points, metric, floor_ratio, reference_ratio, ...) \
    {#fn, group, GRADER_FN(fn, group), points, 0, NULL, 0,                   \
     {metric, floor_ratio, reference_ratio}, 0, GRADER_TODOS(__VA_ARGS__)}
#define GRADER_BONUS_SPEED(fn, group, points, metric, floor_ratio, reference_ratio, ...) \
    {#fn, group, GRADER_FN(fn, group), points, 1, NULL, 0,                         \
     {metric, floor_ratio, reference_ratio}, 0, GRADER_TODOS(__VA_ARGS__)}
/* A row's TODOs: "" when it names none (an empty __VA_ARGS__, which GNU C
 * and C23 allow), else the string it names. */
#define GRADER_TODOS(...) ("" __VA_ARGS__)
/* Spelled out in every row: -Wextra warns about a field left out. */
#define GRADER_NO_CURVE {NULL, 0.0, 0.0}

/* The runner is built from the same table without the test functions: it
 * must not link the checks, which call the student's code. A lab that lists
 * its helpers (call_log.h) links its CPU checks into the runner too, against
 * stand-ins that replay the test program's record: the runner runs those
 * checks again itself (GRADER_RUNNER_HAS_CPU_CHECKS). */
#if defined(GRADER_RUNNER) && defined(GRADER_RUNNER_HAS_CPU_CHECKS)
#define GRADER_FN(fn, group) ((group) == GROUP_CPU ? fn : NULL)
#elif defined(GRADER_RUNNER)
#define GRADER_FN(fn, group) NULL
#else
#define GRADER_FN(fn, group) fn
#endif

/* Which implementation of the lab's contract a grader grades ("labs",
 * "solutions", "variants/<name>") and its test program's file name: run-time
 * data from a small file generated per implementation
 * (add_lab_implementation, grader/cmake/LabTargets.cmake), so a lab's
 * grader sources compile once, not per implementation (a hundred known-wrong
 * variants). A self-contained suite names itself with GRADER_IMPLEMENTATION. */
extern const char grader_implementation[];
extern const char grader_tests_program[];
#ifndef GRADER_IMPLEMENTATION
#define GRADER_IMPLEMENTATION grader_implementation
#endif

typedef struct {
    const char *lab;        /* "lab1" */
    const char *title;      /* "Lab 1 - thread indexing" */
    const char *handout;    /* "handouts/lab1-indexing.md" */
    const char *implementation; /* "labs", "solutions", ...: GRADER_IMPLEMENTATION */
    const grader_test *tests;
    size_t count;
    /* 1: the tests overlap work on several streams (lab 6), so their
     * processes keep CUDA's default number of hardware queues; 0: one
     * queue, which makes each test's CUDA context cheaper (harness.c). */
    int concurrent_streams;
    /* 1: the lab's contract relies on the legacy default stream waiting for
     * every blocking stream (lab 6's pipelines record their events into
     * stream 0 and return without synchronising). Under GRADER_SM_COUNT
     * (sm_limit.h) cudaStreamCreate makes non-blocking streams, which that
     * stream does not wait for, so the runner grades none of the suite's
     * GPU tests there (harness.c, skip_not_graded). */
    int orders_by_legacy_stream;
} grader_suite;

/* Parses the command line (--help lists it), runs the selected tests and
 * returns the process exit code: 0 all passed (skips allowed), 1 a test
 * failed, crashed or timed out, 2 usage error, 77 every test was skipped. */
typedef enum {
    HARNESS_SELF_CONTAINED, /* runs its own tests: it executes itself once per test */
    HARNESS_RUNNER,         /* a lab's runner: executes the test program tests_program */
    HARNESS_TESTS           /* a lab's test program: runs one test when a runner asks */
} harness_role;
/* The harness is two libraries (docs/design.md, "The harness's two
 * libraries"): the runner's (runner/: processes, locks, records, reports)
 * and the checks' (checks/: beside the student's code, on the GPU), which
 * uses the runner's and never the reverse. grader_runner_main (runner
 * library) runs a suite as its runner; grader_main_as (checks library) also
 * runs the one test a runner asks for (--run-test). So a lab's runner,
 * calling grader_runner_main alone, links no test-program code. */
int grader_runner_main(const grader_suite *suite, int argc, char **argv, harness_role role,
                       const char *tests_program);
int grader_main_as(const grader_suite *suite, int argc, char **argv, harness_role role,
                   const char *tests_program);
/* The build says which program this is: GRADER_RUNNER (which finds its test
 * program next to itself under the name grader_tests_program), GRADER_TESTS,
 * or neither. */
#if defined(GRADER_RUNNER)
#define grader_main(suite, argc, argv) \
    grader_runner_main(suite, argc, argv, HARNESS_RUNNER, grader_tests_program)
#elif defined(GRADER_TESTS)
#define grader_main(suite, argc, argv) grader_main_as(suite, argc, argv, HARNESS_TESTS, NULL)
#else
#define grader_main(suite, argc, argv) \
    grader_main_as(suite, argc, argv, HARNESS_SELF_CONTAINED, NULL)
#endif

/* ---- inside a test ---- */

/* Skips the test (reported as SKIP, never as pass) when there is no GPU.
 * The checks library's (it asks the CUDA runtime): the CPU checks a runner
 * replays never call it. Every other call below is the runner library's. */
void grader_require_gpu(void);

/* Why a test was skipped, for programs: the results file's "skip_reason"
 * ("by_test", "no_gpu", "no_tool", "not_gradable"), so that no reader has to match the
 * message, which is written for people and may change. */
typedef enum {
    GRADER_SKIP_BY_TEST = 1, /* the test chose to (skip()) */
    GRADER_SKIP_NO_GPU,      /* no CUDA device where the test needs one */
    GRADER_SKIP_NO_TOOL,     /* a tool the check runs is missing (compute-sanitizer) */
    GRADER_SKIP_NOT_GRADABLE /* its ratio cannot be graded on this GPU (calibration.h), the
                              * GPU has less memory than it needs (device_gib), or
                              * its lab in a green context (grader_suite):
                              * set by the runner only, never taken from a test process */
} grader_skip_reason;

/* Skips the test: records why (the code, and `message` for people) and ends
 * the test process (what the test printed so far is kept). Does not return. */
void grader_skip_at(const char *file, int line, grader_skip_reason reason, const char *message)
#if defined(__GNUC__)
    __attribute__((noreturn))
#endif
    ;

/* CMocka's own skip() would look like a pass to the runner (its run counts
 * only failures), so skip() goes through the harness, which records it and
 * exits with the status the runner reads as SKIP. */
#undef skip
#define skip() grader_skip_at(__FILE__, __LINE__, GRADER_SKIP_BY_TEST, "skipped by the test")

/* Base seed (LAB_SEED or the default); printed in the report. */
uint64_t grader_seed(void);

/* Attaches a number to the test's result record (printed with --verbose). */
void grader_metric(const char *name, double value, const char *unit);

/* Records the failure message for the report and the results file, and
 * fails the test through CMocka. Does not return. */
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

/* An informational line (not a failure), kept in the record. */
void grader_note(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* Before a test measures time: waits until it has the GPU to itself. Only
 * the batch grader shares a GPU between graders (gpu_share.h); elsewhere
 * this returns at once. A test that reports a time ("ms" metric) without
 * calling it is run again alone. */
void grader_gpu_exclusive(void);
/* After measuring: gives the GPU back to the other graders' tests (the
 * rest of the test runs beside them). */
void grader_gpu_share_again(void);

/* ---- time limits for one call into student code ----
 *
 * A kernel that never finishes blocks the next synchronising call forever.
 * Around every call that may wait on student work the graders arm a
 * watchdog that ends the test at once as TIMEOUT ("hung: <call> did not
 * finish within N s"): a hang costs seconds and names the call. */

/* The limit for work of this size: a floor of a few seconds plus the time
 * the work would take on a GPU far slower than any the course targets. */
double grader_call_limit_s(double bytes, double flops);

/* Arms the watchdog for `call` (copied); grader_unwatch disarms it. */
void grader_watch(const char *call, double limit_s);
void grader_unwatch(void);

#ifdef __cplusplus
}
#endif

#endif
