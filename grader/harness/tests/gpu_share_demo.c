/* Tests that use the GPU lock of gpu_share.h without touching the GPU, so
 * the sharing rules are checked on any machine. Run by
 * check_gpu_share_demo.cmake, which sets GRADER_GPU_SHARE, runs two demos
 * at once, one demo with several tests at once (--jobs), and reads their
 * results files. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/file.h>
#include <unistd.h>

#include "harness_internal.h"

/* A second open of the lock every GPU test holds (gpu_share.c). */
static int open_gpu_lock(void)
{
    const char *folder = getenv("GRADER_GPU_SHARE");
    GRADER_CHECK(folder != NULL, "GRADER_GPU_SHARE is not set");
    char path[4096];
    snprintf(path, sizeof path, "%s/gpu", folder);
    int fd = open(path, O_RDONLY);
    GRADER_CHECK(fd >= 0, "cannot open %s", path);
    return fd;
}

/* Fails unless it runs with the GPU to itself: shared, the harness must
 * run it again alone, and that run counts. */
static void fails_unless_alone(void **state)
{
    (void)state;
    GRADER_CHECK(harness_shared->exclusive, "ran while other graders shared the GPU");
}

/* Reports a time without claiming the GPU: must be run again alone. */
static void times_without_claiming(void **state)
{
    (void)state;
    grader_metric("made_up_ms", 1.0, "ms");
}

/* Claims the GPU first, as every timing test does: no second run. */
static void claims_then_times(void **state)
{
    (void)state;
    grader_gpu_exclusive();
    grader_metric("made_up_ms", 1.0, "ms");
}

/* While a test has the GPU to itself, nobody may hold the lock. */
static void exclusive_means_alone(void **state)
{
    (void)state;
    grader_gpu_exclusive();
    int other = open_gpu_lock();
    int rc = flock(other, LOCK_SH | LOCK_NB);
    int err = errno;
    close(other);
    GRADER_CHECK(rc != 0 && err == EWOULDBLOCK, "another holder got the lock shared while a "
                                                "test had it exclusively");
}

/* After measuring, the GPU is shared again: others may hold the lock. */
static void gives_the_gpu_back(void **state)
{
    (void)state;
    grader_gpu_exclusive();
    usleep(100 * 1000);
    grader_gpu_share_again();
    int other = open_gpu_lock();
    int rc = flock(other, LOCK_SH | LOCK_NB);
    close(other);
    GRADER_CHECK(rc == 0, "the lock stayed exclusive after grader_gpu_share_again");
}

/* Fails after its measurement, when the GPU is shared again: must be run
 * again, alone to the end. */
static void fails_after_measuring(void **state)
{
    (void)state;
    grader_gpu_exclusive();
    grader_gpu_share_again();
    GRADER_CHECK(harness_shared->run_alone, "failed after measuring, while sharing the GPU");
}

/* Holds the lock shared for 3 s (the other demo waits for it). */
static void holds_gpu_shared(void **state)
{
    (void)state;
    sleep(3);
}

/* Starts once the other demo holds the lock, then claims the GPU: waits
 * about 2.5 s, which its 2 s time limit must not count. */
static void waits_for_gpu(void **state)
{
    (void)state;
    usleep(500 * 1000);
    double start = harness_now();
    grader_gpu_exclusive();
    grader_metric("waited_s", harness_now() - start, "s");
}

/* Pass only when they run at the same time (--jobs 2): each leaves a mark
 * in the lock folder and waits up to 3 s for the other's. */
static void meet(const char *mine, const char *other)
{
    const char *folder = getenv("GRADER_GPU_SHARE");
    GRADER_CHECK(folder != NULL, "GRADER_GPU_SHARE is not set");
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", folder, mine);
    FILE *mark = fopen(path, "w");
    GRADER_CHECK(mark != NULL, "cannot write %s", path);
    fclose(mark);
    snprintf(path, sizeof path, "%s/%s", folder, other);
    for (int i = 0; i < 300; ++i) {
        if (access(path, F_OK) == 0)
            return;
        usleep(10 * 1000);
    }
    GRADER_FAIL("%s never appeared: the two tests did not run side by side", path);
}

static void side_by_side_a(void **state)
{
    (void)state;
    meet("a.mark", "b.mark");
}

static void side_by_side_b(void **state)
{
    (void)state;
    meet("b.mark", "a.mark");
}

static const grader_test tests[] = {
    GRADER_TEST(fails_unless_alone, GROUP_GPU, 1),
    GRADER_TEST(times_without_claiming, GROUP_GPU, 1),
    GRADER_TEST(claims_then_times, GROUP_GPU, 1),
    GRADER_TEST(exclusive_means_alone, GROUP_GPU, 1),
    GRADER_TEST(gives_the_gpu_back, GROUP_GPU, 1),
    GRADER_TEST(fails_after_measuring, GROUP_GPU, 1),
    /* Run one at a time (--only) by the two-demo check. */
    GRADER_TEST(holds_gpu_shared, GROUP_SELFTEST, 0),
    GRADER_TEST(waits_for_gpu, GROUP_SELFTEST, 0),
    /* Run together by the --jobs check. */
    GRADER_TEST(side_by_side_a, GROUP_SELFTEST, 0),
    GRADER_TEST(side_by_side_b, GROUP_SELFTEST, 0),
};

int main(int argc, char **argv)
{
    grader_suite suite = {"share", "GPU sharing demo", "grader/harness/runner/gpu_share.h",
                          "self-test", tests, sizeof tests / sizeof tests[0],
                          .concurrent_streams = 0};
    return grader_main(&suite, argc, argv);
}
