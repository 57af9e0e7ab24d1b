"""Runs one command and, when it ends or is stopped, kills every process it
left behind: the batch's per-lab reaper.

Killing a process group is not enough: setsid() leaves the group, and a
double fork hands the grandchild to init. As a child subreaper
(PR_SET_CHILD_SUBREAPER) this process inherits every orphan of the
command, so it finds them all and kills them, without the sandbox or
cgroups (often missing on a course's GPU box).

It also holds the command's processes to one memory limit together
(--tree-memory BYTES), since RLIMIT_DATA binds each process alone. It
counts each process's proportional anonymous and shared-memory pages
(smaps_rollup's Pss_Anon + Pss_Shmem; else RssAnon + RssShmem), never
plain RSS, which counts the shared CUDA libraries once per process. Over
the limit, everything is killed and it says so.

  python3 reaper.py [--tree-memory BYTES] COMMAND [ARG...]
exits with the command's status (128+N for signal N; OVER_MEMORY when it
was stopped for memory); SIGTERM, SIGINT or SIGHUP to the reaper kill the
command and everything under it."""
import ctypes
import os
import signal
import sys
import time

PR_SET_CHILD_SUBREAPER = 36
PR_SET_PDEATHSIG = 1
OVER_MEMORY = 125
WATCH_S = 0.2        # how often the tree's memory is added up


def process_memory(pid, proc="/proc"):
    """Bytes of `pid`'s own share of anonymous and shared memory (0 when
    it is gone)."""
    try:
        with open(f"{proc}/{pid}/smaps_rollup") as f:
            fields = dict(line.split(":", 1) for line in f if ":" in line)
        keys = ("Pss_Anon", "Pss_Shmem")
        if not all(k in fields for k in keys):
            with open(f"{proc}/{pid}/status") as f:
                fields = dict(line.split(":", 1) for line in f if ":" in line)
            keys = ("RssAnon", "RssShmem")
        return sum(int(fields[k].split()[0]) for k in keys if k in fields) * 1024
    except (OSError, ValueError):
        return 0


def tree_memory(root, proc="/proc"):
    return sum(process_memory(pid, proc) for pid in descendants(root))


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


def wait_watching(child, me, limit):
    """Waits for `child` (reaping adopted orphans); with a `limit`, adds up
    the tree's memory every WATCH_S and gives up at the limit. Returns the
    child's wait status, or None when it was stopped for memory."""
    while True:
        try:
            pid, st = os.waitpid(-1, os.WNOHANG if limit else 0)
        except ChildProcessError:
            return 0
        if pid == child:
            return st
        if pid == 0:
            used = tree_memory(me)
            if used > limit:
                sys.stderr.write(f"\nreaper: the lab's processes together held {used >> 20} MiB, "
                                 f"over its limit of {limit >> 20} MiB: all of them stopped\n")
                return None
            time.sleep(WATCH_S)


def main(argv):
    limit = 0
    if argv[:1] == ["--tree-memory"] and len(argv) > 1:
        limit, argv = int(argv[1]), argv[2:]
    if not argv:
        sys.stderr.write("usage: reaper.py [--tree-memory BYTES] COMMAND [ARG...]\n")
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
        status = wait_watching(child, me, limit)
        if status is None:
            stopped.append(-OVER_MEMORY)
    except Stop:
        status = None
    for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(s, signal.SIG_IGN)  # finish the clean-up whatever comes
    kill_all_below(me)
    if stopped and stopped[-1] == -OVER_MEMORY:
        return OVER_MEMORY
    if status is None:  # stopped from outside before the command ended
        return 128 + (stopped[0] if stopped else signal.SIGKILL)
    if os.WIFSIGNALED(status):
        return 128 + os.WTERMSIG(status)
    return os.WEXITSTATUS(status)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
