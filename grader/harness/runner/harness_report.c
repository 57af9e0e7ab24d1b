/* The harness's report: one line per test as it finishes, then what to fix
 * and the score; and the machine-readable results file. */
#include "harness_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *const status_labels[] = {
    [OUTCOME_PASS] = "PASS", [OUTCOME_FAIL] = "FAIL", [OUTCOME_SKIP] = "SKIP",
    [OUTCOME_CRASH] = "CRASH", [OUTCOME_TIMEOUT] = "TIMEOUT"};

/* Prints text with every line indented. */
static void print_indented(const char *text, const char *indent)
{
    const char *p = text;
    while (*p) {
        const char *end = strchr(p, '\n');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        printf("%s%.*s\n", indent, (int)len, p);
        p += len + (end ? 1 : 0);
    }
}

void report_outcome_line(const test_outcome *out, int verbose)
{
    const grader_test *t = out->test;
    char points[32];
    if (out->status == OUTCOME_SKIP)
        snprintf(points, sizeof points, "-/%d", t->points);
    else
        snprintf(points, sizeof points, "%d/%d", out->credited, t->points);
    printf("  %-7s %-40s %7s pts%s  %5.1f s", status_labels[out->status], t->name, points,
           t->bonus ? " bonus" : "      ", out->seconds);
    if (out->gated_by)
        printf("  (not credited: %s failed)", out->gated_by);
    else if (out->status == OUTCOME_SKIP && out->record.skip_reason == GRADER_SKIP_NO_GPU)
        printf("  (no GPU)");
    else if (out->status == OUTCOME_SKIP &&
             out->record.skip_reason == GRADER_SKIP_NOT_GRADABLE)
        printf("  (not graded on this GPU: out of the total)");
    printf("\n");
    /* Like pytest: a test's own output only when it did not pass. */
    int failed = out->status != OUTCOME_PASS && out->status != OUTCOME_SKIP;
    if ((failed || verbose) && out->output[0])
        print_indented(out->output, "        | ");
}

/* Points of the GPU tests a CPU-only run left out. */
static int unrun_gpu_points(const grader_suite *suite)
{
    int points = 0;
    for (size_t i = 0; i < suite->count; ++i)
        if (suite->tests[i].group == GROUP_GPU && !suite->tests[i].bonus)
            points += suite->tests[i].points;
    return points;
}

/* One group's part of the score: "CPU 18/18", "GPU not graded (32 points)",
 * "GPU 20/27 (5 points not graded)". */
static void print_group_score(const char *name, int earned, int graded, int not_graded)
{
    if (graded == 0) {
        printf("%s not graded (%d point%s)", name, not_graded, not_graded == 1 ? "" : "s");
        return;
    }
    printf("%s %d/%d", name, earned, graded);
    if (not_graded)
        printf(" (%d point%s not graded)", not_graded, not_graded == 1 ? "" : "s");
}

/* The score. When every point of the run was graded: "Score 45/50". When
 * some were not (a test skipped, or a CPU-only run that leaves the GPU
 * checks out), the same notation whatever the reason, per group:
 * "Score CPU 18/18, GPU not graded (32 points)"; a total would mix points
 * graded with points nobody looked at. ASCII only. */
static void print_score(const grader_suite *suite, const test_outcome *outs, size_t n,
                        const score_totals *t, int cpu_only_run)
{
    static const char *const names[] = {[GROUP_CPU] = "CPU", [GROUP_GPU] = "GPU",
                                        [GROUP_SELFTEST] = "self-tests"};
    int earned[3] = {0}, graded[3] = {0}, not_graded[3] = {0};
    for (size_t i = 0; i < n; ++i) {
        const grader_test *test = outs[i].test;
        if (test->bonus || test->group > GROUP_SELFTEST)
            continue;
        if (outs[i].status == OUTCOME_SKIP &&
            outs[i].record.skip_reason == GRADER_SKIP_NOT_GRADABLE)
            continue; /* out of the total: report_summary says so */
        if (outs[i].status == OUTCOME_SKIP) {
            not_graded[test->group] += test->points;
        } else {
            graded[test->group] += test->points;
            earned[test->group] += outs[i].credited;
        }
    }
    if (cpu_only_run)
        not_graded[GROUP_GPU] += unrun_gpu_points(suite);
    if (!not_graded[GROUP_CPU] && !not_graded[GROUP_GPU] && !not_graded[GROUP_SELFTEST]) {
        printf("Score %d/%d", t->earned, t->possible);
    } else {
        printf("Score ");
        const char *separator = "";
        for (int g = GROUP_CPU; g <= GROUP_SELFTEST; ++g) {
            if (!graded[g] && !not_graded[g])
                continue;
            printf("%s", separator);
            print_group_score(names[g], earned[g], graded[g], not_graded[g]);
            separator = ", ";
        }
    }
    if (t->bonus_possible)
        printf(" (+%d/%d bonus)", t->bonus_earned, t->bonus_possible);
    printf("\n");
}

