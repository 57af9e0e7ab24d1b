/* The graded race check: finds compute-sanitizer and the lab's race runner,
 * runs one under the other with a time limit, and judges racecheck's
 * report. See racecheck.h. */
#define _DEFAULT_SOURCE /* kill, setpgid */
#include "racecheck.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

#ifndef GRADER_TOOLKIT_BIN
#define GRADER_TOOLKIT_BIN ""
#endif

/* ------------------------------------------------------------ parsing */

/* Copies the line that starts at `line` without racecheck's "=========" margin. */
static void copy_line(char *dst, size_t size, const char *line)
{
    while (*line == '=' || *line == ' ')
        ++line;
    size_t len = strcspn(line, "\n");
    if (len >= size)
        len = size - 1;
    memcpy(dst, line, len);
    dst[len] = '\0';
}

/* Appends the next line's text (the race's second access) to dst. */
static void append_next_line(char *dst, size_t size, const char *line)
{
    const char *next = strchr(line, '\n');
    if (!next)
        return;
    char more[256];
    copy_line(more, sizeof more, next + 1);
    if (strncmp(more, "and ", 4) != 0)
        return;
    size_t used = strlen(dst);
    snprintf(dst + used, size - used, " %s", more);
}

/* "... in /path/to/file.cu:61:kernel(...)" or "... in file.cu:61": the file:line. */
static void find_location(char *dst, size_t size, const char *race)
{
    dst[0] = '\0';
    const char *in = strstr(race, " in ");
    if (!in)
        return;
    in += 4;
    const char *colon = strchr(in, ':');
    if (!colon || colon[1] < '0' || colon[1] > '9')
        return;
    const char *end = colon + 1;
    while (*end >= '0' && *end <= '9')
        ++end;
    const char *start = colon;
    while (start > in && start[-1] != '/' && start[-1] != ' ')
        --start;
    snprintf(dst, size, "%.*s", (int)(end - start), start);
}

int racecheck_parse(const char *report, racecheck_summary *out)
{
    memset(out, 0, sizeof *out);
    const char *race = strstr(report, "Race reported between");
    if (race) {
        const char *line = race;
        while (line > report && line[-1] != '\n')
            --line;
        copy_line(out->first_race, sizeof out->first_race, line);
        append_next_line(out->first_race, sizeof out->first_race, line);
        find_location(out->first_location, sizeof out->first_location, out->first_race);
    }
    /* The last one: the tool prints its summary at the very end. */
    const char *summary = NULL;
    for (const char *at = strstr(report, "RACECHECK SUMMARY:"); at;
         at = strstr(at + 1, "RACECHECK SUMMARY:"))
        summary = at;
    if (!summary)
        return 0;
    out->has_summary = 1;
    summary += strlen("RACECHECK SUMMARY:");
    out->hazards = atoi(summary);
    /* "1 hazard displayed (1 error, 0 warnings)"; older tools print only the count. */
    const char *open = strchr(summary, '(');
    const char *eol = strchr(summary, '\n');
    if (open && (!eol || open < eol)) {
        out->errors = atoi(open + 1);
        const char *comma = strchr(open, ',');
        if (comma && (!eol || comma < eol))
            out->warnings = atoi(comma + 1);
    } else {
        out->errors = out->hazards;
    }
    return 1;
}

/* ------------------------------------------------------------ finding */

static int executable(const char *path) { return path[0] && access(path, X_OK) == 0; }

int racecheck_find_sanitizer(char *buf, size_t size)
{
    const char *forced = getenv("CUDA_LABS_SANITIZER");
    if (forced && forced[0]) {
        snprintf(buf, size, "%s", forced);
        return executable(buf);
    }
    const char *path = getenv("PATH");
    while (path && *path) {
        size_t len = strcspn(path, ":");
        snprintf(buf, size, "%.*s/compute-sanitizer", (int)len, path);
        if (len && executable(buf))
            return 1;
        path += len + (path[len] == ':');
    }
    /* The graders may run with a clean PATH (the batch grader does). */
    const char *dirs[] = {GRADER_TOOLKIT_BIN, "/usr/local/cuda/bin"};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; ++i) {
        snprintf(buf, size, "%s/compute-sanitizer", dirs[i]);
        if (dirs[i][0] && executable(buf))
            return 1;
    }
    return 0;
}

/* The runner next to this executable (the build and the batch grader put it there). */
static int find_runner(const char *name, char *buf, size_t size)
{
    char self[2048];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len <= 0)
        return 0;
    self[len] = '\0';
    char *slash = strrchr(self, '/');
    if (slash)
        *slash = '\0';
    int written = snprintf(buf, size, "%s/%s", self, name);
    return written > 0 && (size_t)written < size && executable(buf);
}

/* ------------------------------------------------------------ running */

/* What the sanitizer printed: its start (the first race reports) and its
 * end (the summary), whatever its length in between. */
