/* The harness inside a test process: what a test calls (fail, note, metric,
 * skip, watchdog) and how one test runs under CMocka into its record. See
 * harness.h.
 *
 * Part of the runner library: the runner replays CPU checks in a fork of
 * itself (harness_replay_child), so nothing here may need the checks
 * library, CUDA or CUPTI. The test program's GPU set-up is
 * checks/test_program.c's, handed in as harness_run_test's `prepare`. */
#define _DEFAULT_SOURCE /* setitimer */
#include "call_log.h"
#include "harness_internal.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <unistd.h>

#include "rng.h"

enum { DEFAULT_SEED = 20261121 };

/* Shared with the runner: the memfd it handed over, mapped. */
result_record *harness_shared;
/* In a child: the test it runs, and harness_run_test's `finish`. */
static const grader_test *child_test;
static void (*child_finish)(void);

/* ------------------------------------------------ what the test prints */

/* A test's stdout and stderr point at its capture file only while its test
 * function runs; CMocka's framing around it ("[ RUN      ]", totals) goes
 * to /dev/null. So the capture holds the test's own output alone and the
 * runner keeps every byte, with no filter guessing which lines were
 * CMocka's. Switching descriptors, not stdio streams, also takes in
 * write(2). */
static int capture_copy = -1; /* the capture file, kept while stdout points elsewhere */
static int nowhere = -1;      /* /dev/null */

static void output_to(int fd)
{
    if (fd < 0)
        return;
    /* What the test buffered belongs where it was printed. */
    fflush(stdout);
    fflush(stderr);
    dup2(fd, STDOUT_FILENO);
    dup2(fd, STDERR_FILENO);
}

static void output_to_capture(void) { output_to(capture_copy); }

static void output_to_nowhere(void) { output_to(nowhere); }

/* Called once, before CMocka prints anything. RLIMIT_FSIZE stops a flood
 * (writes past it fail; it binds regular files, not /dev/null). The
 * capture's copy sits above stderr, close-on-exec: a program the test
 * starts gets its stdout and stderr and no other harness descriptor. */
static void prepare_output(int fd)
{
    fflush(NULL);
    capture_copy = fcntl(fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
    if (capture_copy >= 0 && fd > STDERR_FILENO)
        close(fd);
    if (capture_copy < 0)
        capture_copy = fd;
    nowhere = open("/dev/null", O_WRONLY | O_CLOEXEC);
    /* Without /dev/null (no sandbox of ours lacks it) CMocka's lines reach
     * the capture: they show in the report, and nothing of the test's is
     * lost. */
    if (nowhere < 0)
        nowhere = capture_copy;
    output_to_nowhere();
    setvbuf(stdout, NULL, _IOLBF, 0);
    signal(SIGXFSZ, SIG_IGN);
    struct rlimit cap = {HARNESS_CAPTURE_LIMIT, HARNESS_CAPTURE_LIMIT};
    setrlimit(RLIMIT_FSIZE, &cap);
}

/* ------------------------------------------------------- a test's calls */

static void append_text(char *dst, size_t size, const char *fmt, va_list args)
{
    size_t used = strlen(dst);
    if (used + 2 >= size)
        return;
    if (used) {
        dst[used++] = '\n';
        dst[used] = '\0';
    }
    vsnprintf(dst + used, size - used, fmt, args);
}

void grader_fail_at(const char *file, int line, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    append_text(harness_shared->message, sizeof harness_shared->message, fmt, args);
    va_end(args);
    /* The message is in the record; what CMocka prints from here on
     * (fail_msg's own line, its verdict) is its framing, not the test's. */
    output_to_nowhere();
    fail_msg("%s:%d: %s", file, line, harness_shared->message);
    abort(); /* fail_msg leaves the test (back into CMocka's run); this keeps noreturn honest */
}

void grader_note(const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    append_text(harness_shared->notes, sizeof harness_shared->notes, fmt, args);
    va_end(args);
    va_start(args, fmt);
    printf("  note: ");
    vprintf(fmt, args);
    printf("\n");
    va_end(args);
}

void grader_metric(const char *name, double value, const char *unit)
{
    printf("  metric: %-28s %14.6g %s\n", name, value, unit);
    if (harness_shared->metric_count >= RECORD_MAX_METRICS)
        return;
    record_metric *m = &harness_shared->metrics[harness_shared->metric_count++];
    snprintf(m->name, sizeof m->name, "%s", name);
    snprintf(m->unit, sizeof m->unit, "%s", unit);
    m->value = value;
}

void *grader_malloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    GRADER_CHECK(p != NULL, "out of host memory (%zu bytes)", bytes);
    return p;
}

uint64_t grader_seed(void) { return rng_seed_from_env(DEFAULT_SEED); }

/* A skip ends the test process here, with the exit status the runner reads
 * as SKIP (with the record's skipped). Not through CMocka, whose run counts
 * only failures, so a skip would look like a pass. */
