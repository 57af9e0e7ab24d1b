/* A suite whose tests pass, fail, crash, hang and skip on purpose: the
 * harness must report each as exactly that and keep going. The gpu_* tests
 * do it with real kernels (a hang, a fault, then a clean launch); without a
 * GPU they are skipped. Run by check_harness_demo.cmake, which reads the
 * results file. */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"

int demo_launch_hang(void);
int demo_launch_fault(void);
int demo_launch_ok(void);

static void passes(void **state)
{
    (void)state;
    grader_metric("answer", 42.0, "x");
}

static void fails(void **state)
{
    (void)state;
    GRADER_CHECK(1 + 1 == 3, "arithmetic is broken: %d", 1 + 1);
}

/* Honest students print non-ASCII: a Latin-1 byte from a helper, debug
 * lines in Chinese long enough for the harness to cut them. The results
 * must stay valid UTF-8, and the test process must hold no descriptor of
 * the results channel (check_results_channel.py). */
static void prints_non_ascii(void **state)
{
    (void)state;
    /* Which files a test process holds open: never the results channel.
     * Named by device and inode, not by descriptor number: the number the
     * channel has in the runner may be another file's here. */
    DIR *fds = opendir("/proc/self/fd");
    printf("open descriptors:");
    for (struct dirent *e; fds && (e = readdir(fds)) != NULL;) {
        struct stat st;
        int fd = atoi(e->d_name);
        if (e->d_name[0] != '.' && fd != dirfd(fds) && fstat(fd, &st) == 0) /* not the listing's own */
            printf(" %d=%llu:%llu", fd, (unsigned long long)st.st_dev,
                   (unsigned long long)st.st_ino);
    }
    printf("\n");
    if (fds)
        closedir(fds);
    printf("latin-1: caf\xe9\n");
    for (int i = 0; i < 4000; ++i)
        fputs("\xe4\xb8\xad\xe6\x96\x87", stdout); /* "中文", 6 bytes */
    printf("\n");
    GRADER_CHECK(0, "fails on purpose, to keep its output");
}

/* The output keeps every byte a test printed: a line starting with '['
 * (not CMocka's framing), a line far longer than a line buffer whose "[]"
 * pairs put a '[' at byte 1023, and what follows a NUL byte (kept as
 * U+FFFD). */
static void prints_long_lines(void **state)
{
    (void)state;
    printf("[my debug] a line of the test's own that starts with a bracket\n");
    printf("long line: ");
    for (int i = 0; i < 1600; ++i)
        fputs("[]", stdout);
    printf("<end of the long line>\n");
    static const char nul_line[] = "a NUL byte: \0, and what follows it\n";
    fwrite(nul_line, 1, sizeof nul_line - 1, stdout);
    GRADER_CHECK(0, "fails on purpose, to keep its output");
}

/* CMocka's own assertions (common_tests uses them) leave the test without
 * passing through the harness: CMocka's report of them must stay out of
 * the output as well, and the failure says it was an assertion (CMocka
 * keeps the assertion's words in that report). */
static void cmocka_assert_fails(void **state)
{
    (void)state;
    printf("printed before the assertion\n");
    assert_int_equal(1 + 1, 3);
}

static void crashes(void **state)
{
    (void)state;
    raise(SIGSEGV);
}

static void hangs(void **state)
{
    (void)state;
    for (;;)
        pause();
}

static void exits_early(void **state)
{
    (void)state;
    _exit(3);
}

/* exit(0) from student code must not look like a pass. */
static void exits_zero(void **state)
{
    (void)state;
    exit(0);
}

/* skip() in a test (harness.h's) must be reported as SKIP, GPU or not, and
 * what the test printed before it kept. */
static void skips(void **state)
{
    (void)state;
    printf("printed before skip()\n");
    skip();
}

static void gated_by_failure(void **state) { (void)state; }

static void bonus_passes(void **state) { (void)state; }

/* The watchdog must stop a hung kernel within its limit, naming the call. */
static void gpu_kernel_hangs(void **state)
{
    (void)state;
    grader_require_gpu();
    grader_watch("demo_launch_hang()", 2.0);
    demo_launch_hang();
    grader_unwatch();
}

static void gpu_kernel_faults(void **state)
{
    (void)state;
    grader_require_gpu();
    demo_launch_fault();
}

static void gpu_works_after_fault(void **state)
{
    (void)state;
    grader_require_gpu();
    GRADER_CHECK(demo_launch_ok() == 42, "a clean launch after the fault gave a wrong result");
}

/* Test processes get one CUDA hardware queue unless the suite overlaps
 * streams (harness.c). */
static void one_hardware_queue(void **state)
{
    (void)state;
    const char *queues = getenv("CUDA_DEVICE_MAX_CONNECTIONS");
    GRADER_CHECK(queues && strcmp(queues, "1") == 0,
                 "CUDA_DEVICE_MAX_CONNECTIONS is %s in the test process, expected 1",
                 queues ? queues : "unset");
}

static const grader_test tests[] = {
    GRADER_TEST(passes, GROUP_CPU, 1),
    GRADER_TEST(fails, GROUP_CPU, 2),
    GRADER_TEST(crashes, GROUP_CPU, 3),
    GRADER_ROW(hangs, GROUP_CPU, 4, NULL, 1),
    GRADER_TEST(exits_early, GROUP_CPU, 5),
    GRADER_TEST(exits_zero, GROUP_CPU, 5),
    GRADER_TEST(skips, GROUP_CPU, 6),
    /* Passes, but its gate (fails) failed: no points. */
    GRADER_GATED(gated_by_failure, GROUP_CPU, 10, fails),
    /* Extra credit: in its own total. */
    GRADER_BONUS(bonus_passes, GROUP_CPU, 2),
    GRADER_TEST(gpu_kernel_hangs, GROUP_GPU, 7),
    GRADER_TEST(gpu_kernel_faults, GROUP_GPU, 8),
    GRADER_TEST(gpu_works_after_fault, GROUP_GPU, 9),
    GRADER_TEST(one_hardware_queue, GROUP_CPU, 0),
    GRADER_TEST(prints_non_ascii, GROUP_CPU, 1),
    GRADER_TEST(prints_long_lines, GROUP_CPU, 0),
    GRADER_TEST(cmocka_assert_fails, GROUP_CPU, 0),
};

int main(int argc, char **argv)
{
    grader_suite suite = {"demo", "harness demo", "grader/harness/runner/harness.h", "self-test",
                          tests, sizeof tests / sizeof tests[0], .concurrent_streams = 0};
    return grader_main(&suite, argc, argv);
}