/* ---- the TODOs a run left unchecked, from the tables' grader_test.todos ---- */

enum { TODO_LABS = 10, TODO_NUMBERS = 64 };
typedef unsigned char todo_set[TODO_LABS][TODO_NUMBERS];

/* Adds a row's TODOs to `set`; a malformed tag adds what it could read. */
static void add_todos(todo_set set, const char *todos)
{
    const char *p = todos ? todos : "";
    while (*p) {
        int lab = 0, first = 0, last = 0, used = 0;
        if (sscanf(p, " %d.%d%n", &lab, &first, &used) != 2)
            return;
        p += used;
        last = first;
        int lab2 = 0;
        if (sscanf(p, " - %d.%d%n", &lab2, &last, &used) == 2 && lab2 == lab)
            p += used;
        else
            last = first;
        for (int t = first; t <= last; ++t)
            if (lab >= 0 && lab < TODO_LABS && t >= 0 && t < TODO_NUMBERS)
                set[lab][t] = 1;
        p += strspn(p, " ,");
    }
}

/* "TODO(7.3)-(7.9), (7.11)": the set, runs of three or more as ranges. */
static void print_todos(todo_set set)
{
    const char *separator = "TODO";
    for (int lab = 0; lab < TODO_LABS; ++lab)
        for (int t = 0; t < TODO_NUMBERS; ++t) {
            if (!set[lab][t])
                continue;
            int end = t;
            while (end + 1 < TODO_NUMBERS && set[lab][end + 1])
                ++end;
            if (end < t + 2)
                end = t;
            printf("%s(%d.%d)", separator, lab, t);
            if (end > t)
                printf("-(%d.%d)", lab, end);
            separator = ", ";
            t = end;
        }
}

/* 1 when the set names any TODO. */
static int any_todo(todo_set set)
{
    for (int lab = 0; lab < TODO_LABS; ++lab)
        for (int t = 0; t < TODO_NUMBERS; ++t)
            if (set[lab][t])
                return 1;
    return 0;
}

/* What a run without a GPU (skips for no_gpu, or --group cpu, which leaves
 * the GPU tests out) did not check: TODOs only unrun tests exercise, and
 * those a test that ran checked while another of theirs did not run. */
static void print_unchecked_todos(const grader_suite *suite, const test_outcome *outs, size_t n,
                                  int cpu_only_run)
{
    static todo_set unrun, ran, only_unrun, in_part;
    memset(unrun, 0, sizeof unrun);
    memset(ran, 0, sizeof ran);
    for (size_t i = 0; i < n; ++i) {
        if (outs[i].status == OUTCOME_SKIP && outs[i].record.skip_reason == GRADER_SKIP_NO_GPU)
            add_todos(unrun, outs[i].test->todos);
        else if (outs[i].status != OUTCOME_SKIP)
            add_todos(ran, outs[i].test->todos);
    }
    if (cpu_only_run)
        for (size_t i = 0; i < suite->count; ++i)
            if (suite->tests[i].group == GROUP_GPU)
                add_todos(unrun, suite->tests[i].todos);
    for (int lab = 0; lab < TODO_LABS; ++lab)
        for (int t = 0; t < TODO_NUMBERS; ++t) {
            only_unrun[lab][t] = unrun[lab][t] && !ran[lab][t];
            in_part[lab][t] = unrun[lab][t] && ran[lab][t];
        }
    const char *without = cpu_only_run ? "not checked (the GPU checks did not run)"
                                       : "not checked without a GPU";
    if (any_todo(only_unrun)) {
        printf("%s: ", without);
        print_todos(only_unrun);
        printf(".\n");
    }
    if (any_todo(in_part)) {
        printf("checked only in part (by the CPU checks; their GPU checks did not run): ");
        print_todos(in_part);
        printf(".\n");
    }
}

