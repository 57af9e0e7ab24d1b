"""The sandbox every build and grader run goes through: bubblewrap (bwrap).

What it gives: no network; the system and the prepared course read-only
(the course is a student copy: solutions/ is not there to read); one
writable folder while it builds, this lab's scratch folder (read-only
while its grader runs); a private /tmp, size-capped where bubblewrap can
(--size, bubblewrap 0.8 or newer; older ones give an uncapped /tmp, said
once); a private
process and IPC namespace that dies with the batch; /sys and /proc (CUDA
needs them); and of /dev only the standard nodes plus the NVIDIA nodes of
the one GPU this worker owns (gpus.py). Run as root, the batch runs the graders
inside it as an unprivileged user (setpriv, with no capabilities), so that
the process limit holds (tasks.py) and student code is not root. Where
bwrap is missing or not permitted the batch says so once and runs the same
commands without it (docs/instructors.md: threat model)."""
import os
import shutil
import subprocess

from . import gpus
from .tasks import NOBODY
from .util import say_once

SYSTEM_DIRS = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/etc", "/opt"]


class Sandbox:
    def __init__(self, enabled, reason="", bwrap="bwrap"):
        self.enabled = enabled
        self.reason = reason
        # An absolute path: the graders run with a clean PATH, which need
        # not hold the folder the instructor's bwrap is in.
        self.bwrap = bwrap
        # The user id graders run as inside the sandbox (None: the batch's
        # own), and the setpriv that switches to it.
        self.run_as = None
        self.setpriv = None
        # bwrap --size (0.8+): the private /tmp can be capped.
        self.sized_tmp = False

    def wrap(self, argv, workdir, readonly, gpu=None, cwd=None, unprivileged=False,
             writable=True, tmp_bytes=0):
        """argv to run `argv` inside the sandbox with `workdir` writable (or,
        `writable` False, read-only, the command then starting in /tmp) and
        the folders of `readonly` visible read-only, in `cwd`; `gpu`: the
        gpus.Gpu whose nodes it may open (gpus.device_nodes), or None;
        `unprivileged`: as self.run_as; `tmp_bytes`: the size of the private
        /tmp where this bubblewrap can cap it (sized_tmp; else, or 0,
        tmpfs's default, half the RAM)."""
        if not self.enabled:
            return argv
        drop = unprivileged and self.run_as is not None
        cmd = [self.bwrap, "--unshare-net", "--unshare-pid", "--unshare-ipc", "--unshare-uts",
               "--die-with-parent", "--new-session"]
        for d in SYSTEM_DIRS:
            cmd += ["--ro-bind-try", d, d]
        cmd += ["--ro-bind", "/sys", "/sys", "--proc", "/proc", "--dev", "/dev"]
        cmd += (["--perms", "1777"] if drop else []) + \
            (["--size", str(tmp_bytes)] if tmp_bytes and self.sized_tmp else []) + ["--tmpfs", "/tmp"]
        for node in gpus.device_nodes(gpu) if gpu is not None else []:
            cmd += ["--dev-bind", node, node]
        if drop:
            cmd += _traversable_parents(list(readonly) + [workdir])
        for d in readonly:
            cmd += ["--ro-bind", d, d]
        cmd += ["--bind" if writable else "--ro-bind", workdir, workdir,
                "--chdir", cwd or (workdir if writable else "/tmp"), "--"]
        if drop:
            cmd += [self.setpriv, f"--reuid={self.run_as}", f"--regid={self.run_as}",
                    "--clear-groups", "--inh-caps=-all", "--bounding-set=-all", "--"]
        return cmd + list(argv)


def _under(path, top):
    return path == top or path.startswith(top.rstrip("/") + "/")


def _traversable_parents(paths):
    """bwrap creates the missing parents of a bind's target for root only
    (mode 0700); an unprivileged grader could not reach its own folder
    through them. Creates them first, mode 0755 (those bwrap makes itself:
    not inside the system folders, /tmp or another bound folder)."""
    made = set()
    args = []
    for path in paths:
        parts = os.path.abspath(path).split("/")[1:-1]
        for depth in range(1, len(parts) + 1):
            parent = "/" + "/".join(parts[:depth])
            if parent in made or parent == "/tmp" or \
                    any(_under(parent, d) for d in SYSTEM_DIRS) or \
                    any(_under(parent, p) for p in paths):
                continue
            made.add(parent)
            args += ["--perms", "0755", "--dir", parent]
    return args


def probe(use):
    """A Sandbox: bwrap when asked for, installed and permitted here."""
    if not use:
        return Sandbox(False, "turned off (--no-sandbox)")
    bwrap = shutil.which("bwrap")
    try:
        subprocess.run([bwrap or "bwrap", "--version"], capture_output=True, check=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        box = Sandbox(False, "bubblewrap (bwrap) is not installed (Debian: apt-get install bubblewrap)")
    else:
        test = Sandbox(True, bwrap=bwrap)
        tmp = os.path.realpath("/tmp")
        argv = test.wrap(["true"], tmp, [])
        out = subprocess.run(argv, capture_output=True, text=True, timeout=60)
        box = test if out.returncode == 0 else Sandbox(
            False, f"bwrap is installed but not permitted here: {out.stderr.strip()[:300]}")
    if not box.enabled:
        say_once("sandbox", f"sandbox: {box.reason}; grading WITHOUT a sandbox "
                 "(see docs/instructors.md, threat model)")
        return box
    tmp = os.path.realpath("/tmp")
    box.sized_tmp = True
    sized = subprocess.run(box.wrap(["true"], tmp, [], tmp_bytes=1 << 20), capture_output=True,
                           timeout=60)
    if sized.returncode != 0:
        box.sized_tmp = False
        say_once("tmpsize", "sandbox: this bubblewrap cannot cap the size of /tmp (--size needs "
                            "bubblewrap 0.8); a grader's /tmp is limited only by RAM")
    if os.geteuid() == 0:
        _drop_root(box)
    return box


def _drop_root(box):
    """Run as root: graders run as `nobody` inside the sandbox, when
    setpriv (util-linux) is there and works."""
    setpriv = shutil.which("setpriv")
    if setpriv:
        box.run_as, box.setpriv = NOBODY, setpriv
        tmp = os.path.realpath("/tmp")
        out = subprocess.run(box.wrap(["true"], tmp, [], unprivileged=True),
                             capture_output=True, text=True, timeout=60)
        if out.returncode == 0:
            return
        box.run_as = box.setpriv = None
        why = f"setpriv failed in the sandbox: {out.stderr.strip()[:200]}"
    else:
        why = "setpriv (util-linux) is not installed"
    say_once("root", f"sandbox: graders run as root ({why}): the process limit does not hold "
                     "for root")
