#!/usr/bin/env python3
"""Preflight of the make targets that draw with matplotlib: make test (its
ctest handouts.figures_redraw_from_results), make plots, make plot-lab6 and
make plot-lab7. Run by the interpreter it checks, the Makefile's PYTHON:

    $(PYTHON) grader/tools/need_matplotlib.py --target "make test" --log build/install-matplotlib.log

When that interpreter cannot import matplotlib, installs it, saying so
first: apt-get for the distribution's own /usr/bin/python3 (as root or with
passwordless sudo, like ensure-deps.sh), else pip into that interpreter's
own site-packages (outside the repository). When it cannot, it prints the
one command to run and exits 1 before anything is built (0 with --optional:
make plot-lab7's table is worth having without the chart). Students'
targets never run it: graders need no matplotlib.

install_hint() is that command, and not_installed() the plotting scripts'
line when they find no matplotlib.
"""
import argparse
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig

# What the plotting scripts do: pyplot on the Agg backend (a broken install
# can import matplotlib but not pyplot).
CHECK = "import matplotlib; matplotlib.use('Agg'); import matplotlib.pyplot"
# Where install_hint() suggests a virtual environment when pip may not touch
# this interpreter: outside the repository, so neither make clean nor a
# fresh clone loses it.
VENV = "~/.venvs/cuda-labs"


def in_venv():
    return sys.prefix != sys.base_prefix


def is_system_python():
    """The distribution's python3, the one apt's python3-matplotlib serves."""
    return (not in_venv() and os.path.exists("/usr/bin/python3")
            and os.path.realpath(sys.executable) == os.path.realpath("/usr/bin/python3"))


def externally_managed():
    """PEP 668: pip refuses to install into this interpreter (Debian 12,
    Ubuntu 24.04 and others mark their Python so)."""
    return not in_venv() and os.path.exists(
        os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED"))


def apt_runner():
    """[] as root, ["sudo", "-n"] with passwordless sudo, None when apt-get
    cannot be run by us."""
    if not shutil.which("apt-get"):
        return None
    if os.geteuid() == 0:
        return []
    if shutil.which("sudo") and subprocess.run(["sudo", "-n", "true"], capture_output=True).returncode == 0:
        return ["sudo", "-n"]
    return None


def method():
    """'apt', 'pip' or 'venv' (pip may not change this interpreter: make one)."""
    if is_system_python() and shutil.which("apt-get"):
        return "apt"
    if externally_managed():
        return "venv"
    return "pip"


def install_hint():
    """The one command that gives this interpreter matplotlib, for this system."""
    py = shlex.quote(sys.executable)
    how = method()
    if how == "apt":
        sudo = "" if os.geteuid() == 0 else "sudo "
        return f"{sudo}apt-get install -y python3-matplotlib"
    if how == "pip":
        return f"{py} -m pip install matplotlib"
    return (f"{py} -m venv {VENV} && {VENV}/bin/pip install matplotlib, "
            f"then give make PYTHON={VENV}/bin/python3")


def not_installed(program):
    """The plotting scripts' message: which interpreter lacks matplotlib and
    the command that gives it one."""
    return f"{program}: matplotlib is not installed for {sys.executable}; run: {install_hint()}"


def importable():
    # A fresh process: after an install, this one's import caches are stale.
    return subprocess.run([sys.executable, "-c", CHECK], capture_output=True).returncode == 0


def say(line):
    print(f"cuda-labs: {line}", file=sys.stderr, flush=True)


def obstacle(how):
    """Why we may not even try to install (a clause for the message), or None."""
    if how == "venv":
        return "which pip may not change (externally managed)"
    if how == "apt" and apt_runner() is None:
        return "and only root may install python3-matplotlib"
    # pip falls back to a --user install where it may not write, except in a
    # venv (no user site there).
    if how == "pip" and in_venv() and not os.access(sysconfig.get_path("purelib"), os.W_OK):
        return "whose packages this user may not change"
    return None


def install(how, log):
    """Runs the installer with its output in LOG; True when it succeeded."""
    if how == "apt":
        runner = apt_runner()
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        steps = [runner + ["apt-get", "update", "-qq"],
                 runner + ["apt-get", "install", "-y", "-qq", "python3-matplotlib"]]
        what = "python3-matplotlib with apt-get"
    else:
        env = None
        steps = [[sys.executable, "-m", "pip", "install", "--disable-pip-version-check",
                  "matplotlib"]]
        what = f"matplotlib with pip into {sys.executable}"
    say(f"installing {what} (output: {log})")
    os.makedirs(os.path.dirname(os.path.abspath(log)), exist_ok=True)
    with open(log, "w") as out:
        for step in steps:
            out.write("$ " + " ".join(shlex.quote(a) for a in step) + "\n")
            out.flush()
            if subprocess.run(step, stdout=out, stderr=subprocess.STDOUT, env=env,
                              stdin=subprocess.DEVNULL).returncode != 0:
                return False
    return True


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", default="this target", help="who needs it, for the messages")
    parser.add_argument("--log", default="install-matplotlib.log", help="the installer's output")
    parser.add_argument("--optional", action="store_true",
                        help="the target does useful work without matplotlib: exit 0 all the same")
    args = parser.parse_args(argv)
    failed = 0 if args.optional else 1
    if importable():
        return 0
    need = f"{args.target} needs matplotlib for {sys.executable}"
    how = method()
    why_not = obstacle(how)
    if why_not:
        say(f"{need}, {why_not}; run: {install_hint()}")
        return failed
    if install(how, args.log) and importable():
        say("matplotlib is installed")
        return 0
    say(f"{need} and could not install it (see {args.log}); run: {install_hint()}")
    return failed


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
