"""Runs one command (a compile, a link, a grader) with a wall-clock limit,
an output cap, and everything it started killed when it ends or reaches the
limit (reaper.py: setsid'd and double-forked children included), so a
student's forked children or a hung kernel cannot outlive their lab."""
import ctypes
import os
import resource
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass

from . import cgroups

PR_SET_PDEATHSIG = 1
REAPER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "reaper.py")
REAPER_GRACE_S = 5  # for the reaper to kill what is under it before we kill it
OVER_MEMORY = 125   # reaper.py's exit status when it stopped the command for memory


@dataclass
class Result:
    """How a command ended."""
    rc: int                   # exit status, or -signal
    timed_out: bool
    seconds: float
    captured: int             # bytes written to the log
    dropped: int              # bytes over the cap, not written
    over_memory: bool = False  # the reaper stopped it: its processes together held too much

    def describe(self) -> str:
        if self.over_memory:
            return "stopped: its processes together held more memory than the limit"
        if self.timed_out:
            return f"killed after {self.seconds:.0f} s (time limit)"
        if self.rc < 0:
            name = (signal.Signals(-self.rc).name
                    if -self.rc in signal.Signals._value2member_map_ else "?")
            return f"killed by signal {-self.rc} ({name})"
        return f"exit status {self.rc}"


def _limits(memory_bytes, max_file_bytes, max_tasks, niceness=0, confine=None, join=None):
    """Runs in the child before exec: its own process group, killed when the
    batch dies, and resource limits. The memory limit is RLIMIT_DATA, not
    RLIMIT_AS: CUDA reserves a huge virtual address range at start-up, so
    any RLIMIT_AS small enough to matter stops CUDA from starting at all.
    max_tasks is an RLIMIT_NPROC (tasks.py: what it counts, and why root
    needs a sandbox for it). `niceness` lowers its CPU priority (os.nice);
    `join`: enters the lab's cgroup (cgroups.py), first; `confine`: a
    keyrings.Confinement, applied next."""
    def apply():
        if join is not None:
            join()
        if confine is not None:
            confine.apply()
        try:
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if memory_bytes:
            resource.setrlimit(resource.RLIMIT_DATA, (memory_bytes, memory_bytes))
        if max_file_bytes:
            resource.setrlimit(resource.RLIMIT_FSIZE, (max_file_bytes, max_file_bytes))
        if max_tasks:
            resource.setrlimit(resource.RLIMIT_NPROC, (max_tasks, max_tasks))
        if niceness:
            os.nice(niceness)
    return apply


def _kill_group(pid):
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def run(argv, log_path, cwd=None, env=None, timeout=600, cap=1 << 20,
        memory_bytes=0, max_file_bytes=0, max_tasks=0, pass_fds=(), reap=False, niceness=0,
        confine=None, tree_memory=0, cgroup=None):
    """Runs argv with stdout+stderr to log_path (appended; at most `cap`
    bytes of it, the rest counted and dropped); `pass_fds`: descriptors the
    command inherits (the grader's results channel); `reap`: under the
    reaper, for commands that run student code (a compiler or linker
    leaves no process behind, and its process group is killed anyway);
    `niceness`: a lower CPU priority (builds, beside the graders);
    `confine`: what the sandbox applies before exec (Sandbox.confinement);
    `tree_memory`: the reaper's limit on the memory of all its processes
    together (reaper.py), where memory_bytes binds each one alone;
    `cgroup`: a cgroups.LabGroups group the command runs in (the kernel's
    own limits on all of its processes; over_memory when it killed one).
    Returns a Result."""
    start = time.monotonic()
    if reap:
        argv = [sys.executable, REAPER] + \
            (["--tree-memory", str(int(tree_memory))] if tree_memory else []) + list(argv)
    with open(log_path, "ab") as log:
        try:
            proc = subprocess.Popen(list(argv), cwd=cwd, env=env,
                                    stdin=subprocess.DEVNULL,
                                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                    start_new_session=True, pass_fds=pass_fds,
                                    preexec_fn=_limits(memory_bytes, max_file_bytes, max_tasks,
                                                       niceness, confine,
                                                       cgroups.LabGroups.joiner(cgroup)
                                                       if cgroup else None))
        except OSError as e:
            log.write(f"cannot start {argv[0]}: {e}\n".encode())
            return Result(127, False, 0.0, 0, 0)
        counts = {"captured": 0, "dropped": 0}

        def drain():
            # Keep reading after the cap: a writer blocked on a full pipe
            # would otherwise look like a hang.
            while True:
                chunk = proc.stdout.read1(65536) if hasattr(proc.stdout, "read1") else proc.stdout.read(65536)
                if not chunk:
                    break
                room = cap - counts["captured"]
                if room > 0:
                    log.write(chunk[:room])
                    counts["captured"] += min(room, len(chunk))
                counts["dropped"] += max(0, len(chunk) - max(room, 0))

        reader = threading.Thread(target=drain, daemon=True)
        reader.start()
        timed_out = False
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            if reap:
                proc.send_signal(signal.SIGTERM)  # the reaper kills everything under it
                try:
                    proc.wait(timeout=REAPER_GRACE_S)
                except subprocess.TimeoutExpired:
                    pass
        # Whatever happened, nothing of this command's group outlives it.
        _kill_group(proc.pid)
        proc.wait()
        reader.join(timeout=10)
        proc.stdout.close()
        if counts["dropped"]:
            log.write(f"\n[... {counts['dropped']} more bytes of output dropped (cap {cap} "
                      "bytes) ...]\n".encode())
        rc = proc.returncode
        if cgroup and cgroups.LabGroups.over_memory(cgroup):
            log.write(b"\n[the lab's processes together reached its memory limit: the kernel "
                      b"killed one of them]\n")
            return Result(rc, timed_out, time.monotonic() - start, counts["captured"],
                          counts["dropped"], over_memory=True)
        if reap and rc == OVER_MEMORY:
            return Result(rc, False, time.monotonic() - start, counts["captured"],
                          counts["dropped"], over_memory=True)
        if reap and rc > 128 and rc - 128 in signal.Signals._value2member_map_:
            rc = -(rc - 128)  # the reaper's 128+N: the command died of signal N
        return Result(rc, timed_out, time.monotonic() - start,
                      counts["captured"], counts["dropped"])
