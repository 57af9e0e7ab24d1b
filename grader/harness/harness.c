/* The grader harness: one process per test, a time limit each, one results
 * file per run. See harness.h for why. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, strsignal */
#include "harness.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cuda_check.h"
#include "device_info.h"
#include "rng.h"
#include "result_record.h"

/* Exit codes between a test child and the parent (77: the automake/ctest
 * convention for "skipped"). */
enum { CHILD_PASS = 0, CHILD_FAIL = 1, CHILD_SKIP = 77 };

enum { DEFAULT_SEED = 20261121 };

static const int default_timeout_s[] = {[GROUP_CPU] = 60, [GROUP_GPU] = 180, [GROUP_SELFTEST] = 240};
static const char *const group_names[] = {[GROUP_CPU] = "cpu", [GROUP_GPU] = "gpu", [GROUP_SELFTEST] = "selftest"};

/* Shared with the running child (MAP_SHARED survives fork). */
static result_record *shared;
/* In a child: the test it runs. */
static const grader_test *child_test;

typedef struct {
    const grader_test *test;
    outcome_status status;
    double seconds;
    result_record record;
} test_outcome;

typedef struct {
    int groups[3];           /* which groups to run */
    const char *only;        /* a single test name */
    const char *results_path;
    int timeout_override_s;  /* 0: per-group defaults */
    int list;
} options;

/* ---------------------------------------------------------------- child */

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
    append_text(shared->message, sizeof shared->message, fmt, args);
    va_end(args);
    print_error("FAIL: %s\n", shared->message);
    _fail(file, line);
    abort(); /* _fail does not return inside a test; this keeps noreturn honest */
}

void grader_note(const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    append_text(shared->notes, sizeof shared->notes, fmt, args);
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
    if (shared->metric_count >= RECORD_MAX_METRICS)
        return;
    record_metric *m = &shared->metrics[shared->metric_count++];
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

void grader_skip_at(const char *file, int line, const char *reason)
{
    shared->skipped = 1;
    snprintf(shared->message, sizeof shared->message, "%s", reason);
    _skip(file, line);
    abort(); /* not reached: _skip leaves the test */
}

void grader_require_gpu(void)
{
    if (device_count() > 0)
        return;
    grader_skip_at(__FILE__, __LINE__,
                   "skipped: no CUDA device on this machine (GPU checks need one)");
}

static void fail_on_cuda_error(const char *message)
{
    GRADER_FAIL("%s", message);
}

/* CMocka turns SIGSEGV and friends into an ordinary failure; we want a crash
 * to be reported as a crash, so the child restores the default actions and
 * dies by the signal, which the parent sees. */
static void restore_crash_signals(void)
{
    const int signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGSYS, SIGABRT};
    for (size_t i = 0; i < sizeof signals / sizeof signals[0]; ++i)
        signal(signals[i], SIG_DFL);
}

static void child_trampoline(void **state)
{
    restore_crash_signals();
    child_test->run(state);
}

static int run_child(const grader_suite *suite, const grader_test *test)
{
    child_test = test;
    cuda_set_error_handler(fail_on_cuda_error);
    struct CMUnitTest one[1] = {{test->name, child_trampoline, NULL, NULL, NULL}};
    int failed = _cmocka_run_group_tests(suite->lab, one, 1, NULL, NULL);
    fflush(NULL);
    if (failed)
        return CHILD_FAIL;
    return shared->skipped ? CHILD_SKIP : CHILD_PASS;
}

/* --------------------------------------------------------------- parent */

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static volatile sig_atomic_t running_child;

/* Ctrl-C on the grader also stops the test in flight. */
static void forward_interrupt(int sig)
{
    if (running_child > 0)
        kill((pid_t)running_child, SIGKILL);
    signal(sig, SIG_DFL);
    raise(sig);
}

/* Waits for pid up to limit_s seconds; kills it after that. Returns the wait
 * status, or -1 when it had to be killed for taking too long. */
static int wait_with_limit(pid_t pid, int limit_s)
{
    double deadline = now_seconds() + limit_s;
    for (;;) {
        int status = 0;
        pid_t done = waitpid(pid, &status, WNOHANG);
        if (done == pid)
            return status;
        if (done < 0 && errno != EINTR)
            return 0;
        if (now_seconds() > deadline) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            return -1;
        }
        struct timespec nap = {0, 5 * 1000 * 1000};
        nanosleep(&nap, NULL);
    }
}

