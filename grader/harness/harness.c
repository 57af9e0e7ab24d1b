/* The grader harness, parent side: options, one process per test with a
 * time limit, classification of how each ended, scoring. See harness.h. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include "harness_internal.h"
#include "gpu_share.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Backstops: GPU calls have their own, much shorter, watchdogs. */
static const int default_timeout_s[] = {[GROUP_CPU] = 60, [GROUP_GPU] = 120, [GROUP_SELFTEST] = 240};
static const char *const group_names[] = {[GROUP_CPU] = "cpu", [GROUP_GPU] = "gpu", [GROUP_SELFTEST] = "selftest"};

/* fork_and_wait's results besides a wait status. */
enum { WAIT_TIMED_OUT = -1, WAIT_NO_FORK = -2, WAIT_LOST = -3 };

typedef struct {
    int groups[3];           /* which groups to run */
    const char *only;        /* a single test name */
    const char *results_path;
    int timeout_override_s;  /* 0: per-group defaults */
    int list;
    int rubric;    /* --rubric: the test table as JSON (the batch grader reads it) */
    int verbose;
    int scored_only; /* --scored-only: skip tests worth no points */
} options;

double harness_now(void)
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

/* Waits for pid up to limit_s seconds (not counting its wait for the GPU,
 * gpu_share.h); kills it after that. Returns the wait status,
 * WAIT_TIMED_OUT, or WAIT_LOST when waitpid itself failed (then we know
 * nothing about the test, so it must not count as passed). */
static int wait_with_limit(pid_t pid, int limit_s)
{
    double start = harness_now();
    for (;;) {
        int status = 0;
        pid_t done = waitpid(pid, &status, WNOHANG);
        if (done == pid)
            return status;
        if (done < 0 && errno != EINTR) {
            kill(pid, SIGKILL);
            return WAIT_LOST;
        }
        double now = harness_now();
        if (now - start - gpu_share_waited(harness_shared, now) > limit_s) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            return WAIT_TIMED_OUT;
        }
        struct timespec nap = {0, 5 * 1000 * 1000};
        nanosleep(&nap, NULL);
    }
}

/* Forks; the child runs the test (test == NULL: the device probe) with its
 * output captured in capture_fd. Returns the wait status or a WAIT_ code. */
static int fork_and_wait(const grader_suite *suite, const grader_test *test, int capture_fd,
                         int limit_s)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        perror("grader: fork");
        return WAIT_NO_FORK;
    }
    if (pid == 0) {
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        /* _exit: the parent's stdio buffers and atexit handlers are not ours. */
        _exit(test ? harness_run_child(suite, test, capture_fd) : harness_probe_device());
    }
    running_child = pid;
    int status = wait_with_limit(pid, limit_s);
    running_child = 0;
    return status;
}

/* Reads what the child printed, keeping the start and the end, and drops
 * CMocka's framing lines ([ RUN ], [  PASSED  ], ...), which say nothing the
 * result line does not. */
static void read_capture(FILE *capture, char *out, size_t size)
{
    out[0] = '\0';
    if (fseek(capture, 0, SEEK_END) != 0)
        return;
    long total = ftell(capture);
    long head = total <= HARNESS_OUTPUT_KEEP ? total : HARNESS_OUTPUT_KEEP / 2;
    size_t used = 0;
    char line[1024];
    for (int part = 0; part < 2; ++part) {
        long from = part == 0 ? 0 : total - HARNESS_OUTPUT_KEEP / 2;
        long to = part == 0 ? head : total;
        if (part == 1) {
            if (total <= HARNESS_OUTPUT_KEEP)
                break;
            used += (size_t)snprintf(out + used, size - used, "[... %ld bytes of output cut ...]\n",
                                     total - HARNESS_OUTPUT_KEEP);
        }
        fseek(capture, from, SEEK_SET);
        while (ftell(capture) < to && fgets(line, sizeof line, capture)) {
            if (line[0] == '[' || line[strspn(line, " \t\r\n")] == '\0' ||
                strstr(line, "FAILED TEST") || strstr(line, "PASSED TEST"))
                continue;
            size_t len = strlen(line);
            if (used + len + 1 >= size)
                return;
            memcpy(out + used, line, len + 1);
            used += len;
        }
    }
}