enum { HEAD_BYTES = 32 * 1024, TAIL_BYTES = 8 * 1024 };
typedef struct {
    char head[HEAD_BYTES + 1];
    size_t head_used;
    char tail[TAIL_BYTES];
    size_t tail_used;  /* total bytes past the head (the tail is a ring) */
} captured_output;

static void capture(captured_output *c, const char *data, size_t n)
{
    size_t to_head = n < HEAD_BYTES - c->head_used ? n : HEAD_BYTES - c->head_used;
    memcpy(c->head + c->head_used, data, to_head);
    c->head_used += to_head;
    for (size_t i = to_head; i < n; ++i)
        c->tail[c->tail_used++ % TAIL_BYTES] = data[i];
}

/* Head and tail as one string (malloc'd). */
static char *captured_text(const captured_output *c)
{
    size_t tail = c->tail_used < TAIL_BYTES ? c->tail_used : TAIL_BYTES;
    char *text = grader_malloc(c->head_used + tail + 2);
    memcpy(text, c->head, c->head_used);
    size_t at = c->head_used;
    if (c->tail_used > TAIL_BYTES)
        text[at++] = '\n';
    size_t start = c->tail_used > TAIL_BYTES ? c->tail_used % TAIL_BYTES : 0;
    for (size_t i = 0; i < tail; ++i)
        text[at++] = c->tail[(start + i) % TAIL_BYTES];
    text[at] = '\0';
    return text;
}

/* The tool's report from its log file (--log-file), head and tail as above:
 * the runner's own output, where the student's code prints, cannot pass
 * for the tool's summary. malloc'd; "" when the file cannot be read. */
