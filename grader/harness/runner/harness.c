/* The grader harness, runner side: options, running the selected tests
 * (test_process.c runs each in a process of the test program), scoring.
 * See harness.h. */
#define _DEFAULT_SOURCE /* realpath */
#include "harness_internal.h"
#include "runner_guard.h"
#include "calibration.h"
#include "gpu_keeper.h"
#include "sm_limit.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Backstops: GPU calls have their own, much shorter, watchdogs. */
static const int default_timeout_s[] = {[GROUP_CPU] = 60, [GROUP_GPU] = 120, [GROUP_SELFTEST] = 240};
static const char *const group_names[] = {[GROUP_CPU] = "cpu", [GROUP_GPU] = "gpu", [GROUP_SELFTEST] = "selftest"};

typedef struct {
    int groups[3];           /* which groups to run */
    const char *only[64];    /* --only: these tests alone (make calibrate names several) */
    int only_count;
    const char *results_path;
    const char *junit_path;  /* --junit: the results as JUnit XML too */
    int results_fd;          /* --results-fd: -1 when not given */
    int timeout_override_s;  /* 0: per-group defaults */
    int list;
    int rubric;    /* --rubric: the test table as JSON (the batch grader reads it) */
    int verbose;
    int scored_only; /* --scored-only: skip tests worth no points */
    int jobs;        /* --jobs: tests run side by side (only under GRADER_GPU_SHARE) */
    const char *tests_path; /* --tests: the test program (default: next to the runner) */
} options;

/* The descriptor of --results-fd, or -1. */
int harness_results_fd = -1;

double harness_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

double harness_run_start, harness_run_started_at;

/* Both clocks at one moment: the monotonic one times the tests (it never
 * jumps), the Unix time says when that was to a reader of several results. */
static void note_run_start(void)
{
    struct timespec wall;
    clock_gettime(CLOCK_REALTIME, &wall);
    harness_run_start = harness_now();
    harness_run_started_at = wall.tv_sec + wall.tv_nsec * 1e-9;
}

static int test_selected(const options *opt, const grader_test *test)
{
    for (int i = 0; i < opt->only_count; ++i)
        if (strcmp(opt->only[i], test->name) == 0)
            return 1;
    if (opt->only_count)
        return 0;
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
            "usage: %s [--group cpu|gpu|selftest]... [--only TEST] [--scored-only] [--jobs N]\n"
            "          [--results FILE | --results-fd N] [--junit FILE] [--timeout SECONDS] [--verbose]\n"
            "          [--list] [--rubric] [--tests PROGRAM] [--help]\n"
            "  --group G      run the tests of group G (default: cpu and gpu)\n"
            "  --only TEST    run this test (names: --list); repeat for several\n"
            "  --scored-only  skip the tests worth no points (measurement tables)\n"
            "  --jobs N       run up to N tests at once (1-%d; the batch grader's GPU lock,\n"
            "                 GRADER_GPU_SHARE, must be set: it keeps measurements alone)\n"
            "  --results FILE write the results as JSON to FILE\n"
            "  --junit FILE   write them as JUnit XML to FILE too (CI servers read it)\n"
            "  --results-fd N write them to the open file descriptor N (the batch grader's:\n"
            "                 it never reads a results file by path)\n"
            "  --timeout S    one time limit in seconds for every test\n"
            "  --verbose      show every test's output and measurements, not only failures'\n"
            "  --list         list the tests (group and name), run nothing\n"
            "  --rubric       print the test table (group, points, bonus, gate, speed curve)\n"
            "                 as JSON, run nothing\n"
            "  --tests P      the test program to run the tests in (default: the one built next\n"
            "                 to this grader; the batch grader links one per submission)\n"
            "  --test-uid U   run the test programs as uid U (the batch grader's second uid;\n"
            "                 needs CAP_SETUID and CAP_SETGID)\n"
            "  LAB_SEED=N in the environment changes the random inputs.\n",
            program, HARNESS_MAX_JOBS);
}