static void classify(int wait_status, int limit_s, test_outcome *out)
{
    result_record *rec = &out->record;
    char detail[RECORD_TEXT_BYTES / 2];
    /* Keep the start of what the child said; the rest is cut to fit. */
    size_t kept = strnlen(rec->message, sizeof detail - 1);
    memcpy(detail, rec->message, kept);
    detail[kept] = '\0';
    const char *before = detail[0] ? "; before that: " : "";
    out->status = OUTCOME_CRASH;
    if (wait_status == WAIT_TIMED_OUT) {
        out->status = OUTCOME_TIMEOUT;
        snprintf(rec->message, sizeof rec->message,
                 "timeout: still running after %d s and was killed (a kernel or a loop that "
                 "never finishes?)%s%s", limit_s, before, detail);
    } else if (wait_status == WAIT_NO_FORK) {
        snprintf(rec->message, sizeof rec->message, "could not start the test process");
    } else if (wait_status == WAIT_LOST) {
        snprintf(rec->message, sizeof rec->message,
                 "the grader lost track of the test process (waitpid failed): not graded as "
                 "passed");
    } else if (WIFSIGNALED(wait_status)) {
        int sig = WTERMSIG(wait_status);
        snprintf(rec->message, sizeof rec->message,
                 "crash: the test process died with signal %d (%s)%s%s%s", sig, strsignal(sig),
                 sig == SIGABRT ? " (did your code call abort()?)" : "", before, detail);
    } else {
        int code = WEXITSTATUS(wait_status);
        if (code == CHILD_PASS && rec->returned && !rec->skipped) {
            out->status = OUTCOME_PASS;
        } else if (code == CHILD_SKIP && rec->skipped) {
            out->status = OUTCOME_SKIP;
        } else if (code == CHILD_HUNG && rec->hung) {
            out->status = OUTCOME_TIMEOUT; /* the message is the watchdog's */
        } else if (code == CHILD_FAIL && rec->message[0]) {
            out->status = OUTCOME_FAIL;
        } else {
            /* Exit status 0 without the test function returning (or any
             * other code): something called exit() in the middle. */
            out->status = OUTCOME_FAIL;
            snprintf(rec->message, sizeof rec->message,
                     "your code ended the process (exit/abort, exit status %d) before the test "
                     "finished: an entry point must return a status, never exit%s%s",
                     code, before, detail);
        }
    }
}

static int test_selected(const options *opt, const grader_test *test)
{
    if (opt->only)
        return strcmp(opt->only, test->name) == 0;
    return opt->groups[test->group] && (test->points > 0 || !opt->scored_only);
}

static int limit_for(const options *opt, const grader_test *test)
{
    if (opt->timeout_override_s > 0)
        return opt->timeout_override_s;
    return test->timeout_s > 0 ? test->timeout_s : default_timeout_s[test->group];
}

/* ------------------------------------------------------------- options */

static void usage(FILE *to, const char *program)
{
    fprintf(to,
            "usage: %s [--group cpu|gpu|selftest]... [--only TEST] [--scored-only]\n"
            "          [--results FILE] [--timeout SECONDS] [--verbose] [--list] [--rubric] [--help]\n"
            "  --group G      run the tests of group G (default: cpu and gpu)\n"
            "  --only TEST    run one test (names: --list)\n"
            "  --scored-only  skip the tests worth no points (measurement tables)\n"
            "  --results FILE write the results as JSON to FILE\n"
            "  --timeout S    one time limit in seconds for every test\n"
            "  --verbose      show every test's output and measurements, not only failures'\n"
            "  --list         list the tests (group and name), run nothing\n"
            "  --rubric       print the test table (group, points, bonus, gate) as JSON, run nothing\n"
            "  LAB_SEED=N in the environment changes the random inputs.\n",
            program);
}

