/* Running one test (or the device probe) in a process of its own: the
 * lock on a shared GPU, the fork and exec of the test program, the time
 * limit, and what the process left behind turned into an outcome. Several
 * may run at once (--jobs). */
#define _GNU_SOURCE /* memfd_create, nanosleep, strsignal */
#include "call_log.h"
#include "harness_internal.h"
#include "runner_guard.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Wait statuses that are not the process's. */
enum { WAIT_TIMED_OUT = -1, WAIT_NO_FORK = -2, WAIT_LOST = -3, WAIT_NO_LOCK = -4 };

char harness_tests_program[4096];
int harness_replays_cpu_checks;

/* The test processes running now, for the interrupt handler. */
static volatile sig_atomic_t running[HARNESS_MAX_JOBS];

/* Ctrl-C on the grader also stops the tests in flight. */
static void forward_interrupt(int sig)
{
    for (int i = 0; i < HARNESS_MAX_JOBS; ++i)
        if (running[i] > 0)
            kill((pid_t)running[i], SIGKILL);
    signal(sig, SIG_DFL);
    raise(sig);
}

void test_process_forward_interrupts(void)
{
    signal(SIGINT, forward_interrupt);
    signal(SIGTERM, forward_interrupt);
}

static void set_running(pid_t from, pid_t to)
{
    for (int i = 0; i < HARNESS_MAX_JOBS; ++i)
        if (running[i] == from) {
            running[i] = to;
            return;
        }
}

/* Reads `n` bytes of the capture from `from` into buf; returns how many. */
static size_t read_at(FILE *capture, long from, size_t n, char *buf)
{
    if (fseek(capture, from, SEEK_SET) != 0)
        return 0;
    return fread(buf, 1, n, capture);
}

/* Appends captured bytes to out as one string. A NUL byte would end that
 * string, and with it all the output after it in the report and the
 * results file: it is kept as U+FFFD, the character the results file shows
 * for any byte that is not text. out has room for every byte so replaced
 * (test_outcome.output). */
static size_t append_bytes(char *out, size_t used, size_t size, const char *bytes, size_t n)
{
    for (size_t i = 0; i < n && used + 4 <= size; ++i) {
        if (bytes[i]) {
            out[used++] = bytes[i];
        } else {
            memcpy(out + used, "\xef\xbf\xbd", 3);
            used += 3;
        }
    }
    out[used] = '\0';
    return used;
}

/* Where to end a part kept from the start of a long output: at `cut`, moved
 * back to the start of the character cut there (buf holds cut + 1 bytes). */
static size_t head_end(const char *buf, size_t cut)
{
    for (int back = 0; back < 3 && cut > 0 && ((unsigned char)buf[cut] & 0xC0) == 0x80; ++back)
        --cut;
    return cut;
}

/* Reads what the test printed (nothing else reaches the capture:
 * harness_child.c), every byte of it; past HARNESS_OUTPUT_KEEP bytes only
 * the start and the end, with a line saying how many bytes were cut; both
 * cuts fall between UTF-8 characters. */
