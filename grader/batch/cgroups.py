"""A cgroup v2 group per lab run, where the hierarchy lets the batch make
one: memory.max and pids.max hold the lab's processes together, whatever
uid they run as, enforced by the kernel (tmpfs pages in the lab's /tmp
too). Elsewhere (cgroup v1, a cgroup the batch does not own) the reaper's
own sum (reaper.py) stays the limit.

Layout: the batch's cgroup P gets a child cuda-labs-<pid>/ with the memory
and pids controllers, and each lab run a child of that. A group passes
controllers to its children only while it holds no process, so where P
holds the batch, the batch first moves into cuda-labs-<pid>/batch/. Paths
are relative to `root` and machine files are arguments, so the tests run
it on a fake tree."""
import itertools
import os

from .util import say_once

CONTROLLERS = ("memory", "pids")


class Unusable(Exception):
    """No cgroup v2 group can be made here (the reason is the message)."""


def _read(path):
    with open(path) as f:
        return f.read()


def _write(path, text):
    with open(path, "w") as f:
        f.write(text)


def own_group(self_cgroup="/proc/self/cgroup"):
    """The unified hierarchy's path of this process ("/": the root), or
    None on a machine with cgroup v1 only."""
    for line in _read(self_cgroup).splitlines():
        if line.startswith("0::"):
            return line[3:].strip() or "/"
    return None


class LabGroups:
    def __init__(self, top):
        self.top = top          # <root>/<P>/cuda-labs-<pid>
        self._names = itertools.count()

    @classmethod
    def make(cls, root="/sys/fs/cgroup", self_cgroup="/proc/self/cgroup", pid=None):
        """The batch's top group, controllers enabled; raises Unusable."""
        pid = pid or os.getpid()
        try:
            path = own_group(self_cgroup)
            if path is None:
                raise Unusable("this machine has no cgroup v2 hierarchy")
            if not os.path.exists(os.path.join(root, "cgroup.controllers")):
                raise Unusable(f"no cgroup v2 hierarchy at {root} (cgroup v1 only)")
            available = _read(os.path.join(root, "cgroup.controllers")).split()
            missing = [c for c in CONTROLLERS if c not in available]
            if missing:
                raise Unusable(f"the controllers {', '.join(missing)} are not available")
            parent = os.path.join(root, path.lstrip("/"))
            enable = " ".join("+" + c for c in CONTROLLERS)
            # The batch's own group gets the controllers only from its
            # ancestors: passed down from the root (a write that an ancestor
            # holding processes refuses leaves the next step to say why).
            ancestor = root
            for part in [p for p in path.split("/") if p]:
                try:
                    _write(os.path.join(ancestor, "cgroup.subtree_control"), enable)
                except OSError:
                    pass
                ancestor = os.path.join(ancestor, part)
            top = os.path.join(parent, f"cuda-labs-{pid}")
            os.makedirs(top, exist_ok=True)
            try:
                _write(os.path.join(parent, "cgroup.subtree_control"), enable)
            except OSError:
                # P holds processes (the batch at least): move the batch into
                # a leaf of its own, then P may pass the controllers down.
                leaf = os.path.join(top, "batch")
                os.makedirs(leaf, exist_ok=True)
                _write(os.path.join(leaf, "cgroup.procs"), str(pid))
                _write(os.path.join(parent, "cgroup.subtree_control"), enable)
            _write(os.path.join(top, "cgroup.subtree_control"), enable)
        except OSError as e:
            raise Unusable(f"the batch's cgroup cannot be made: {e}")
        return cls(top)

    def new(self, memory_bytes, tasks):
        """A fresh group for one lab run, with its limits; its path."""
        group = os.path.join(self.top, f"lab-{next(self._names)}")
        os.makedirs(group)
        if memory_bytes:
            _write(os.path.join(group, "memory.max"), str(int(memory_bytes)))
            try:
                _write(os.path.join(group, "memory.swap.max"), "0")
            except OSError:
                pass  # no swap accounting: nothing to turn off
        if tasks:
            _write(os.path.join(group, "pids.max"), str(int(tasks)))
        return group

    @staticmethod
    def joiner(group):
        """What a child runs before exec to enter `group` (writing 0 moves
        the writer)."""
        procs = os.path.join(group, "cgroup.procs")

        def join():
            try:
                _write(procs, "0")
            except OSError:
                pass  # the reaper's own sum still holds the lab's memory
        return join

    @staticmethod
    def over_memory(group):
        """Whether the kernel killed a process of `group` for its memory."""
        try:
            for line in _read(os.path.join(group, "memory.events")).splitlines():
                name, _, count = line.partition(" ")
                if name == "oom_kill" and int(count or 0) > 0:
                    return True
        except (OSError, ValueError):
            pass
        return False

    @staticmethod
    def remove(group):
        """Kills what is left in `group` and removes it (best effort: a
        group that outlives this is empty and costs nothing)."""
        try:
            _write(os.path.join(group, "cgroup.kill"), "1")
        except OSError:
            pass
        try:
            os.rmdir(group)
        except OSError:
            pass


def make_or_none(**where):
    """LabGroups, or None with the reason said once (the reaper's sum then
    holds the memory limit)."""
    try:
        return LabGroups.make(**where)
    except Unusable as e:
        say_once("cgroups", f"no cgroup v2 group per lab ({e}): the reaper adds up each lab's "
                            "memory itself")
        return None