void grader_skip_at(const char *file, int line, grader_skip_reason reason, const char *message)
{
    (void)file; /* where: the test's name is enough */
    (void)line;
    harness_shared->skipped = 1;
    harness_shared->skip_reason = reason;
    snprintf(harness_shared->message, sizeof harness_shared->message, "%s", message);
    output_to_nowhere();
    fflush(NULL);
    _exit(CHILD_SKIP);
}

/* ------------------------------------------------------------ watchdog */

/* Rates of a GPU far slower than any the course targets (a laptop GPU does
 * ten times better), so only a call that truly never ends reaches the limit. */
#define SLOW_GPU_BYTES_PER_S 10e9
#define SLOW_GPU_FLOPS_PER_S 100e9
#define CALL_LIMIT_FLOOR_S 3.0

double grader_call_limit_s(double bytes, double flops)
{
    return CALL_LIMIT_FLOOR_S + bytes / SLOW_GPU_BYTES_PER_S + flops / SLOW_GPU_FLOPS_PER_S;
}

/* Written when the watchdog is armed, so the signal handler only copies. */
static char hung_message[RECORD_TEXT_BYTES];

static void on_watchdog(int sig)
{
    (void)sig;
    memcpy(harness_shared->message, hung_message, sizeof hung_message);
    harness_shared->hung = 1;
    _exit(CHILD_HUNG); /* async-signal-safe; the driver ends the kernel with the process */
}

void grader_watch(const char *call, double limit_s)
{
    snprintf(hung_message, sizeof hung_message,
             "hung: %s did not finish within %.1f s (the limit for this much work) and the "
             "test was stopped. A kernel that never ends is the usual cause: a loop whose "
             "index never advances, or a __syncthreads() that not every thread of the block "
             "reaches.",
             call, limit_s);
    struct itimerval timer = {{0, 0}, {(time_t)limit_s, (suseconds_t)((limit_s - (time_t)limit_s) * 1e6)}};
    signal(SIGALRM, on_watchdog);
    setitimer(ITIMER_REAL, &timer, NULL);
}

void grader_unwatch(void)
{
    struct itimerval off = {{0, 0}, {0, 0}};
    setitimer(ITIMER_REAL, &off, NULL);
}

/* --------------------------------------------------------- the child */

/* CMocka turns SIGSEGV and friends into an ordinary failure; we want a crash
 * to be reported as a crash, so the child restores the default actions and
 * dies by the signal, which the parent sees. */
static void restore_crash_signals(void)
{
    const int signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGSYS, SIGABRT};
    for (size_t i = 0; i < sizeof signals / sizeof signals[0]; ++i)
        signal(signals[i], SIG_DFL);
}

/* What CMocka calls as the test: the test function, with its output (and
 * only its) going to the capture file. */
static void child_trampoline(void **state)
{
    restore_crash_signals();
    output_to_capture();
    child_test->run(state);
    if (child_finish)
        child_finish();
    output_to_nowhere();
    /* Only here do we know the test function returned: an exit() from
     * student code never gets this far. */
    harness_shared->returned = 1;
}

/* A failed check and a skip leave the test through the harness, which
 * turns the capture off on the way (grader_fail_at, grader_skip_at).
 * CMocka's own assertions (assert_int_equal in common_tests, grader/support/tests/) leave it
 * without passing there; CMocka calls this after every test, before it
 * prints the test's verdict, so its report of them stays out too. */
static int child_teardown(void **state)
{
    (void)state;
    output_to_nowhere();
    return 0;
}

int harness_run_test(const char *group, const grader_test *test, int capture,
                     void (*prepare)(const grader_test *test), void (*finish)(void))
{
    prepare_output(capture);
    child_test = test;
    child_finish = finish;
    if (prepare)
        prepare(test);
    const struct CMUnitTest one[] = {{test->name, child_trampoline, NULL, child_teardown, NULL}};
    int failed = cmocka_run_group_tests_name(group, one, NULL, NULL);
    fflush(NULL);
    /* Only a CMocka assertion fails without a message in the record (its
     * words are in CMocka's report, which goes nowhere): say so, rather than
     * leave the runner to guess that the process was ended. */
    if (failed && !harness_shared->message[0])
        snprintf(harness_shared->message, sizeof harness_shared->message,
                 "a CMocka assertion (assert_*) in the test failed; it records no message "
                 "(GRADER_CHECK does)");
    if (failed)
        return CHILD_FAIL;
    /* grader_skip_at never returns here; a record marked skipped anyway is
     * still not a pass. */
    if (harness_shared->skipped)
        return CHILD_SKIP;
    return harness_shared->returned ? CHILD_PASS : CHILD_FAIL;
}

int harness_replay_child(const grader_test *test, int capture_fd, int calls_fd)
{
    if (call_log_replay_from(calls_fd) != 0) {
        snprintf(harness_shared->message, sizeof harness_shared->message,
                 "grader: the record of helper calls cannot be read back");
        return CHILD_FAIL;
    }
    /* No prepare: a CPU check calls no CUDA, and this fork of the runner has
     * neither the CUDA error handler nor the launch watch to set. */
    int code = harness_run_test("replay", test, capture_fd, NULL, NULL);
    fflush(NULL);
    return code;
}