static void read_capture(FILE *capture, char *out, size_t size)
{
    char part[HARNESS_OUTPUT_KEEP + 1];
    out[0] = '\0';
    if (fseek(capture, 0, SEEK_END) != 0)
        return;
    long total = ftell(capture);
    if (total <= 0)
        return;
    if (total <= HARNESS_OUTPUT_KEEP) {
        append_bytes(out, 0, size, part, read_at(capture, 0, (size_t)total, part));
        return;
    }
    enum { HALF = HARNESS_OUTPUT_KEEP / 2 };
    size_t got = read_at(capture, 0, HALF + 1, part);
    size_t head = got > HALF ? head_end(part, HALF) : got;
    size_t used = append_bytes(out, 0, size, part, head);
    size_t tail = read_at(capture, total - HALF, HALF, part);
    part[tail] = '\0';
    size_t skip = utf8_continuation_bytes(part); /* the end starts on a character */
    char marker[96];
    snprintf(marker, sizeof marker, "%s[... %ld bytes of output cut ...]\n",
             used && out[used - 1] != '\n' ? "\n" : "", total - (long)(head + tail - skip));
    used = append_bytes(out, used, size, marker, strlen(marker));
    append_bytes(out, used, size, part + skip, tail - skip);
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
    } else if (wait_status == WAIT_NO_LOCK) {
        snprintf(rec->message, sizeof rec->message,
                 "the grader could not take the GPU lock (GRADER_GPU_SHARE) for this test: "
                 "not graded as passed");
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
        if (code == CHILD_NO_EXEC && !rec->returned) {
            snprintf(rec->message, sizeof rec->message,
                     "could not start the test program %.1500s (%.300s): not graded as passed",
                     harness_tests_program, detail[0] ? detail : "exec failed");
        } else if (code == CHILD_PASS && rec->returned && !rec->skipped) {
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
    /* The record is written where student code runs: only a skip keeps a
     * reason, and a code the harness does not have reads as the test's own
     * skip, never as "no GPU" (which the batch marks as not graded). */
    if (out->status != OUTCOME_SKIP)
        rec->skip_reason = 0;
    else if (rec->skip_reason != GRADER_SKIP_NO_GPU && rec->skip_reason != GRADER_SKIP_NO_TOOL)
        rec->skip_reason = GRADER_SKIP_BY_TEST;
}

/* The end of a test: its outcome from the wait status and its record. */
static void finish(test_process *tp, int wait_status)
{
    test_outcome *out = tp->out;
    double end = harness_now();
    out->seconds = tp->pid > 0 ? end - tp->start : 0.0;
    out->started = tp->pid > 0 ? tp->start : 0.0;
    out->ended = tp->pid > 0 ? end : 0.0;
    if (tp->pid > 0)
        set_running(tp->pid, 0);
    tp->pid = 0;
    gpu_share_drop(&tp->hold);
    gpu_share_account(tp->rec, end);
    out->record = *tp->rec;
    out->calls_fd = tp->calls_fd;
    tp->calls_fd = -1;
    classify(wait_status, tp->limit_s, out);
    if (tp->capture) {
        read_capture(tp->capture, out->output, sizeof out->output);
        fclose(tp->capture);
        tp->capture = NULL;
    }
}

int test_process_shared_record(result_record **rec)
{
    int fd = memfd_create("grader-record", MFD_CLOEXEC);
    if (fd < 0 || ftruncate(fd, sizeof **rec) != 0) {
        perror("grader: memfd_create");
        if (fd >= 0)
            close(fd);
        return -1;
    }
    *rec = mmap(NULL, sizeof **rec, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (*rec == MAP_FAILED) {
        perror("grader: mmap");
        close(fd);
        return -1;
    }
    return fd;
}

/* Every descriptor above stderr closes at exec, but those in `keep`. */
static void keep_only(const int *keep, int n)
{
    DIR *dir = opendir("/proc/self/fd");
    if (dir) {
        int own = dirfd(dir);
        for (struct dirent *e; (e = readdir(dir)) != NULL;) {
            int fd = atoi(e->d_name);
            if (fd > 2 && fd != own)
                fcntl(fd, F_SETFD, FD_CLOEXEC);
        }
        closedir(dir);
    }
    for (int i = 0; i < n; ++i)
        if (keep[i] >= 0)
            fcntl(keep[i], F_SETFD, 0);
}

/* In the forked runner: becomes the test program, running one test (or,
 * test == NULL, the device probe). The program gets its record, its capture
 * file and its GPU lock, and no other descriptor of the runner's (the
 * results channel, other tests' records). */
static void exec_test_program(const test_process *tp, const grader_test *test)
{
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    if (tp->replay_fd >= 0) { /* the runner's own code only: no exec */
        harness_shared = tp->rec;
        _exit(harness_replay_child(test, fileno(tp->capture), tp->replay_fd));
    }
    char record[16], capture[16], hold[32], calls[16];
    snprintf(record, sizeof record, "%d", tp->rec_fd);
    snprintf(capture, sizeof capture, "%d", tp->capture ? fileno(tp->capture) : -1);
    snprintf(hold, sizeof hold, "%d,%d", tp->hold.gate, tp->hold.gpu);
    snprintf(calls, sizeof calls, "%d", tp->calls_fd);
    const int keep[] = {tp->rec_fd, tp->capture ? fileno(tp->capture) : -1, tp->hold.gate,
                        tp->hold.gpu, tp->calls_fd};
    keep_only(keep, sizeof keep / sizeof keep[0]);
    char *argv[12];
    int n = 0;
    argv[n++] = harness_tests_program;
    if (test) {
        argv[n++] = "--run-test";
        argv[n++] = (char *)test->name;
        argv[n++] = "--capture-fd";
        argv[n++] = capture;
    } else {
        argv[n++] = "--probe-device";
    }
    argv[n++] = "--record-fd";
    argv[n++] = record;
    argv[n++] = "--gpu-hold";
    argv[n++] = hold;
    if (tp->calls_fd >= 0) {
        argv[n++] = "--calls-fd";
        argv[n++] = calls;
    }
    argv[n] = NULL;
    if (runner_become_test_uid(tp->rec->message, sizeof tp->rec->message) != 0)
        _exit(CHILD_NO_EXEC);
    execv(harness_tests_program, argv);
    snprintf(tp->rec->message, sizeof tp->rec->message, "%s", strerror(errno));
    _exit(CHILD_NO_EXEC);
}

int test_process_start(test_process *tp, const grader_test *test, int limit_s, int alone,
                       int wait)
{
    test_outcome *out = tp->out;
    memset(out, 0, sizeof *out);
    out->test = test;
    memset(tp->rec, 0, sizeof *tp->rec);
    tp->hold = (gpu_hold)GPU_HOLD_NONE;
    tp->capture = NULL;
    tp->pid = 0;
    tp->limit_s = limit_s;
    out->calls_fd = tp->calls_fd = -1;
    if (!test || test->group != GROUP_CPU) {
        int taken = gpu_share_take(&tp->hold, alone, wait);
        if (taken == 0)
            return TEST_NOT_NOW;
        if (taken < 0) {
            finish(tp, WAIT_NO_LOCK);
            out->runner_failed = 1;
            return TEST_ENDED;
        }
        tp->rec->exclusive = tp->rec->run_alone = alone && gpu_share_active();
    }
    if (test && test->group == GROUP_CPU && test->run && harness_replays_cpu_checks &&
        tp->replay_fd < 0) {
        tp->calls_fd = call_log_create();
        if (tp->calls_fd < 0) {
            perror("grader: the record of helper calls");
            finish(tp, WAIT_NO_FORK);
            return TEST_ENDED;
        }
    }
    tp->capture = test ? tmpfile() : NULL;
    if (test && !tp->capture) {
        perror("grader: tmpfile");
        finish(tp, WAIT_NO_FORK);
        return TEST_ENDED;
    }
    tp->start = harness_now();
    if (tp->rec->exclusive)
        gpu_share_alone_from(tp->rec, tp->start);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        perror("grader: fork");
        finish(tp, WAIT_NO_FORK);
        /* Only the runner's own fork and lock count as the runner's failure:
         * a capture file or call log that could not be made may be a test
         * program's doing (a /tmp it filled), and stays that lab's. */
        out->runner_failed = 1;
        return TEST_ENDED;
    }
    if (pid == 0)
        exec_test_program(tp, test);
    tp->pid = pid;
    set_running(0, pid);
    return TEST_STARTED;
}

/* Whether the test has ended (then its outcome is filled in). Past its
 * limit (not counting its wait for the GPU, gpu_share.h) it is killed. A
 * failed waitpid means we know nothing about the test, so it must not count
 * as passed. */
int test_process_poll(test_process *tp)
{
    if (tp->pid <= 0)
        return 1;
    int status = 0;
    pid_t done = waitpid(tp->pid, &status, WNOHANG);
    if (done == tp->pid) {
        finish(tp, status);
        return 1;
    }
    if (done < 0 && errno != EINTR) {
        kill(tp->pid, SIGKILL);
        finish(tp, WAIT_LOST);
        return 1;
    }
    double now = harness_now();
    if (now - tp->start - gpu_share_waited(tp->rec, now) > tp->limit_s) {
        kill(tp->pid, SIGKILL);
        waitpid(tp->pid, &status, 0);
        finish(tp, WAIT_TIMED_OUT);
        return 1;
    }
    return 0;
}

void test_process_nap(void)
{
    struct timespec nap = {0, 5 * 1000 * 1000};
    nanosleep(&nap, NULL);
}

void test_process_run(test_process *tp, const grader_test *test, int limit_s, int alone)
{
    if (test_process_start(tp, test, limit_s, alone, 1) != TEST_STARTED)
        return;
    while (!test_process_poll(tp))
        test_process_nap();
}

void test_process_check_by_replay(test_outcome *out, int limit_s)
{
    int calls_fd = out->calls_fd;
    out->calls_fd = -1;
    if (out->status == OUTCOME_PASS) {
        static test_outcome replayed; /* large: not on the stack */
        test_process rp = {.out = &replayed, .hold = GPU_HOLD_NONE, .calls_fd = -1,
                           .replay_fd = calls_fd};
        rp.rec_fd = test_process_shared_record(&rp.rec);
        if (rp.rec_fd >= 0) {
            test_process_run(&rp, out->test, limit_s, 0);
            munmap(rp.rec, sizeof *rp.rec);
            close(rp.rec_fd);
        }
        if (rp.rec_fd < 0 || replayed.status != OUTCOME_PASS) {
            out->status = OUTCOME_FAIL;
            snprintf(out->record.message, sizeof out->record.message,
                     "the test program reported a pass, but the grader's own check of the "
                     "results your helpers returned there failed: %.1800s",
                     rp.rec_fd < 0 ? "it could not run" : replayed.record.message);
        }
    }
    close(calls_fd);
}