static char *read_report(const char *path)
{
    captured_output *c = grader_malloc(sizeof *c);
    memset(c, 0, sizeof *c);
    FILE *f = fopen(path, "r");
    if (f) {
        char chunk[4096];
        size_t got;
        while ((got = fread(chunk, 1, sizeof chunk, f)) > 0)
            capture(c, chunk, got);
        fclose(f);
    }
    char *text = captured_text(c);
    free(c);
    return text;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

enum { RUN_TIMED_OUT = -1 };

/* Runs argv with its output captured; returns its wait status or RUN_TIMED_OUT. */
static int run_captured(char *const argv[], double limit_s, captured_output *out)
{
    int fds[2];
    GRADER_CHECK(pipe(fds) == 0, "racecheck: pipe() failed: %s (a grader problem)",
                 strerror(errno));
    fflush(NULL);
    pid_t pid = fork();
    GRADER_CHECK(pid >= 0, "racecheck: fork() failed: %s (a grader problem)", strerror(errno));
    if (pid == 0) {
        /* Its own process group, so a time-out ends the tool and the runner
         * together; and it dies with this test if the harness stops it. */
        setpgid(0, 0);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        dup2(fds[1], STDOUT_FILENO);
        dup2(fds[1], STDERR_FILENO);
        close(fds[0]);
        close(fds[1]);
        execv(argv[0], argv);
        fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    close(fds[1]);
    double deadline = now_s() + limit_s;
    int timed_out = 0;
    for (;;) {
        double left = deadline - now_s();
        if (left <= 0) {
            timed_out = 1;
            break;
        }
        struct pollfd p = {fds[0], POLLIN, 0};
        int ready = poll(&p, 1, (int)(left * 1000) + 1);
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready <= 0)
            continue;
        char chunk[4096];
        ssize_t got = read(fds[0], chunk, sizeof chunk);
        if (got <= 0)
            break; /* end of output: the tool has exited (or is about to) */
        capture(out, chunk, (size_t)got);
    }
    close(fds[0]);
    if (timed_out)
        kill(-pid, SIGKILL);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    return timed_out ? RUN_TIMED_OUT : status;
}

/* The first line of the runner's own that says what went wrong ("race runner: ...";
 * lab 3's runner, the race demo, says "race demo: ..."). */
static void runner_complaint(const char *text, char *dst, size_t size)
{
    dst[0] = '\0';
    for (const char *line = text; line && *line; line = strchr(line, '\n')) {
        if (*line == '\n')
            ++line;
        if (strncmp(line, "=========", 9) != 0 && (strstr(line, "race runner:") || strstr(line, "race demo:"))) {
            copy_line(dst, size, line);
            return;
        }
    }
}

/* The exit code the runner is given to tell racecheck's findings from its own. */
enum { SANITIZER_FOUND_ERRORS = 86, RUNNER_NO_DEVICE = 77 };

void racecheck_expect_clean(const racecheck_spec *spec)
{
    grader_require_gpu();
    char sanitizer[4096], runner[4096];
    if (!racecheck_find_sanitizer(sanitizer, sizeof sanitizer))
        grader_skip_at(__FILE__, __LINE__, GRADER_SKIP_NO_TOOL,
                       "not graded: compute-sanitizer was not found (looked at "
                       "$CUDA_LABS_SANITIZER, PATH, the toolkit's bin/ and /usr/local/cuda/bin); "
                       "it ships with the CUDA Toolkit, and the race check needs it.");
    GRADER_CHECK(find_runner(spec->runner, runner, sizeof runner),
                 "racecheck: the race runner %s is missing next to this grader (a build "
                 "problem: `make check-lab%s` builds both; please report it if it persists).",
                 runner, spec->lab_number);

    char log_path[4096];
    const char *tmp = getenv("TMPDIR");
    snprintf(log_path, sizeof log_path, "%s/racecheck-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
    int log_fd = mkstemp(log_path);
    GRADER_CHECK(log_fd >= 0, "racecheck: cannot create %s: %s (a grader problem)", log_path,
                 strerror(errno));
    close(log_fd);

    enum { MAX_ARGS = 32 };
    char exit_code[16];
    snprintf(exit_code, sizeof exit_code, "%d", SANITIZER_FOUND_ERRORS);
    char *argv[MAX_ARGS] = {sanitizer, "--tool", "racecheck", "--log-file", log_path,
                            "--error-exitcode", exit_code, "--show-backtrace", "no", runner};
    int argc = 10;
    for (const char *const *a = spec->args; a && *a && argc < MAX_ARGS - 1; ++a)
        argv[argc++] = (char *)*a;
    argv[argc] = NULL;

    captured_output *out = grader_malloc(sizeof *out);
    memset(out, 0, sizeof *out);
    double started = now_s();
    int status = run_captured(argv, spec->limit_s, out);
    grader_metric("racecheck_seconds", now_s() - started, "s");
    char *text = captured_text(out); /* the runner's output */
    char *report = read_report(log_path);
    unlink(log_path);
    racecheck_summary found;
    racecheck_parse(report, &found);
    /* Shown when the test fails (or with --verbose): the tool's own words. */
    printf("compute-sanitizer --tool racecheck %s:\n%s\nthe race runner's output:\n%s\n",
           spec->what, report, text);

    GRADER_CHECK(status != RUN_TIMED_OUT,
                 "%s did not finish within %.0f s under compute-sanitizer's racecheck (which "
                 "slows kernels 10-100 times, never this much on so small a problem): a kernel "
                 "that never ends, or a __syncthreads() not every thread reaches. Run `make "
                 "sanitize-lab%s`.",
                 spec->what, spec->limit_s, spec->lab_number);
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    if (code == RUNNER_NO_DEVICE)
        grader_skip_at(__FILE__, __LINE__, GRADER_SKIP_NO_GPU,
                       "not graded: the race runner saw no CUDA device under compute-sanitizer");
    grader_metric("racecheck_hazards", found.hazards, "hazards");
    grader_metric("racecheck_errors", found.errors, "hazards");
    if (found.errors > 0)
        GRADER_FAIL("racecheck found %d shared-memory race%s in %s: two threads of a block used "
                    "one shared word with no __syncthreads() between them, so the result depends "
                    "on timing even where the output checks came out right. %s%s%s %s Run `make "
                    "sanitize-lab%s` to see every race with its source line.",
                    found.errors, found.errors == 1 ? "" : "s", spec->what,
                    found.first_location[0] ? "First at " : "",
                    found.first_location[0] ? found.first_location : "",
                    found.first_location[0] ? "." : "", spec->fix_hint, spec->lab_number);
    /* Errors by the exit status but none in the summary: the report is not
     * the tool's alone (something wrote into it); believe the status. */
    GRADER_CHECK(!(code == SANITIZER_FOUND_ERRORS && found.errors == 0 && found.warnings == 0),
                 "compute-sanitizer's racecheck ended with errors on %s (exit %d), but its "
                 "summary shows none: the report was tampered with or cut short. %s Run `make "
                 "sanitize-lab%s`.",
                 spec->what, code, spec->fix_hint, spec->lab_number);
    char complaint[512];
    runner_complaint(text, complaint, sizeof complaint);
    GRADER_CHECK(code == 0 || code == SANITIZER_FOUND_ERRORS,
                 "racecheck found no race, but %s did not run right under it (exit %d%s%s): "
                 "the race check is graded on kernels that give right results; the correctness "
                 "tests say what is wrong.",
                 spec->what, code, complaint[0] ? ": " : "", complaint);
    GRADER_CHECK(found.has_summary,
                 "compute-sanitizer ended without its racecheck summary (exit %d) on %s; the "
                 "end of its output is above (--verbose). Run `make sanitize-lab%s`.",
                 code, spec->what, spec->lab_number);
    if (found.warnings > 0)
        grader_note("racecheck reported %d warning-level hazard%s (not graded): %s", found.warnings,
                    found.warnings == 1 ? "" : "s", found.first_race);
    free(report);
    free(text);
    free(out);
}