typedef int (*child_body)(const grader_suite *suite, const grader_test *test);

/* Forks, runs body in the child, and returns the wait status (-1: timeout). */
static int fork_and_wait(const grader_suite *suite, const grader_test *test, child_body body,
                         int limit_s)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        perror("grader: fork");
        return -2;
    }
    if (pid == 0) {
        /* Line-buffered, so our lines and CMocka's (stderr) keep their order
         * when the output goes to a pipe or a log. */
        setvbuf(stdout, NULL, _IOLBF, 0);
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        exit(body(suite, test));
    }
    running_child = pid;
    int status = wait_with_limit(pid, limit_s);
    running_child = 0;
    return status;
}

static int probe_device(const grader_suite *suite, const grader_test *test)
{
    (void)suite;
    (void)test;
    device_describe(shared->device, sizeof shared->device);
    return 0;
}

static void classify(int wait_status, int limit_s, test_outcome *out)
{
    result_record *rec = &out->record;
    char detail[RECORD_TEXT_BYTES / 2];
    /* Keep the start of what the child said; the rest is cut to fit. */
    size_t kept = strnlen(rec->message, sizeof detail - 1);
    memcpy(detail, rec->message, kept);
    detail[kept] = '\0';
    if (wait_status == -1) {
        out->status = OUTCOME_TIMEOUT;
        snprintf(rec->message, sizeof rec->message,
                 "timeout: still running after %d s and was killed (a kernel that never "
                 "finishes, e.g. a loop whose index never advances?)%s%s",
                 limit_s, detail[0] ? "; before that: " : "", detail);
        return;
    }
    if (wait_status == -2) {
        out->status = OUTCOME_CRASH;
        snprintf(rec->message, sizeof rec->message, "could not start the test process");
        return;
    }
    if (WIFSIGNALED(wait_status)) {
        int sig = WTERMSIG(wait_status);
        out->status = OUTCOME_CRASH;
        snprintf(rec->message, sizeof rec->message,
                 "crash: the test process died with signal %d (%s)%s%s", sig, strsignal(sig),
                 detail[0] ? "; before that: " : "", detail);
        return;
    }
    int code = WEXITSTATUS(wait_status);
    if (code == CHILD_PASS) {
        out->status = OUTCOME_PASS;
    } else if (code == CHILD_SKIP) {
        out->status = OUTCOME_SKIP;
    } else if (code == CHILD_FAIL) {
        out->status = OUTCOME_FAIL;
        if (!rec->message[0])
            snprintf(rec->message, sizeof rec->message,
                     "failed (see the CMocka output above for the assertion)");
    } else {
        out->status = OUTCOME_CRASH;
        snprintf(rec->message, sizeof rec->message,
                 "crash: the test process exited with code %d before finishing the test", code);
    }
}

static int test_selected(const options *opt, const grader_test *test)
{
    if (opt->only)
        return strcmp(opt->only, test->name) == 0;
    return opt->groups[test->group];
}

static int limit_for(const options *opt, const grader_test *test)
{
    if (opt->timeout_override_s > 0)
        return opt->timeout_override_s;
    return test->timeout_s > 0 ? test->timeout_s : default_timeout_s[test->group];
}

/* ------------------------------------------------------------ reporting */

static void print_outcome(const test_outcome *out)
{
    static const char *const labels[] = {"PASS", "FAIL", "SKIP", "CRASH", "TIMEOUT"};
    char points[32];
    if (out->status == OUTCOME_SKIP)
        snprintf(points, sizeof points, "-/%d", out->test->points);
    else
        snprintf(points, sizeof points, "%d/%d", out->status == OUTCOME_PASS ? out->test->points : 0,
                 out->test->points);
    printf("[%-7s] %-36s %6s pts  %5.1f s\n", labels[out->status], out->test->name, points,
           out->seconds);
    if (out->status != OUTCOME_PASS && out->record.message[0])
        printf("          %s\n", out->record.message);
}

