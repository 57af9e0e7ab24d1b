/* The GPU lock between the graders of one student. See gpu_share.h. */
#include "gpu_share.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/time.h>
#include <unistd.h>

#include "harness_internal.h"

/* Inherited by every test child: the child converts the same lock. */
static int share_fd = -1;

int gpu_share_open(void)
{
    const char *path = getenv("GRADER_GPU_SHARE");
    if (!path || !*path)
        return 0;
    share_fd = open(path, O_RDONLY | O_CLOEXEC);
    if (share_fd < 0) {
        fprintf(stderr, "grader: GRADER_GPU_SHARE=%s cannot be opened (%s); not grading "
                        "without the lock that keeps measurements apart\n", path, strerror(errno));
        return -1;
    }
    return 0;
}

int gpu_share_active(void) { return share_fd >= 0; }

static int lock(int how)
{
    int rc;
    while ((rc = flock(share_fd, how)) != 0 && errno == EINTR)
        ;
    return rc;
}

void gpu_share_take(int exclusive)
{
    if (share_fd >= 0 && lock(exclusive ? LOCK_EX : LOCK_SH) != 0)
        perror("grader: flock(GRADER_GPU_SHARE)");
}

void gpu_share_drop(void)
{
    if (share_fd >= 0)
        lock(LOCK_UN);
}

double gpu_share_waited(const result_record *rec, double now)
{
    double since = rec->gpu_wait_since;
    return rec->gpu_wait_s + (since > 0.0 ? now - since : 0.0);
}

void gpu_share_account(result_record *rec, double end)
{
    if (rec->gpu_alone_since > 0.0)
        rec->gpu_alone_s += end - rec->gpu_alone_since;
    rec->gpu_alone_since = 0.0;
}

/* In a child: converts its hold to `how`, counting the wait apart. */
static int child_relock(int how)
{
    /* A watchdog armed around the caller must not count the wait. */
    struct itimerval paused = {{0, 0}, {0, 0}}, left;
    setitimer(ITIMER_REAL, &paused, &left);
    double since = harness_now();
    harness_shared->gpu_wait_since = since;
    /* flock converts this process's hold: it is given up, then the new one
     * waits (an exclusive one until no other grader's test holds the lock). */
    int rc = lock(how);
    harness_shared->gpu_wait_s += harness_now() - since;
    harness_shared->gpu_wait_since = 0.0;
    if (left.it_value.tv_sec || left.it_value.tv_usec)
        setitimer(ITIMER_REAL, &left, NULL);
    return rc;
}

void grader_gpu_exclusive(void)
{
    if (share_fd < 0 || harness_shared->gpu_alone_since > 0.0)
        return;
    int rc = child_relock(LOCK_EX);
    GRADER_CHECK(rc == 0, "grader: could not get the GPU to this test alone (flock: %s)",
                 strerror(errno));
    harness_shared->exclusive = 1;
    harness_shared->gpu_alone_since = harness_now();
}

void grader_gpu_share_again(void)
{
    if (share_fd < 0 || harness_shared->gpu_alone_since <= 0.0)
        return;
    gpu_share_account(harness_shared, harness_now());
    int rc = child_relock(LOCK_SH);
    GRADER_CHECK(rc == 0, "grader: could not take the GPU lock back (flock: %s)", strerror(errno));
}
