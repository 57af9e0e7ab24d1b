/* The GPU lock between the graders of one student. See gpu_share.h.
 *
 * Two flock locks in the GRADER_GPU_SHARE folder: "gpu", held shared by
 * every running GPU test and exclusively by one that measures, and "gate",
 * held by a test wanting the GPU alone from the moment it asks. A starting
 * test takes the gate only for an instant, so while someone waits no new
 * test starts and the wait ends: flock does not favour the exclusive
 * waiter, and a stream of short tests would starve it.
 *
 * Order, so nobody waits in a circle: the gate before "gpu", and a test
 * that asks for the GPU alone first gives up its shared hold. */
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

static const char *folder; /* GRADER_GPU_SHARE; NULL: no sharing */
/* In a test's child: its own hold (gpu_share_adopt). */
static gpu_hold child_hold = GPU_HOLD_NONE;

static int open_in(const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", folder, name);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        fprintf(stderr, "grader: GRADER_GPU_SHARE: %s cannot be opened (%s); not grading "
                        "without the lock that keeps measurements apart\n", path, strerror(errno));
    return fd;
}

static void close_hold(gpu_hold *hold)
{
    if (hold->gate >= 0)
        close(hold->gate);
    if (hold->gpu >= 0)
        close(hold->gpu);
    hold->gate = hold->gpu = -1;
}

static int open_hold(gpu_hold *hold)
{
    hold->gate = open_in("gate");
    hold->gpu = hold->gate < 0 ? -1 : open_in("gpu");
    if (hold->gpu >= 0)
        return 0;
    close_hold(hold);
    return -1;
}

int gpu_share_open(void)
{
    const char *named = getenv("GRADER_GPU_SHARE");
    if (!named || !*named)
        return 0;
    folder = named;
    gpu_hold probe = GPU_HOLD_NONE;
    if (open_hold(&probe) != 0)
        return -1;
    close_hold(&probe);
    return 0;
}

int gpu_share_active(void) { return folder != NULL; }

static int lock(int fd, int how)
{
    int rc;
    while ((rc = flock(fd, how)) != 0 && errno == EINTR)
        ;
    return rc;
}

/* The GPU alone: the gate first (no new test starts), then every running
 * test's shared hold must end. */
static int lock_alone(const gpu_hold *hold)
{
    return lock(hold->gate, LOCK_EX) || lock(hold->gpu, LOCK_EX) ? -1 : 0;
}

/* Without waiting: the gate for an instant, then the GPU shared. A grader
 * with tests of its own running (--jobs) starts the next one this way: were
 * it blocked in flock, it could not stop its running tests at their limits,
 * and a measurement waiting on one of them would wait forever. */
static int try_lock_shared(const gpu_hold *hold)
{
    if (lock(hold->gate, LOCK_EX | LOCK_NB) != 0)
        return errno == EWOULDBLOCK ? 0 : -1;
    int rc = lock(hold->gpu, LOCK_SH | LOCK_NB);
    int err = errno;
    lock(hold->gate, LOCK_UN);
    if (rc == 0)
        return 1;
    return err == EWOULDBLOCK ? 0 : -1;
}

int gpu_share_take(gpu_hold *hold, int exclusive, int wait)
{
    *hold = (gpu_hold)GPU_HOLD_NONE;
    if (!folder)
        return 1;
    if (open_hold(hold) != 0)
        return -1;
    int rc;
    if (exclusive)
        rc = lock_alone(hold) == 0 ? 1 : -1;
    else if (wait)
        rc = lock(hold->gate, LOCK_EX) || lock(hold->gpu, LOCK_SH) || lock(hold->gate, LOCK_UN)
                 ? -1 : 1;
    else
        rc = try_lock_shared(hold);
    if (rc < 0)
        perror("grader: flock(GRADER_GPU_SHARE)");
    if (rc != 1)
        close_hold(hold);
    return rc;
}

void gpu_share_drop(gpu_hold *hold)
{
    if (hold->gpu < 0)
        return;
    /* Unlock before closing: a process the test left behind may still have
     * these files open, and must not keep the lock. */
    lock(hold->gpu, LOCK_UN);
    lock(hold->gate, LOCK_UN); /* held when the test had the GPU alone at its end */
    close_hold(hold);
}

void gpu_share_adopt(const gpu_hold *hold) { child_hold = *hold; }

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

void gpu_share_alone_from(result_record *rec, double now)
{
    rec->gpu_alone_since = now;
    if (rec->gpu_alone_first <= 0.0)
        rec->gpu_alone_first = now;
}

/* In a child: changes its hold, counting the time it waits apart. */
static int child_relock(int alone)
{
    /* A watchdog armed around the caller must not count the wait. */
    struct itimerval paused = {{0, 0}, {0, 0}}, left;
    setitimer(ITIMER_REAL, &paused, &left);
    double since = harness_now();
    harness_shared->gpu_wait_since = since;
    int rc = alone ? lock(child_hold.gpu, LOCK_UN) || lock_alone(&child_hold)
                   : lock(child_hold.gpu, LOCK_SH) || lock(child_hold.gate, LOCK_UN);
    harness_shared->gpu_wait_s += harness_now() - since;
    harness_shared->gpu_wait_since = 0.0;
    if (left.it_value.tv_sec || left.it_value.tv_usec)
        setitimer(ITIMER_REAL, &left, NULL);
    return rc;
}

void grader_gpu_exclusive(void)
{
    if (child_hold.gpu < 0 || harness_shared->gpu_alone_since > 0.0)
        return;
    int rc = child_relock(1);
    GRADER_CHECK(rc == 0, "grader: could not get the GPU to this test alone (flock: %s)",
                 strerror(errno));
    harness_shared->exclusive = 1;
    gpu_share_alone_from(harness_shared, harness_now());
}

void grader_gpu_share_again(void)
{
    /* A second run keeps the GPU to itself to the end (harness.c). */
    if (child_hold.gpu < 0 || harness_shared->gpu_alone_since <= 0.0 ||
        harness_shared->run_alone)
        return;
    gpu_share_account(harness_shared, harness_now());
    int rc = child_relock(0);
    GRADER_CHECK(rc == 0, "grader: could not take the GPU lock back (flock: %s)", strerror(errno));
}