static void write_json_test(FILE *f, const test_outcome *out)
{
    fprintf(f, "    {\"name\": ");
    json_write_string(f, out->test->name);
    fprintf(f, ", \"group\": \"%s\", \"status\": \"%s\", \"points\": %d, \"max_points\": %d, "
               "\"seconds\": %.3f,\n     \"message\": ",
            group_names[out->test->group], outcome_name(out->status),
            out->status == OUTCOME_PASS ? out->test->points : 0, out->test->points, out->seconds);
    json_write_string(f, out->record.message);
    fprintf(f, ",\n     \"notes\": ");
    json_write_string(f, out->record.notes);
    fprintf(f, ",\n     \"metrics\": {");
    for (int i = 0; i < out->record.metric_count; ++i) {
        const record_metric *m = &out->record.metrics[i];
        fprintf(f, "%s", i ? ", " : "");
        json_write_string(f, m->name);
        /* NaN/Inf are not JSON: write null. */
        if (m->value == m->value && m->value - m->value == 0.0)
            fprintf(f, ": {\"value\": %.9g, \"unit\": ", m->value);
        else
            fprintf(f, ": {\"value\": null, \"unit\": ");
        json_write_string(f, m->unit);
        fprintf(f, "}");
    }
    fprintf(f, "}}");
}

/* Written to a temporary file and renamed, so a reader never sees half a file. */
static int write_results(const char *path, const grader_suite *suite, const char *device,
                         const test_outcome *outs, size_t n, int earned, int possible, int skipped)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f) {
        fprintf(stderr, "grader: cannot write results to %s: %s\n", tmp, strerror(errno));
        return 0;
    }
    time_t now = time(NULL);
    char stamp[32];
    strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    fprintf(f, "{\n  \"schema\": \"cuda-labs-results/1\",\n  \"lab\": ");
    json_write_string(f, suite->lab);
    fprintf(f, ",\n  \"title\": ");
    json_write_string(f, suite->title);
    fprintf(f, ",\n  \"implementation\": ");
    json_write_string(f, suite->implementation);
    fprintf(f, ",\n  \"device\": ");
    json_write_string(f, device);
    fprintf(f, ",\n  \"seed\": %llu,\n  \"finished\": \"%s\",\n",
            (unsigned long long)grader_seed(), stamp);
    fprintf(f, "  \"score\": {\"earned\": %d, \"possible\": %d, \"skipped\": %d},\n  \"tests\": [\n",
            earned, possible, skipped);
    for (size_t i = 0; i < n; ++i) {
        write_json_test(f, &outs[i]);
        fprintf(f, "%s\n", i + 1 < n ? "," : "");
    }
    fprintf(f, "  ]\n}\n");
    int ok = fflush(f) == 0;
    ok = (fclose(f) == 0) && ok;
    if (!ok || rename(tmp, path) != 0) {
        fprintf(stderr, "grader: cannot write results to %s: %s\n", path, strerror(errno));
        remove(tmp);
        return 0;
    }
    return 1;
}

/* ------------------------------------------------------------- options */

static void usage(const char *program)
{
    fprintf(stderr,
            "usage: %s [--group cpu|gpu|selftest]... [--only TEST] [--results FILE]\n"
            "          [--timeout SECONDS] [--list]\n"
            "  default groups: cpu and gpu. LAB_SEED=N changes the random inputs.\n",
            program);
}

static int parse_options(int argc, char **argv, options *opt)
{
    memset(opt, 0, sizeof *opt);
    int any_group = 0;
    for (int i = 1; i < argc; ++i) {
        const char *arg = argv[i];
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(arg, "--list") == 0) {
            opt->list = 1;
        } else if (strcmp(arg, "--group") == 0 && value) {
            int found = 0;
            for (int g = 0; g < 3; ++g)
                if (strcmp(value, group_names[g]) == 0)
                    opt->groups[g] = found = 1;
            if (!found) {
                fprintf(stderr, "grader: unknown group '%s'\n", value);
                return 0;
            }
            any_group = 1;
            ++i;
        } else if (strcmp(arg, "--only") == 0 && value) {
            opt->only = value;
            ++i;
        } else if (strcmp(arg, "--results") == 0 && value) {
            opt->results_path = value;
            ++i;
        } else if (strcmp(arg, "--timeout") == 0 && value) {
            opt->timeout_override_s = atoi(value);
            if (opt->timeout_override_s <= 0) {
                fprintf(stderr, "grader: --timeout needs a positive number of seconds\n");
                return 0;
            }
            ++i;
        } else {
            fprintf(stderr, "grader: unknown or incomplete option '%s'\n", arg);
            return 0;
        }
    }
    if (!any_group)
        opt->groups[GROUP_CPU] = opt->groups[GROUP_GPU] = 1;
    return 1;
}

