/* The GPU lock between the graders of one student. See gpu_share.h.
 *
 * Two flock locks in the GRADER_GPU_SHARE folder: "gpu", held shared by
 * every running GPU test and exclusively by one that measures, and "gate",
 * which a test wanting the GPU alone holds from the moment it asks. A test
 * starting takes the gate only for an instant, so while someone waits for
 * the GPU no new test starts, the running ones finish, and the wait ends:
 * without the gate, a steady stream of short tests kept a measuring test
 * waiting most of the time (flock does not favour the exclusive waiter).
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

/* Inherited by every test child: the child converts the same locks. */
static int gate_fd = -1, gpu_fd = -1;

static int open_in(const char *folder, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", folder, name);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        fprintf(stderr, "grader: GRADER_GPU_SHARE: %s cannot be opened (%s); not grading "
                        "without the lock that keeps measurements apart\n", path, strerror(errno));
    return fd;
}

int gpu_share_open(void)
{
    const char *folder = getenv("GRADER_GPU_SHARE");
    if (!folder || !*folder)
        return 0;
    gate_fd = open_in(folder, "gate");
    gpu_fd = gate_fd < 0 ? -1 : open_in(folder, "gpu");
    return gpu_fd < 0 ? -1 : 0;
}

int gpu_share_active(void) { return gpu_fd >= 0; }

static int lock(int fd, int how)
{
    int rc;
    while ((rc = flock(fd, how)) != 0 && errno == EINTR)
        ;
    return rc;
}

/* The GPU alone: the gate first (no new test starts), then every running
 * test's shared hold must end. */
static int lock_alone(void)
{
    return lock(gate_fd, LOCK_EX) || lock(gpu_fd, LOCK_EX) ? -1 : 0;
}

void gpu_share_take(int exclusive)
{
    if (gpu_fd < 0)
        return;
    int rc = exclusive ? lock_alone()
                       : lock(gate_fd, LOCK_EX) || lock(gpu_fd, LOCK_SH) || lock(gate_fd, LOCK_UN);
    if (rc != 0)
        perror("grader: flock(GRADER_GPU_SHARE)");
}

void gpu_share_drop(void)
{
    if (gpu_fd < 0)
        return;
    lock(gpu_fd, LOCK_UN);
    lock(gate_fd, LOCK_UN); /* held when the test had the GPU alone at its end */
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

/* In a child: changes its hold, counting the time it waits apart. */
static int child_relock(int alone)
{
    /* A watchdog armed around the caller must not count the wait. */
    struct itimerval paused = {{0, 0}, {0, 0}}, left;
    setitimer(ITIMER_REAL, &paused, &left);
    double since = harness_now();
    harness_shared->gpu_wait_since = since;
    int rc = alone ? lock(gpu_fd, LOCK_UN) || lock_alone()
                   : lock(gpu_fd, LOCK_SH) || lock(gate_fd, LOCK_UN);
    harness_shared->gpu_wait_s += harness_now() - since;
    harness_shared->gpu_wait_since = 0.0;
    if (left.it_value.tv_sec || left.it_value.tv_usec)
        setitimer(ITIMER_REAL, &left, NULL);
    return rc;
}

void grader_gpu_exclusive(void)
{
    if (gpu_fd < 0 || harness_shared->gpu_alone_since > 0.0)
        return;
    int rc = child_relock(1);
    GRADER_CHECK(rc == 0, "grader: could not get the GPU to this test alone (flock: %s)",
                 strerror(errno));
    harness_shared->exclusive = 1;
    harness_shared->gpu_alone_since = harness_now();
}

void grader_gpu_share_again(void)
{
    /* A second run keeps the GPU to itself to the end (harness.c). */
    if (gpu_fd < 0 || harness_shared->gpu_alone_since <= 0.0 || harness_shared->run_alone)
        return;
    gpu_share_account(harness_shared, harness_now());
    int rc = child_relock(0);
    GRADER_CHECK(rc == 0, "grader: could not take the GPU lock back (flock: %s)", strerror(errno));
}
