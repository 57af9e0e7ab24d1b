"""Runs one command and, when it ends or is stopped, kills every process it
left behind: the batch's per-lab reaper.

Killing a process group is not enough: a student's helper that calls
setsid() leaves the group, and a double fork hands the grandchild to init,
where nobody waits for it. As a child subreaper (PR_SET_CHILD_SUBREAPER)
this process inherits every orphan of the command instead, setsid or not,
so it can find them all (its children, theirs, ...) and kill them. That
holds without the sandbox and without cgroups (which need systemd or a
delegated hierarchy, often missing on a course's GPU box).

  python3 reaper.py COMMAND [ARG...]
exits with the command's status (128+N for signal N); SIGTERM, SIGINT or
SIGHUP to the reaper kill the command and everything under it."""
import ctypes
import os
import signal
import sys
import time

PR_SET_CHILD_SUBREAPER = 36
PR_SET_PDEATHSIG = 1


def descendants(root):
    """Pids under `root`, read from /proc/<pid>/task/<tid>/children."""
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        try:
            tasks = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for tid in tasks:
            try:
                with open(f"/proc/{pid}/task/{tid}/children") as f:
                    kids = [int(k) for k in f.read().split()]
            except (OSError, ValueError):
                continue
            for kid in kids:
                if kid not in found:
                    found.append(kid)
                    todo.append(kid)
    return found


def kill_all_below(me):
    """SIGKILLs everything under this process until nothing is left (a
    process may fork while we look; its child then shows up next round)."""
    for _ in range(200):
        pids = descendants(me)
        if not pids:
            return
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        # Reap what has died, ours or adopted.
        while True:
            try:
                pid, _ = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
        time.sleep(0.01)


def main(argv):
    if not argv:
        sys.stderr.write("usage: reaper.py COMMAND [ARG...]\n")
        return 2
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)  # the batch died: so do we
    me = os.getpid()
    stopped = []

    class Stop(Exception):
        """Raised by the signal handler: Python retries a waitpid that a
        signal interrupted, so only an exception ends the wait."""

    def on_signal(signum, frame):
        stopped.append(signum)
        raise Stop()

    try:
        for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            signal.signal(s, on_signal)
        try:
            child = os.fork()
        except OSError as e:
            sys.stderr.write(f"reaper: cannot fork: {e}\n")
            return 127
        if child == 0:
            for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
                signal.signal(s, signal.SIG_DFL)
            try:
                os.execvp(argv[0], argv)
            except OSError as e:
                sys.stderr.write(f"cannot start {argv[0]}: {e}\n")
            os._exit(127)
        status = None
        while status is None:
            try:
                pid, st = os.waitpid(-1, 0)  # our command, or an adopted orphan
            except ChildProcessError:
                break
            if pid == child:
                status = st
    except Stop:
        status = None
    for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(s, signal.SIG_IGN)  # finish the clean-up whatever comes
    kill_all_below(me)
    if status is None:  # stopped from outside before the command ended
        return 128 + (stopped[0] if stopped else signal.SIGKILL)
    if os.WIFSIGNALED(status):
        return 128 + os.WTERMSIG(status)
    return os.WEXITSTATUS(status)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