/* Returns 1 to run, 0 for a usage error, -1 for --help. */
static int parse_options(int argc, char **argv, options *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->jobs = 1;
    opt->results_fd = -1;
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
            if (opt->only_count == (int)(sizeof opt->only / sizeof opt->only[0])) {
                fprintf(stderr, "grader: too many --only\n");
                return 0;
            }
            opt->only[opt->only_count++] = value;
            ++i;
        } else if (strcmp(arg, "--results") == 0 && value) {
            opt->results_path = value;
            ++i;
        } else if (strcmp(arg, "--junit") == 0 && value) {
            opt->junit_path = value;
            ++i;
        } else if (strcmp(arg, "--results-fd") == 0 && value) {
            char *end;
            long fd = strtol(value, &end, 10);
            if (*end || fd < 3 || fd > 1024 || fcntl((int)fd, F_GETFD) == -1) {
                fprintf(stderr, "grader: --results-fd needs an open file descriptor above 2\n");
                return 0;
            }
            opt->results_fd = (int)fd;
            ++i;
        } else if (strcmp(arg, "--test-uid") == 0 && value) {
            if (!runner_set_test_uid(value)) {
                fprintf(stderr, "grader: --test-uid needs a uid other than root and than the "
                                "grader's own\n");
                return 0;
            }
            ++i;
        } else if (strcmp(arg, "--tests") == 0 && value) {
            opt->tests_path = value;
            ++i;
        } else if (strcmp(arg, "--jobs") == 0 && value) {
            opt->jobs = atoi(value);
            if (opt->jobs < 1 || opt->jobs > HARNESS_MAX_JOBS) {
                fprintf(stderr, "grader: --jobs needs a number from 1 to %d\n", HARNESS_MAX_JOBS);
                return 0;
            }
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
    /* A ratio that cannot be graded on this GPU is out of the total, not lost. */
    if (out->status == OUTCOME_SKIP && out->record.skip_reason == GRADER_SKIP_NOT_GRADABLE) {
        ++t->skips;
        t->not_gradable += out->test->bonus ? 0 : out->test->points;
        return;
    }
    *possible += out->test->points;
    *earned += out->credited;
    if (out->status == OUTCOME_PASS) {
        ++t->passes;
    } else if (out->status == OUTCOME_SKIP) {
        ++t->skips;
        t->not_graded += out->test->points;
        t->skipped_for_gpu += out->record.skip_reason == GRADER_SKIP_NO_GPU;
    } else {
        ++t->failures;
    }
}

/* ------------------------------------------------------- running a test */

static int reported_a_time(const result_record *rec)
{
    for (int i = 0; i < rec->metric_count && i < RECORD_MAX_METRICS; ++i)
        if (strcmp(rec->metrics[i].unit, "ms") == 0)
            return 1;
    return 0;
}

/* While the GPU was shared, another grader's test may have made this one
 * fail (by filling the GPU's memory, say) or flattered an unclaimed
 * measurement. Such a test runs once more, alone throughout, and that run
 * counts: sharing changes grading time, never a score. A test that ran out
 * of its own time limit is not run again. */
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

/* The calibration that grades this run (calibration.h): set once the
 * device is known, before any test starts. */
static calibration run_calibration;
const calibration *harness_calibration;

/* Set before any test starts: this suite's GPU tests cannot be graded in
 * the green context GRADER_SM_COUNT asks for (grader_suite's
 * orders_by_legacy_stream; measured in docs/design.md, section 3.6). */
int harness_green_context_unordered;

/* The device memory of this run's GPU in GiB, from the keeper's device line
 * (device_describe: "..., 80 GiB, driver ..."); 0 when unknown. Only the
 * keeper's line counts: it runs no student code, while the fallback probe
 * is a run of the test program, whose line a submission could write. */
static double run_device_gib;

static double device_line_gib(const char *line)
{
    const char *unit = strstr(line, " GiB,");
    if (!unit)
        return 0.0;
    const char *start = unit;
    while (start > line && (isdigit((unsigned char)start[-1]) || start[-1] == '.'))
        --start;
    return start < unit && start > line && start[-1] == ' ' ? atof(start) : 0.0;
}

/* A test whose ratio cannot be graded on this GPU (its calibration file says
 * so), that needs more device memory than this GPU has (device_gib), or
 * that cannot be graded in a green context, is not run: the runner records
 * it as skipped, not graded, with the reason in the message. The runner
 * decides this itself, so no test process can claim it. */
static int skip_not_graded(test_outcome *out, const grader_test *test)
{
    const char *threshold = calibration_not_graded(&run_calibration, test->name);
    int unordered = harness_green_context_unordered && test->group != GROUP_CPU;
    int too_small = test->device_gib > 0 && run_device_gib > 0.0 &&
                    run_device_gib < (double)test->device_gib;
    if (!threshold && !unordered && !too_small)
        return 0;
    memset(out, 0, sizeof *out);
    out->test = test;
    out->calls_fd = -1; /* no recorded helper calls to replay */
    out->status = OUTCOME_SKIP;
    out->record.skip_reason = GRADER_SKIP_NOT_GRADABLE;
    if (threshold)
        snprintf(out->record.message, sizeof out->record.message,
                 "not graded: %s cannot be graded on this GPU (calibration file %s: the "
                 "reference and the baseline are too close here)",
                 threshold, run_calibration.file);
    else if (too_small)
        snprintf(out->record.message, sizeof out->record.message,
                 "not gradable here: the test needs a GPU with %d GiB of memory, and this one "
                 "has %.0f GiB",
                 test->device_gib, run_device_gib);
    else
        snprintf(out->record.message, sizeof out->record.message,
                 "not graded under GRADER_SM_COUNT: in a green context cudaStreamCreate "
                 "makes non-blocking streams, which the legacy default stream does not wait "
                 "for, and this lab's contract relies on that wait");
    return 1;
}