/* Returns 1 to run, 0 for a usage error, -1 for --help. */
static int parse_options(int argc, char **argv, options *opt)
{
    memset(opt, 0, sizeof *opt);
    int any_group = 0;
    for (int i = 1; i < argc; ++i) {
        const char *arg = argv[i];
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            return -1;
        } else if (strcmp(arg, "--list") == 0) {
            opt->list = 1;
        } else if (strcmp(arg, "--rubric") == 0) {
            opt->rubric = 1;
        } else if (strcmp(arg, "--scored-only") == 0) {
            opt->scored_only = 1;
        } else if (strcmp(arg, "--verbose") == 0 || strcmp(arg, "-v") == 0) {
            opt->verbose = 1;
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

/* A gate must name a test earlier in the table: it runs first. */
static int gates_are_valid(const grader_suite *suite)
{
    for (size_t i = 0; i < suite->count; ++i) {
        const char *gate = suite->tests[i].gate;
        if (!gate)
            continue;
        size_t j = 0;
        while (j < i && strcmp(suite->tests[j].name, gate) != 0)
            ++j;
        if (j == i) {
            fprintf(stderr, "grader: %s is gated by '%s', which is not an earlier test\n",
                    suite->tests[i].name, gate);
            return 0;
        }
    }
    return 1;
}

/* The points a test earns: nothing unless it passed, and nothing when its
 * gate (the check that the lab's mechanism is there) ran and failed. */
static void credit(test_outcome *out, const test_outcome *done, size_t n_done)
{
    out->credited = out->status == OUTCOME_PASS ? out->test->points : 0;
    if (!out->credited || !out->test->gate)
        return;
    for (size_t i = 0; i < n_done; ++i)
        if (strcmp(done[i].test->name, out->test->gate) == 0 &&
            done[i].status != OUTCOME_PASS && done[i].status != OUTCOME_SKIP) {
            out->credited = 0;
            out->gated_by = done[i].test->name;
        }
}

static void add_to_totals(const test_outcome *out, score_totals *t)
{
    int *possible = out->test->bonus ? &t->bonus_possible : &t->possible;
    int *earned = out->test->bonus ? &t->bonus_earned : &t->earned;
    *possible += out->test->points;
    *earned += out->credited;
    if (out->status == OUTCOME_PASS) {
        ++t->passes;
    } else if (out->status == OUTCOME_SKIP) {
        ++t->skips;
        t->not_graded += out->test->points;
        t->skipped_for_gpu += strstr(out->record.message, "no CUDA device") != NULL;
    } else {
        ++t->failures;
    }
}

/* ------------------------------------------------------- running a test */

/* One test in its own process; `alone`: with the GPU to itself from the
 * start (gpu_share.h; no effect outside the batch grader). */
static void run_one_test(const grader_suite *suite, const grader_test *test, int limit,
                     int alone, test_outcome *out)
{
    memset(out, 0, sizeof *out);
    out->test = test;
    memset(harness_shared, 0, sizeof *harness_shared);
    int uses_gpu = test->group != GROUP_CPU;
    if (uses_gpu) {
        gpu_share_take(alone);
        harness_shared->exclusive = harness_shared->run_alone = alone && gpu_share_active();
    }
    FILE *capture = tmpfile();
    double start = harness_now();
    if (harness_shared->exclusive)
        harness_shared->gpu_alone_since = start;
    int status = capture ? fork_and_wait(suite, test, fileno(capture), limit) : WAIT_NO_FORK;
    double end = harness_now();
    out->seconds = end - start;
    if (uses_gpu)
        gpu_share_drop();
    gpu_share_account(harness_shared, end);
    out->record = *harness_shared;
    classify(status, limit, out);
    if (capture) {
        read_capture(capture, out->output, sizeof out->output);
        fclose(capture);
    }
}

static int reported_a_time(const result_record *rec)
{
    for (int i = 0; i < rec->metric_count && i < RECORD_MAX_METRICS; ++i)
        if (strcmp(rec->metrics[i].unit, "ms") == 0)
            return 1;
    return 0;
}

/* While the GPU was shared, another grader's test may have made this one
 * fail (it filled the GPU's memory, say, before or after a measurement) or,
 * had it measured without claiming the GPU, flattered its time. Such a test
 * runs once more, alone from start to end, and that run counts: sharing
 * changes how long grading takes, never a score. A test that ran out of its
 * own time limit is not run again. */
static const char *rerun_alone_because(const test_outcome *out)
{
    const result_record *rec = &out->record;
    if (!gpu_share_active() || out->test->group == GROUP_CPU || rec->run_alone)
        return NULL;
    switch (out->status) {
    case OUTCOME_FAIL:
    case OUTCOME_CRASH:
        return "it had failed while other graders shared the GPU";
    case OUTCOME_TIMEOUT:
        return rec->hung ? "a call had hung while other graders shared the GPU" : NULL;
    case OUTCOME_PASS:
        return reported_a_time(rec) && !rec->exclusive
                   ? "it had measured time while sharing the GPU" : NULL;
    default:
        return NULL;
    }
}

static void append_note(result_record *rec, const char *note)
{
    size_t used = strlen(rec->notes);
    snprintf(rec->notes + used, sizeof rec->notes - used, "%s%s", used ? "\n" : "", note);
}

/* ----------------------------------------------------------------- main */

int grader_main(const grader_suite *suite, int argc, char **argv)
{
    options opt;
    int parsed = parse_options(argc, argv, &opt);
    if (parsed <= 0) {
        usage(parsed < 0 ? stdout : stderr, argv[0]);
        return parsed < 0 ? 0 : 2;
    }
    if (!gates_are_valid(suite))
        return 2;
    if (opt.rubric) {
        report_write_rubric(stdout, suite);
        return 0;
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

    if (gpu_share_open() != 0)
        return 2;
    harness_shared = mmap(NULL, sizeof *harness_shared, PROT_READ | PROT_WRITE,
                          MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    test_outcome *outs = calloc(selected, sizeof *outs);
    if (harness_shared == MAP_FAILED || !outs) {
        fprintf(stderr, "grader: out of memory\n");
        return 2;
    }
    signal(SIGINT, forward_interrupt);
    signal(SIGTERM, forward_interrupt);

    /* Every test process creates its own CUDA context, and a context sets up
     * one channel per hardware queue, 8 by default. On an H100 (CUDA 13.0),
     * creating and destroying one took 0.35 s with 8 queues and 0.24 s with
     * one; with 8 processes at once, as when the batch grader runs a
     * student's labs side by side, 0.21 s and 0.09 s each. A test that uses
     * one stream gains nothing from more queues. An explicit setting in the
     * environment wins. */
    if (!suite->concurrent_streams)
        setenv("CUDA_DEVICE_MAX_CONNECTIONS", "1", 0);

    /* The parent must not initialise CUDA (a forked child could not use it),
     * so even the device description comes from a child. */
    char device[RECORD_DEVICE_BYTES] = "not probed (CPU checks only)";
    if (needs_gpu) {
        memset(harness_shared, 0, sizeof *harness_shared);
        gpu_share_take(0);
        int status = fork_and_wait(suite, NULL, -1, 60);
        gpu_share_drop();
        snprintf(device, sizeof device, "%s",
                 status == 0 && harness_shared->device[0] ? harness_shared->device
                                                          : "device probe failed");
    }
    printf("%s (%s), grading %s/\ndevice: %s\nseed: %llu (set LAB_SEED to change)\n\n",
           suite->title, suite->lab, suite->implementation, device,
           (unsigned long long)grader_seed());

    size_t n = 0;
    score_totals totals = {0};
    for (size_t i = 0; i < suite->count; ++i) {
        const grader_test *test = &suite->tests[i];
        if (!test_selected(&opt, test))
            continue;
        test_outcome *out = &outs[n];
        run_one_test(suite, test, limit_for(&opt, test), 0, out);
        const char *why = rerun_alone_because(out);
        if (why) {
            run_one_test(suite, test, limit_for(&opt, test), 1, out);
            char note[RECORD_TEXT_BYTES / 2];
            snprintf(note, sizeof note, "run again with the GPU to itself: %s", why);
            append_note(&out->record, note);
        }
        credit(out, outs, n);
        add_to_totals(out, &totals);
        report_outcome_line(out, opt.verbose);
        ++n;
    }

    int cpu_only = !opt.only && opt.groups[GROUP_CPU] && !opt.groups[GROUP_GPU];
    report_summary(suite, outs, n, &totals, cpu_only);
    if (opt.results_path && report_write_json(opt.results_path, suite, device, outs, n, &totals))
        printf("results: %s\n", opt.results_path);

    free(outs);
    munmap(harness_shared, sizeof *harness_shared);
    if (totals.failures)
        return 1;
    return totals.passes == 0 ? CHILD_SKIP : 0;
}
