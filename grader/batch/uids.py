"""The graders' user ids: a pool of numeric uids, so that no two graders
running at once share one.

Why: RLIMIT_NPROC counts every task of a uid machine-wide, so graders
sharing `nobody` shared one process budget, and one student's fork flood
made honest neighbours' tests fail to start. With a uid of its own, a
lab's processes count only against its own limit, can signal nobody
else's, and are found and killed by uid when the lab ends.

Layout: up to --jobs student slots; every lab of a slot has a pair of
uids: the first builds and runs the lab's runner, the second runs the
runner's test programs (the runner boundary: a test program must not read,
signal or ptrace its runner). Numeric uids need no passwd entry (setpriv).
The range is --uid-base upwards; at start no process and no file in the
places graders write may belong to it."""
import fcntl
import os
import signal
import time


class PoolError(Exception):
    """The pool cannot be used: the batch must not grade with it."""


DEFAULT_BASE = 2_000_000_000     # far above any login or subordinate (subuid) range
KILL_ROUNDS = 50
BLOCK = 1 << 16                  # uids between the pools of batches on one machine
BLOCKS_TRIED = 32
LOCK_DIRS = ("/run/lock", "/var/lock", "/tmp")


def claim(base, slots, labs, lock_dir=None, proc="/proc", folders=("/tmp", "/var/tmp", "/dev/shm")):
    """The first pool at base, base + BLOCK, ... that no other batch on
    this machine holds (a lock file each, held for the batch's life) and
    that nothing uses (check_unused). Raises PoolError."""
    lock_dir = lock_dir or next((d for d in LOCK_DIRS if os.access(d, os.W_OK)), "/tmp")
    if 2 * slots * labs + 1 > BLOCK:
        raise PoolError(f"{2 * slots * labs + 1} uids do not fit one block of {BLOCK}")
    reasons = []
    for k in range(BLOCKS_TRIED):
        pool = UidPool(base + k * BLOCK, slots, labs)
        handle = open(os.path.join(lock_dir, f"cuda-labs-uids.{pool.base}.lock"), "a")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            reasons.append(f"{pool.base}: held by another batch")
            continue
        try:
            pool.check_unused(folders, proc)
        except PoolError as e:
            handle.close()
            reasons.append(str(e))
            continue
        pool.lock = handle
        return pool
    raise PoolError(f"no free pool of uids from {base}: " + "; ".join(reasons[:3]))


class UidPool:
    def __init__(self, base, slots, labs):
        if base < 1000 or base + 2 * slots * labs + 1 > 2**31 - 2:
            raise PoolError(f"--uid-base {base}: the pool of {2 * slots * labs + 1} uids must lie "
                            f"between 1000 and {2**31 - 2}")
        self.base, self.slots, self.labs = base, slots, labs

    @property
    def probe_uid(self):
        """The uid of the workers' GPU probes (and of the check that the
        pool works): the pool's last, never a lab's."""
        return self.base + 2 * self.slots * self.labs

    def pair(self, slot, lab_index):
        """(uid of the lab's build and runner, uid of its test programs)."""
        first = self.base + 2 * (slot * self.labs + lab_index)
        return first, first + 1

    def slot_uids(self, slot):
        return set(range(self.base + 2 * slot * self.labs, self.base + 2 * (slot + 1) * self.labs))

    def all_uids(self):
        return range(self.base, self.probe_uid + 1)

    def check_unused(self, folders, proc="/proc"):
        """Raises PoolError when a process, or a file directly in one of
        `folders`, belongs to a uid of the pool: another batch (or
        anything else) is using it, and sharing it would undo the pool."""
        taken = processes_of(self.all_uids(), proc)
        if taken:
            pid, uid = taken[0]
            raise PoolError(f"process {pid} runs as uid {uid}, in the graders' pool "
                            f"{self.base}..{self.all_uids()[-1]}: another batch may be using it "
                            "(give this one another --uid-base)")
        pool = self.all_uids()
        for folder in folders:
            try:
                names = os.listdir(folder)
            except OSError:
                continue
            for name in names:
                try:
                    owner = os.lstat(os.path.join(folder, name)).st_uid
                except OSError:
                    continue
                if owner in pool:
                    raise PoolError(f"{os.path.join(folder, name)} belongs to uid {owner}, in "
                                    f"the graders' pool: another batch may be using it (give "
                                    "this one another --uid-base)")

    def clean(self, slot, proc="/proc"):
        """Kills every process of the slot's uids (a lab's left-overs, even
        those that escaped its reaper); True when none is left."""
        return kill_uids(self.slot_uids(slot), proc)


def processes_of(uids, proc="/proc"):
    """[(pid, uid)] of the live processes whose real or effective uid is in
    `uids` (a zombie holds nothing but its pid, and its parent reaps it)."""
    found = []
    for entry in os.listdir(proc):
        if not entry.isdigit():
            continue
        try:
            with open(os.path.join(proc, entry, "status")) as f:
                fields = dict(line.split(":", 1) for line in f if ":" in line)
            if fields.get("State", "").split()[:1] == ["Z"]:
                continue
            real, effective = (int(x) for x in fields["Uid"].split()[:2])
        except (OSError, ValueError, KeyError):
            continue
        hit = real if real in uids else effective if effective in uids else None
        if hit is not None:
            found.append((int(entry), hit))
    return found


def kill_uids(uids, proc="/proc"):
    for _ in range(KILL_ROUNDS):
        left = processes_of(uids, proc)
        if not left:
            return True
        for pid, _uid in left:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        time.sleep(0.05)
    return not processes_of(uids, proc)