/* Runs the chosen tests, up to opt->jobs at once in the table's order, and
 * reports each as soon as it and every test before it have their final
 * outcome. A test that must run again alone (rerun_alone_because) waits
 * until no other test of this grader is running, and none starts meanwhile. */
static void run_all(const options *opt, const grader_test **chosen, size_t count,
                    test_process *procs, test_outcome *outs, unsigned char *ended,
                    score_totals *totals)
{
    size_t next = 0, reported = 0;
    while (reported < count) {
        int running = 0, progress = 0;
        for (int p = 0; p < opt->jobs; ++p) {
            if (procs[p].pid <= 0)
                continue;
            if (test_process_poll(&procs[p]))
                ended[procs[p].out - outs] = progress = 1;
            else
                ++running;
        }
        int rerun_waits = 0;
        while (reported < count && ended[reported]) {
            test_outcome *out = &outs[reported];
            const char *why = rerun_alone_because(out);
            if (why && running) {
                rerun_waits = 1;
                break;
            }
            if (why) {
                procs[0].out = out;
                test_process_run(&procs[0], out->test, limit_for(opt, out->test), 1);
                char note[RECORD_TEXT_BYTES / 2];
                snprintf(note, sizeof note, "run again with the GPU to itself: %s", why);
                append_note(&out->record, note);
            }
            if (out->calls_fd >= 0)
                test_process_check_by_replay(out, limit_for(opt, out->test));
            credit(out, outs, reported);
            add_to_totals(out, totals);
            report_outcome_line(out, opt->verbose);
            ++reported;
            progress = 1;
        }
        /* One at a time, a test may wait for the GPU before it starts: no
         * other test of this grader runs to need watching meanwhile. */
        for (int p = 0; p < opt->jobs && next < count && !rerun_waits; ++p) {
            if (procs[p].pid > 0)
                continue;
            if (skip_not_graded(&outs[next], chosen[next])) {
                ended[next++] = progress = 1;
                continue;
            }
            procs[p].out = &outs[next];
            int started = test_process_start(&procs[p], chosen[next],
                                             limit_for(opt, chosen[next]), 0, opt->jobs == 1);
            if (started == TEST_NOT_NOW)
                break;
            ended[next++] = started == TEST_ENDED;
            progress = 1;
        }
        if (!progress)
            test_process_nap();
    }
}

/* ----------------------------------------------------------------- main */

/* The test program's absolute path: --tests, the file named `sibling` next
 * to this runner, or (a self-contained suite) this program. 0 when it cannot
 * be run. */
static int find_tests_program(const options *opt, const char *sibling)
{
    char self[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len <= 0)
        return 0;
    self[len] = '\0';
    char wanted[PATH_MAX + 256];
    if (opt->tests_path) {
        snprintf(wanted, sizeof wanted, "%s", opt->tests_path);
    } else if (sibling) {
        char *slash = strrchr(self, '/');
        snprintf(wanted, sizeof wanted, "%.*s/%s", (int)(slash - self), self, sibling);
    } else {
        snprintf(wanted, sizeof wanted, "%s", self);
    }
    if (!realpath(wanted, harness_tests_program) || access(harness_tests_program, X_OK) != 0) {
        fprintf(stderr, "grader: the test program %s cannot be run (%s); build it with the "
                        "grader (make check-labN builds both)\n", wanted, strerror(errno));
        return 0;
    }
    return 1;
}

