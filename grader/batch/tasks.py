"""The cap on processes a grader run may start (a fork bomb must not take
the grading machine down with it).

RLIMIT_NPROC counts every task (process or thread) of a user id, machine
wide, and the kernel never applies it to root. So the limit is relative
(the tasks the grader's user id has now, plus a margin), and a batch run
as root runs each lab as a uid of its own (uids.py) inside the sandbox
(sandbox.py), where the limit holds and counts that lab alone."""
import os


def tasks_of_uid(uid):
    """Tasks (processes and threads) whose real user id is `uid`, now."""
    count = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/status") as f:
                status = f.read()
        except OSError:
            continue  # ended while we looked
        real_uid = threads = None
        for line in status.splitlines():
            if line.startswith("Uid:"):
                real_uid = int(line.split()[1])
            elif line.startswith("Threads:"):
                threads = int(line.split()[1])
        if real_uid == uid and threads:
            count += threads
    return count


def process_limit(uid, margin):
    """The RLIMIT_NPROC that lets `uid` start `margin` more tasks; 0 (no
    limit) when margin is 0 or the uid is root, which the limit ignores."""
    if not margin or uid == 0:
        return 0
    return tasks_of_uid(uid) + margin