void report_summary(const grader_suite *suite, const test_outcome *outs, size_t n,
                    const score_totals *t, int cpu_only_run)
{
    if (t->failures) {
        printf("\nWhat to fix (%d):\n", t->failures);
        for (size_t i = 0; i < n; ++i) {
            const test_outcome *out = &outs[i];
            if (out->status == OUTCOME_PASS || out->status == OUTCOME_SKIP)
                continue;
            printf("- %s (%s):\n", out->test->name, status_labels[out->status]);
            print_indented(out->record.message, "    ");
        }
    }
    printf("\n%s: %d passed, %d failed, %d skipped. ", suite->lab, t->passes, t->failures,
           t->skips);
    print_score(suite, outs, n, t, cpu_only_run);
    if (t->skipped_for_gpu)
        printf("%d GPU check%s SKIPPED for lack of a CUDA device; run this on a machine "
               "with a CUDA GPU to grade %s.\n", t->skipped_for_gpu,
               t->skipped_for_gpu == 1 ? " was" : "s were", t->skipped_for_gpu == 1 ? "it" : "them");
    else if (cpu_only_run)
        printf("Only the CPU checks ran (--group cpu); the GPU checks were not run.\n");
    else if (t->not_graded)
        printf("Skipped tests are not passed: their points are not graded.\n");
    if (t->not_gradable && harness_green_context_unordered)
        printf("%d point%s cannot be graded under GRADER_SM_COUNT: this lab's streams are not "
               "ordered in a green context (docs/design.md, section 3.6), so %s left out of "
               "the total.\n",
               t->not_gradable, t->not_gradable == 1 ? "" : "s",
               t->not_gradable == 1 ? "it is" : "they are");
    else if (t->not_gradable)
        printf("%d point%s of speed tests cannot be graded on this GPU (calibration %s): "
               "the reference and the baseline are too close here, so %s left out of the "
               "total.\n",
               t->not_gradable, t->not_gradable == 1 ? "" : "s",
               harness_calibration ? harness_calibration->file : "?",
               t->not_gradable == 1 ? "it is" : "they are");
    /* What a CPU-only grade cannot say, in plain words, and which TODOs. */
    if (t->skipped_for_gpu || cpu_only_run) {
        printf("The CPU checks test your index helpers (and what the compiler made of your "
               "kernels, where the lab reads it); only the GPU checks run your kernels: "
               "their results, the bounds tests and barriers inside them, and their speed.\n");
        print_unchecked_todos(suite, outs, n, cpu_only_run);
    }
    if (t->failures)
        printf("Each message names the TODO and the section of %s that explains it; "
               "--verbose shows every test's output.\n", suite->handout);
}

/* ------------------------------------------------------------ JSON */

/* The results file's "skip_reason" of a skip (test_process.c leaves only
 * these three in a skip's record, and 0 in any other). */
static const char *skip_reason_name(int reason)
{
    switch (reason) {
    case GRADER_SKIP_BY_TEST: return "by_test";
    case GRADER_SKIP_NO_GPU: return "no_gpu";
    case GRADER_SKIP_NO_TOOL: return "no_tool";
    case GRADER_SKIP_NOT_GRADABLE: return "not_gradable";
    }
    return NULL;
}

/* A moment of the run (harness_now) as seconds after the runner's start,
 * or null: `moment` 0 (it never happened) or outside [from, to], which a
 * record written where student code runs may hold. */
static void write_json_moment(FILE *f, double moment, double from, double to)
{
    if (moment > 0.0 && moment >= from && moment <= to)
        fprintf(f, "%.3f", moment - harness_run_start);
    else
        fprintf(f, "null");
}

/* "started_s", "ended_s": the test process's fork and reap; "alone_from_s":
 * when it first held the GPU alone, within those. Null for a test that
 * never started (the runner skipped it, or it could not be forked). */
static void write_json_timeline(FILE *f, const test_outcome *out)
{
    int ran = out->started > 0.0;
    fprintf(f, "\"started_s\": ");
    write_json_moment(f, ran ? out->started : 0.0, harness_run_start, out->ended);
    fprintf(f, ", \"ended_s\": ");
    write_json_moment(f, ran ? out->ended : 0.0, harness_run_start, out->ended);
    fprintf(f, ", \"alone_from_s\": ");
    write_json_moment(f, ran ? out->record.gpu_alone_first : 0.0, out->started, out->ended);
}

