"""The sandbox every build and grader run goes through: bubblewrap (bwrap).

It gives: no network; the system and the prepared course (a student copy:
no solutions/) read-only; one writable folder while it builds, the lab's
scratch folder (read-only while its grader runs); a private /tmp, capped
where bwrap can (--size, 0.8+; else uncapped, said once); private process
and IPC namespaces that die with the batch; /sys and /proc (CUDA needs
them); of /dev only the standard nodes and this worker's GPU's (gpus.py).
Run as root, every build and grader runs as a pool uid (uids.py; setpriv,
no capabilities, no groups but the GPU nodes' where needed), so one
student's processes count, and are killed, apart. Every command starts
with an empty session keyring and no way to reach a keyring (keyrings.py).

It fails closed: no permitted bwrap stops the batch unless --no-sandbox; an
unusable pool stops it unless --allow-root-graders (docs/instructors.md)."""
import os
import shutil
import subprocess

from . import gpus, keyrings
from .util import say_once

SYSTEM_DIRS = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/etc", "/opt"]
# What a runner keeps to run its test programs as their own uid and to end
# them (grader/harness/runner/runner_guard.h); everything else is dropped.
RUNNER_CAPS = ("setuid", "setgid", "kill")


class SandboxError(Exception):
    """The sandbox asked for cannot be had here: the batch must not grade."""


class Sandbox:
    def __init__(self, enabled, reason="", bwrap="bwrap"):
        self.enabled = enabled
        self.reason = reason
        # An absolute path: the graders run with a clean PATH, which need
        # not hold the folder the instructor's bwrap is in.
        self.bwrap = bwrap
        # The setpriv that switches to a pool uid (None: commands run as the
        # batch's own user), and the group the GPU's nodes need, if any.
        self.setpriv = None
        self.device_gid = None
        # bwrap --size (0.8+): the private /tmp can be capped.
        self.sized_tmp = False
        # What every command does before exec (keyrings.py), with or without
        # bubblewrap; None where this machine's architecture has no filter.
        self.confinement = None

    def wrap(self, argv, workdir, readonly, gpu=None, cwd=None, uid=None,
             writable=True, tmp_bytes=0, switches_to=None):
        """argv to run `argv` inside the sandbox with `workdir` writable (or,
        `writable` False, read-only, the command then starting in /tmp) and
        the folders of `readonly` visible read-only, in `cwd`; `gpu`: the
        gpus.Gpu whose nodes it may open (gpus.device_nodes), or None;
        `uid`: the pool uid it runs as (None: the batch's own user);
        `switches_to`: the uid its children run as (the runner's test
        programs): it keeps RUNNER_CAPS and nothing else;
        `tmp_bytes`: the size of the private /tmp where this bubblewrap can
        cap it (sized_tmp; else, or 0, tmpfs's default, half the RAM)."""
        if not self.enabled:
            return argv
        drop = uid is not None and self.setpriv is not None
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
            groups = (["--groups", str(self.device_gid)] if gpu is not None and
                      self.device_gid is not None else ["--clear-groups"])
            caps = "-all" + "".join(f",+{c}" for c in RUNNER_CAPS) if switches_to else "-all"
            cmd += [self.setpriv, f"--reuid={uid}", f"--regid={uid}"] + groups + \
                [f"--inh-caps={caps}", f"--ambient-caps={caps}", f"--bounding-set={caps}", "--"]
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
    """A Sandbox: bwrap, installed and permitted here, with the keyring
    confinement; Sandbox(False) with --no-sandbox (`use` False). Raises
    SandboxError, with the reason, where it was asked for and cannot be."""
    if not use:
        box = Sandbox(False, "turned off (--no-sandbox)")
        try:  # the keyrings stay out of reach without bubblewrap too
            box.confinement = keyrings.Confinement()
        except (keyrings.Unsupported, OSError):
            pass
        if box.confinement and _try(box, ["true"]).returncode != 0:
            box.confinement = None
            say_once("keyrings", "the keyring filter is refused here: unsandboxed graders can "
                                 "reach the batch's keyrings")
        return box
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        raise SandboxError("bubblewrap (bwrap) is not installed (Debian: apt-get install "
                           "bubblewrap)")
    box = Sandbox(True, bwrap=bwrap)
    try:
        box.confinement = keyrings.Confinement()
    except (keyrings.Unsupported, OSError) as e:
        raise SandboxError(f"the keyring filter cannot be built here: {e}")
    tmp = os.path.realpath("/tmp")
    out = _try(box, box.wrap(["true"], tmp, []))
    if out.returncode != 0:
        raise SandboxError("bwrap is installed but not permitted here, or the keyring filter "
                           f"is refused: {out.stderr.strip()[:300]}")
    box.sized_tmp = True
    if _try(box, box.wrap(["true"], tmp, [], tmp_bytes=1 << 20)).returncode != 0:
        box.sized_tmp = False
        say_once("tmpsize", "sandbox: this bubblewrap cannot cap the size of /tmp (--size needs "
                            "bubblewrap 0.8); a grader's /tmp is limited only by RAM")
    return box


def _try(box, argv):
    try:
        return subprocess.run(argv, capture_output=True, text=True, timeout=60,
                              preexec_fn=box.confinement.apply if box.confinement else None)
    except (OSError, subprocess.SubprocessError) as e:
        return subprocess.CompletedProcess(argv, 126, "", str(e))


def check_pool_possible(box):
    """Raises SandboxError with the reason when this batch cannot run
    commands as other uids at all (no sandbox, not root, no setpriv)."""
    if not box.enabled:
        raise SandboxError("there is no sandbox to switch users in (--no-sandbox)")
    if os.geteuid() != 0:
        raise SandboxError("the batch is not run as root, so it cannot run graders as uids of "
                           "their own")
    if shutil.which("setpriv") is None:
        raise SandboxError("setpriv (util-linux) is not installed")


def enable_pool(box, uid, device_nodes=()):
    """Lets the sandbox run commands as pool uids (check_pool_possible),
    proven by a test uid `uid` that runs a command in it (with the GPU
    nodes' group where their mode shuts others out: 0660 root:video, say).
    Raises SandboxError with the reason otherwise."""
    check_pool_possible(box)
    box.setpriv = shutil.which("setpriv")
    for node in device_nodes:
        st = os.stat(node)
        if st.st_mode & 0o006 != 0o006:
            box.device_gid = st.st_gid
    tmp = os.path.realpath("/tmp")
    out = _try(box, box.wrap(["true"], tmp, [], uid=uid))
    if out.returncode != 0:
        box.setpriv = None
        raise SandboxError(f"setpriv failed in the sandbox: {out.stderr.strip()[:200]}")
