/* The test program's side of the harness: the entry of a program that runs
 * one test when its runner asks (--run-test, --probe-device), and what a
 * test needs around it on a GPU. See harness.h.
 *
 * In the checks library, not the runner's harness_child.c, because all of
 * it touches CUDA, CUPTI or the driver, which the runner never links. It
 * calls the runner library, never the reverse. */
#include "call_log.h"
#include "harness_internal.h"
#include "launch_watch.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cuda_check.h"
#include "device_info.h"
#include "sm_limit.h"

void grader_require_gpu(void)
{
    int count = device_count();
    if (count > 0)
        return;
    if (count < 0)
        GRADER_FAIL("CUDA could not start on this machine's GPU (%s): the GPU is there but "
                    "unusable for this test (another process holding all of its memory, say)",
                    device_count_error());
    grader_skip_at(__FILE__, __LINE__, GRADER_SKIP_NO_GPU,
                   "skipped: no CUDA device on this machine (GPU checks need one)");
}

static void fail_on_cuda_error(const char *message) { GRADER_FAIL("%s", message); }

/* Set before CMocka runs the test (harness_run_test's prepare). */
static void prepare_gpu_side(const grader_test *test)
{
    cuda_set_error_handler(fail_on_cuda_error);
    /* Self-tests time the grader's own baselines in the student's place:
     * only graded tests judge whose kernels ran. */
    launch_watch_judge(test->group != GROUP_SELFTEST);
}

static int probe_device(void)
{
    device_describe(harness_shared->device, sizeof harness_shared->device);
    sm_limit_describe(harness_shared->device, sizeof harness_shared->device,
                      sm_limit_granted());
    harness_shared->returned = 1;
    return CHILD_PASS;
}

/* A descriptor number the runner passed, or -1. */
static int fd_argument(const char *text)
{
    char *end;
    long fd = strtol(text, &end, 10);
    return *end || fd < 0 || fd > 65535 || fcntl((int)fd, F_GETFD) == -1 ? -1 : (int)fd;
}

/* The test program's side, when the runner executes it:
 *   --run-test NAME --record-fd N --capture-fd M [--gpu-hold GATE,GPU]
 *   --probe-device --record-fd N [--gpu-hold GATE,GPU]
 * Runs that one test (or describes the device) into the record the runner
 * shares with it (a memfd), and ends the process. */
static int harness_child_main(const grader_suite *suite, int argc, char **argv)
{
    const char *test_name = NULL;
    int probe = 0, record_fd = -1, capture_fd = -1, calls_fd = -1;
    gpu_hold hold = GPU_HOLD_NONE;
    for (int i = 1; i < argc; ++i) {
        const char *value = i + 1 < argc ? argv[i + 1] : "";
        if (strcmp(argv[i], "--probe-device") == 0) {
            probe = 1;
            continue;
        }
        if (strcmp(argv[i], "--run-test") == 0)
            test_name = value;
        else if (strcmp(argv[i], "--record-fd") == 0)
            record_fd = fd_argument(value);
        else if (strcmp(argv[i], "--capture-fd") == 0)
            capture_fd = fd_argument(value);
        else if (strcmp(argv[i], "--calls-fd") == 0)
            calls_fd = fd_argument(value);
        else if (strcmp(argv[i], "--gpu-hold") != 0 ||
                 sscanf(value, "%d,%d", &hold.gate, &hold.gpu) != 2)
            break;
        ++i;
    }
    const grader_test *test = NULL;
    for (size_t i = 0; test_name && i < suite->count; ++i)
        if (strcmp(suite->tests[i].name, test_name) == 0 && suite->tests[i].run)
            test = &suite->tests[i];
    if (record_fd >= 0)
        harness_shared = mmap(NULL, sizeof *harness_shared, PROT_READ | PROT_WRITE, MAP_SHARED,
                              record_fd, 0);
    if (record_fd < 0 || harness_shared == MAP_FAILED) {
        fprintf(stderr, "%s: this is a grader's test program, which its runner (the grader) "
                        "starts once per test; run the grader instead\n", argv[0]);
        return 2;
    }
    if (!probe && (!test || capture_fd < 0)) {
        snprintf(harness_shared->message, sizeof harness_shared->message,
                 "it has no test %s (a grader and a test program of different builds?)",
                 test_name ? test_name : "(none named)");
        return CHILD_NO_EXEC;
    }
    close(record_fd);
    if (gpu_share_open() != 0 || (calls_fd >= 0 && call_log_record_to(calls_fd) != 0)) {
        snprintf(harness_shared->message, sizeof harness_shared->message,
                 "it could not open its GPU lock or its record of helper calls");
        return CHILD_NO_EXEC; /* the grader's trouble, never the student's early exit */
    }
    gpu_share_adopt(&hold);
    /* An instructor's GRADER_SM_COUNT (sm_limit.h): the GPU's tests run in a
     * green context of that many SMs, made current before CUDA is used; the
     * device probe too, so that its line states the SMs granted. */
    /* The launch watch starts before the grader touches CUDA, so that a
     * context made before main is seen for what it is (launch_watch.h). */
    if (!probe && test->group != GROUP_CPU)
        launch_watch_start();
    char limit_message[RECORD_TEXT_BYTES];
    int sms = !probe && test->group == GROUP_CPU
                  ? 0 : sm_limit_apply(limit_message, sizeof limit_message);
    if (sms < 0) {
        snprintf(harness_shared->message, sizeof harness_shared->message, "%s", limit_message);
        return CHILD_NO_EXEC;
    }
    if (sms > 0)
        grader_note("ran on %d SMs of the GPU (GRADER_SM_COUNT, a green context; the device "
                    "attribute still says all of them)", sms);
    /* _exit: the student's atexit handlers and destructors would run after
     * the outcome is set; the test is over when the test function returns. */
    int code = probe ? probe_device()
                     : harness_run_test(suite->lab, test, capture_fd, prepare_gpu_side,
                                        launch_watch_finish);
    fflush(NULL);
    _exit(code);
}

static int is_test_program_call(int argc, char **argv)
{
    return argc > 1 && (strcmp(argv[1], "--run-test") == 0 ||
                        strcmp(argv[1], "--probe-device") == 0);
}

/* A test program, or a suite that runs itself per test: the runner's
 * arguments (--run-test, --probe-device) run one test here; anything else
 * is a run of the whole suite, which only a self-contained suite may start. */
int grader_main_as(const grader_suite *suite, int argc, char **argv, harness_role role,
                   const char *tests_program)
{
    if (role != HARNESS_RUNNER && is_test_program_call(argc, argv))
        return harness_child_main(suite, argc, argv);
    if (role == HARNESS_TESTS) {
        fprintf(stderr, "%s: this is a grader's test program, which the grader starts once per "
                        "test; run the grader (%s without _tests) instead\n", argv[0], argv[0]);
        return 2;
    }
    return grader_runner_main(suite, argc, argv, role, tests_program);
}