static void write_json_test(FILE *f, const test_outcome *out)
{
    const char *groups[] = {"cpu", "gpu", "selftest"};
    fprintf(f, "    {\"name\": ");
    json_write_string(f, out->test->name);
    fprintf(f, ", \"group\": \"%s\", \"status\": \"%s\", \"points\": %d, \"max_points\": %d, "
               "\"bonus\": %s, \"seconds\": %.3f,\n     \"gpu_wait_s\": %.3f, "
               "\"gpu_alone_s\": %.3f, \"gated_by\": ",
            groups[out->test->group], outcome_name(out->status), out->credited,
            out->test->points, out->test->bonus ? "true" : "false", out->seconds,
            out->record.gpu_wait_s, out->record.gpu_alone_s);
    if (out->gated_by)
        json_write_string(f, out->gated_by);
    else
        fprintf(f, "null");
    const char *skip_reason =
        out->status == OUTCOME_SKIP ? skip_reason_name(out->record.skip_reason) : NULL;
    fprintf(f, ", \"skip_reason\": ");
    if (skip_reason)
        json_write_string(f, skip_reason);
    else
        fprintf(f, "null");
    fprintf(f, ", \"runner_failed\": %s", out->runner_failed ? "true" : "false");
    fprintf(f, ",\n     ");
    write_json_timeline(f, out);
    fprintf(f, ",\n     \"message\": ");
    json_write_string(f, out->record.message);
    fprintf(f, ",\n     \"notes\": ");
    json_write_string(f, out->record.notes);
    fprintf(f, ",\n     \"output\": ");
    json_write_string(f, out->output);
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

/* A number as the shortest text that reads back as the same double, so a
 * reader of --rubric computes with exactly the table's values (a floor of
 * 0.6 is written 0.6, not 0.59999999999999998). Finite numbers only. */
static void json_write_exact(FILE *f, double value)
{
    char text[32];
    for (int digits = 15; digits <= 17; ++digits) {
        snprintf(text, sizeof text, "%.*g", digits, value);
        if (strtod(text, NULL) == value)
            break;
    }
    fprintf(f, "%s", text);
}

/* A speed test's partial-credit curve (harness.h, grader_speed_curve), or null. */
static void write_rubric_curve(FILE *f, const grader_speed_curve *curve)
{
    if (!curve->metric) {
        fprintf(f, "null");
        return;
    }
    fprintf(f, "{\"metric\": ");
    json_write_string(f, curve->metric);
    fprintf(f, ", \"floor\": ");
    json_write_exact(f, curve->floor);
    fprintf(f, ", \"reference\": ");
    if (curve->reference > 0)
        json_write_exact(f, curve->reference);
    else
        fprintf(f, "null");
    fprintf(f, "}");
}

/* Schema 2 added each test's "speed" (its curve, or null) to schema 1. */
void report_write_rubric(FILE *f, const grader_suite *suite)
{
    const char *groups[] = {"cpu", "gpu", "selftest"};
    fprintf(f, "{\"schema\": \"cuda-labs-rubric/2\", \"lab\": ");
    json_write_string(f, suite->lab);
    fprintf(f, ", \"title\": ");
    json_write_string(f, suite->title);
    fprintf(f, ", \"handout\": ");
    json_write_string(f, suite->handout);
    fprintf(f, ",\n \"tests\": [\n");
    for (size_t i = 0; i < suite->count; ++i) {
        const grader_test *t = &suite->tests[i];
        fprintf(f, "  {\"name\": ");
        json_write_string(f, t->name);
        fprintf(f, ", \"group\": \"%s\", \"points\": %d, \"bonus\": %s, \"gate\": ",
                groups[t->group], t->points, t->bonus ? "true" : "false");
        if (t->gate)
            json_write_string(f, t->gate);
        else
            fprintf(f, "null");
        fprintf(f, ", \"speed\": ");
        write_rubric_curve(f, &t->curve);
        fprintf(f, "}%s\n", i + 1 < suite->count ? "," : "");
    }
    fprintf(f, "]}\n");
}

/* "calibration": {"state", "file", "line"}: state "file" (the file named,
 * under grader/calibration/), "defaults" (no file for this GPU: the rubric
 * headers' values), "disabled" (GRADER_CALIBRATION=none) or "not_needed"
 * (no GPU test ran); line as the report's header says it. */
static void write_json_calibration(FILE *f)
{
    static const char *states[] = {"not_needed", "defaults", "disabled", "file"};
    calibration none = {.state = CALIBRATION_NOT_NEEDED};
    const calibration *cal = harness_calibration ? harness_calibration : &none;
    char line[CALIBRATION_LINE_BYTES];
    fprintf(f, ",\n  \"calibration\": {\"state\": \"%s\", \"file\": ", states[cal->state]);
    if (cal->state == CALIBRATION_FILE)
        json_write_string(f, cal->file);
    else
        fprintf(f, "null");
    fprintf(f, ", \"line\": ");
    json_write_string(f, calibration_describe(cal, line, sizeof line));
    fprintf(f, "}");
}

static void write_results(FILE *f, const grader_suite *suite, const char *device,
                          const test_outcome *outs, size_t n, const score_totals *t)
{
    time_t now = time(NULL);
    char stamp[32];
    strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    /* Schema 3 added each test's "skip_reason" (null unless it was skipped);
     * 4 added "calibration", which thresholds graded the run; 5 added
     * "started_at" and each test's "started_s", "ended_s", "alone_from_s"
     * (where a student's grading time goes: grader/batch/timeline.py). */
    fprintf(f, "{\n  \"schema\": \"cuda-labs-results/5\",\n  \"lab\": ");
    json_write_string(f, suite->lab);
    fprintf(f, ",\n  \"title\": ");
    json_write_string(f, suite->title);
    fprintf(f, ",\n  \"implementation\": ");
    json_write_string(f, suite->implementation);
    fprintf(f, ",\n  \"handout\": ");
    json_write_string(f, suite->handout);
    fprintf(f, ",\n  \"device\": ");
    json_write_string(f, device);
    write_json_calibration(f);
    fprintf(f, ",\n  \"seed\": %llu,\n  \"started_at\": %.3f,\n  \"finished\": \"%s\",\n",
            (unsigned long long)grader_seed(), harness_run_started_at, stamp);
    fprintf(f, "  \"score\": {\"earned\": %d, \"possible\": %d, \"bonus_earned\": %d, "
               "\"bonus_possible\": %d, \"not_graded\": %d, \"not_gradable\": %d},\n"
               "  \"tests\": [\n",
            t->earned, t->possible, t->bonus_earned, t->bonus_possible, t->not_graded,
            t->not_gradable);
    for (size_t i = 0; i < n; ++i) {
        write_json_test(f, &outs[i]);
        fprintf(f, "%s\n", i + 1 < n ? "," : "");
    }
    fprintf(f, "  ]\n}\n");
}

int report_write_json(const char *path, const grader_suite *suite, const char *device,
                      const test_outcome *outs, size_t n, const score_totals *t)
{
    return report_write_file(path, write_results, suite, device, outs, n, t);
}

int report_write_file(const char *path, report_writer *write, const grader_suite *suite,
                      const char *device, const test_outcome *outs, size_t n,
                      const score_totals *t)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f) {
        fprintf(stderr, "grader: cannot write results to %s: %s\n", tmp, strerror(errno));
        return 0;
    }
    write(f, suite, device, outs, n, t);
    int ok = fflush(f) == 0;
    ok = (fclose(f) == 0) && ok;
    if (!ok || rename(tmp, path) != 0) {
        fprintf(stderr, "grader: cannot write results to %s: %s\n", path, strerror(errno));
        remove(tmp);
        return 0;
    }
    return 1;
}

/* The batch grader's channel: a file it opened before the run and reads
 * after it, through its own descriptor, never by a path in a folder the
 * student's code could write. */
int report_write_json_fd(int fd, const grader_suite *suite, const char *device,
                         const test_outcome *outs, size_t n, const score_totals *t)
{
    int copy = dup(fd);
    FILE *f = copy >= 0 ? fdopen(copy, "w") : NULL;
    if (!f) {
        fprintf(stderr, "grader: cannot write results to descriptor %d: %s\n", fd,
                strerror(errno));
        if (copy >= 0)
            close(copy);
        return 0;
    }
    write_results(f, suite, device, outs, n, t);
    int ok = fflush(f) == 0;
    ok = (fclose(f) == 0) && ok;
    if (!ok)
        fprintf(stderr, "grader: cannot write results to descriptor %d: %s\n", fd,
                strerror(errno));
    return ok;
}