/* ----------------------------------------------------------------- main */

int grader_main(const grader_suite *suite, int argc, char **argv)
{
    options opt;
    if (!parse_options(argc, argv, &opt)) {
        usage(argv[0]);
        return 2;
    }
    if (opt.list) {
        for (size_t i = 0; i < suite->count; ++i)
            printf("%s %s\n", group_names[suite->tests[i].group], suite->tests[i].name);
        return 0;
    }
    size_t selected = 0;
    int needs_gpu = 0;
    for (size_t i = 0; i < suite->count; ++i)
        if (test_selected(&opt, &suite->tests[i])) {
            ++selected;
            needs_gpu |= suite->tests[i].group != GROUP_CPU;
        }
    if (selected == 0) {
        fprintf(stderr, "grader: no test matches (try --list)\n");
        return 2;
    }

    shared = mmap(NULL, sizeof *shared, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    test_outcome *outs = calloc(selected, sizeof *outs);
    if (shared == MAP_FAILED || !outs) {
        fprintf(stderr, "grader: out of memory\n");
        return 2;
    }
    signal(SIGINT, forward_interrupt);
    signal(SIGTERM, forward_interrupt);

    /* The parent must not initialise CUDA (a forked child could not use it),
     * so even the device description comes from a child. */
    char device[RECORD_DEVICE_BYTES] = "not probed (CPU checks only)";
    if (needs_gpu) {
        memset(shared, 0, sizeof *shared);
        int status = fork_and_wait(suite, NULL, probe_device, 60);
        snprintf(device, sizeof device, "%s",
                 status == 0 && shared->device[0] ? shared->device : "device probe failed");
    }
    printf("%s (%s) - implementation: %s/\ndevice: %s\nseed: %llu (set LAB_SEED to change)\n\n",
           suite->title, suite->lab, suite->implementation, device,
           (unsigned long long)grader_seed());

    size_t n = 0, skipped_for_gpu = 0;
    int earned = 0, possible = 0, skipped_points = 0, failures = 0, passes = 0;
    for (size_t i = 0; i < suite->count; ++i) {
        const grader_test *test = &suite->tests[i];
        if (!test_selected(&opt, test))
            continue;
        test_outcome *out = &outs[n++];
        out->test = test;
        memset(shared, 0, sizeof *shared);
        int limit = limit_for(&opt, test);
        double start = now_seconds();
        int status = fork_and_wait(suite, test, run_child, limit);
        out->seconds = now_seconds() - start;
        out->record = *shared;
        classify(status, limit, out);
        print_outcome(out);
        possible += test->points;
        if (out->status == OUTCOME_PASS) {
            earned += test->points;
            ++passes;
        } else if (out->status == OUTCOME_SKIP) {
            skipped_points += test->points;
            skipped_for_gpu += strstr(out->record.message, "no CUDA device") != NULL;
        } else {
            ++failures;
        }
    }

    size_t skips = n - (size_t)passes - (size_t)failures;
    printf("\n%s: %d passed, %d failed, %zu skipped; score %d/%d points", suite->lab, passes,
           failures, skips, earned, possible);
    if (skipped_points)
        printf(" (%d points not graded)", skipped_points);
    printf("\n");
    if (skipped_for_gpu)
        printf("%zu GPU checks were SKIPPED for lack of a CUDA device: they are not passed; "
               "run this on a machine with a CUDA GPU to grade them.\n", skipped_for_gpu);
    if (failures)
        printf("Read the messages above: each names the TODO and the section of %s that "
               "explains it.\n", suite->handout);
    if (opt.results_path && write_results(opt.results_path, suite, device, outs, n, earned,
                                          possible, skipped_points))
        printf("results: %s\n", opt.results_path);

    free(outs);
    munmap(shared, sizeof *shared);
    if (failures)
        return 1;
    return passes == 0 ? CHILD_SKIP : 0;
}