int grader_runner_main(const grader_suite *suite, int argc, char **argv, harness_role role,
                       const char *tests_program)
{
    note_run_start();
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

    /* Before any test starts: nothing a test program runs may read or
     * write this process (runner_guard.h). */
    if (runner_guard_self() != 0) {
        perror("grader: prctl(PR_SET_DUMPABLE)");
        return 2;
    }
    harness_results_fd = opt.results_fd;
    if (!find_tests_program(&opt, role == HARNESS_RUNNER ? tests_program : NULL))
        return 2;
    harness_replays_cpu_checks = role == HARNESS_RUNNER;
    if (gpu_share_open() != 0)
        return 2;
    if (opt.jobs > 1 && !gpu_share_active()) {
        fprintf(stderr, "grader: --jobs %d runs tests side by side, which only the GPU lock of "
                        "the batch grader (GRADER_GPU_SHARE) keeps apart from measurements; "
                        "without it the tests run one at a time\n", opt.jobs);
        return 2;
    }
    test_outcome *outs = calloc(selected + 1, sizeof *outs);
    const grader_test **chosen = calloc(selected, sizeof *chosen);
    unsigned char *ended = calloc(selected, 1);
    if (!outs || !chosen || !ended) {
        fprintf(stderr, "grader: out of memory\n");
        return 2;
    }
    for (size_t i = 0, k = 0; i < suite->count; ++i)
        if (test_selected(&opt, &suite->tests[i]))
            chosen[k++] = &suite->tests[i];
    /* One record per test process running at once, shared with it. */
    test_process procs[HARNESS_MAX_JOBS];
    for (int p = 0; p < opt.jobs; ++p) {
        procs[p] = (test_process){.out = NULL, .hold = GPU_HOLD_NONE, .calls_fd = -1,
                                  .replay_fd = -1};
        procs[p].rec_fd = test_process_shared_record(&procs[p].rec);
        if (procs[p].rec_fd < 0)
            return 2;
    }
    test_process_forward_interrupts();

    /* Each test process creates a CUDA context with one channel per hardware
     * queue (8 by default); one queue makes it markedly cheaper to create,
     * and a one-stream test gains nothing from more. The environment wins. */
    if (!suite->concurrent_streams)
        setenv("CUDA_DEVICE_MAX_CONNECTIONS", "1", 0);

    /* The parent must not initialise CUDA (a forked child could not use it),
     * so the device description comes from a child: the keeper, or, where
     * there is none, a run of the test program. */
    char device[RECORD_DEVICE_BYTES] = "not probed (CPU checks only)";
    int kept = needs_gpu && gpu_keeper_start(device, sizeof device);
    if (kept)
        run_device_gib = device_line_gib(device);
    if (needs_gpu && !kept) {
        procs[0].out = &outs[selected]; /* a spare outcome, never reported */
        test_process_run(&procs[0], NULL, 60, 0);
        snprintf(device, sizeof device, "%s",
                 outs[selected].status == OUTCOME_PASS && procs[0].rec->device[0]
                     ? procs[0].rec->device : "device probe failed");
    }
    char why[512], calibration_line[CALIBRATION_LINE_BYTES];
    int unusable = calibration_choose(device, &run_calibration, why, sizeof why);
    if (!unusable && calibration_export(&run_calibration) != 0) {
        unusable = 1;
        snprintf(why, sizeof why, "its values do not fit in the environment");
    }
    if (unusable) {
        fprintf(stderr, "grader: the calibration of this GPU cannot be used: %s\n"
                        "(fix or remove the file; GRADER_CALIBRATION=none grades with the "
                        "rubric's defaults on purpose)\n", why);
        gpu_keeper_stop();
        return 2;
    }
    printf("%s (%s), grading %s/\ndevice: %s\ncalibration: %s\nseed: %llu (set LAB_SEED to "
           "change)\n\n",
           suite->title, suite->lab, suite->implementation, device,
           calibration_describe(&run_calibration, calibration_line, sizeof calibration_line),
           (unsigned long long)grader_seed());
    harness_calibration = &run_calibration;

    harness_green_context_unordered = suite->orders_by_legacy_stream && sm_limit_requested();

    score_totals totals = {0};
    run_all(&opt, chosen, selected, procs, outs, ended, &totals);
    size_t n = selected;

    int cpu_only = !opt.only_count && opt.groups[GROUP_CPU] && !opt.groups[GROUP_GPU];
    report_summary(suite, outs, n, &totals, cpu_only);
    if (opt.results_path && report_write_json(opt.results_path, suite, device, outs, n, &totals))
        printf("results: %s\n", opt.results_path);
    if (opt.junit_path && report_write_junit(opt.junit_path, suite, device, outs, n, &totals))
        printf("JUnit XML: %s\n", opt.junit_path);
    if (opt.results_fd >= 0)
        report_write_json_fd(opt.results_fd, suite, device, outs, n, &totals);

    gpu_keeper_stop();
    free(outs);
    free(chosen);
    free(ended);
    if (totals.failures)
        return 1;
    return totals.passes == 0 ? CHILD_SKIP : 0;
}
