"""The pristine course and its one shared build.

Everything that does not depend on a student's code (common/, support, the
harness, baselines, answer libraries, every grader's objects) is built once
per batch, from a student copy of the course (make dist-student: no
solutions/), in OUT/.course/. From it we keep a *recipe* per lab: the exact
compile command of each student file, the archive step and the grader's
link, as CMake wrote them; build.py replays only those with the student's
files, never a CMake configure.

Several batches may share one cache (--course-cache): a lock file beside
it is held shared while grading and exclusively only to build, so a cache
is never rebuilt under a batch using it (one that needs another version
waits, and says so).
"""
import fcntl
import hashlib
import json
import os
import shlex
import shutil
import subprocess
import time

from . import labs as labs_mod
from . import score
from .util import read_json, say, write_json_atomic

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SKIP_DIRS = {".git", ".deps", "__pycache__"}
NOT_BUILT = ("grader/batch/", "grader/tests/submissions/", "solutions/fixtures/", "handouts/",
             "docs/")


def _course_files(root):
    """Relative paths of the course's files (what a fingerprint covers)."""
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "-z", "--cached", "--others",
                              "--exclude-standard"], capture_output=True, check=True).stdout
        return sorted(p for p in out.decode().split("\0") if p and os.path.isfile(os.path.join(root, p)))
    except (OSError, subprocess.CalledProcessError):
        found = []
        for folder, dirs, files in os.walk(root):
            dirs[:] = [d for d in dirs if d not in SKIP_DIRS and not d.startswith("build")]
            found += [os.path.relpath(os.path.join(folder, f), root) for f in files]
        return sorted(found)


def fingerprint(root, arch):
    """Changes when any course file or the GPU architecture changes: then
    the shared build is made again."""
    h = hashlib.sha256(f"arch={arch}\n".encode())
    for rel in _course_files(root):
        if rel.startswith(NOT_BUILT) or rel.endswith(".md") or rel == "grader/grade-submissions":
            continue  # the batch grader, its fixtures and prose are not part of the build
        h.update(rel.encode() + b"\0")
        with open(os.path.join(root, rel), "rb") as f:
            h.update(hashlib.sha256(f.read()).digest())
    return h.hexdigest()[:16]


def detect_arch():
    """The compute capability of the first visible GPU ("90"), or None."""
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=compute_cap", "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    caps = [line.strip().replace(".", "") for line in out.stdout.splitlines() if line.strip()]
    return caps[0] if out.returncode == 0 and caps and caps[0].isdigit() else None


class Course:
    """A prepared course: `src` (pristine, no solutions/), `build` (built),
    `labs` (discovered), and per lab its recipe and rubric."""

    def __init__(self, cache, info):
        self.cache = cache
        self.src = info["src"]
        self.build = info["build"]
        self.arch = info["arch"]
        self.labs = labs_mod.discover(self.src)
        self.recipes = info["recipes"]      # lab name -> recipe
        self.rubrics = info["rubrics"]      # lab name -> --rubric JSON
        # Partial credit for speed: the test tables' curves, in the rubrics.
        self.curves = {name: score.curve_from_rubric(rubric)
                       for name, rubric in self.rubrics.items()}
        self.fingerprint = info["fingerprint"]


def _run_logged(cmd, log, **kw):
    with open(log, "ab") as f:
        f.write(f"$ {' '.join(shlex.quote(c) for c in cmd)}\n".encode())
        f.flush()
        return subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, **kw).returncode


def _ready(cache, fp):
    info = read_json(os.path.join(cache, "course.json"))
    if info and info.get("fingerprint") == fp and os.path.isdir(info.get("build", "")):
        return Course(cache, info)
    return None


def _lock(handle, mode, waiting_message):
    try:
        fcntl.flock(handle, mode | fcntl.LOCK_NB)
    except OSError:
        say(waiting_message)
        fcntl.flock(handle, mode)


def prepare(course_root, cache, arch, jobs, env=None):
    """Makes (or reuses) OUT/.course: a student copy, configured and built.
    Returns a Course, whose cache stays locked (shared) for as long as this
    process lives; raises RuntimeError with the log's path on failure."""
    course_root = os.path.abspath(course_root)
    fp = fingerprint(course_root, arch)
    cache = os.path.abspath(cache)
    os.makedirs(os.path.dirname(cache), exist_ok=True)
    handle = open(cache.rstrip("/") + ".lock", "a")
    _lock(handle, fcntl.LOCK_SH,
          f"the course cache {cache} is being built by another batch: waiting")
    course = _ready(cache, fp)
    if course is None:
        fcntl.flock(handle, fcntl.LOCK_UN)
        _lock(handle, fcntl.LOCK_EX, f"the course cache {cache} is in use by another batch "
              "grading another version of the course: waiting for it to finish")
        course = _ready(cache, fp) or _build(course_root, cache, arch, jobs, env, fp)
        fcntl.flock(handle, fcntl.LOCK_SH)  # built: share it again
    course.lock = handle  # held until the batch ends
    return course


def _build(course_root, cache, arch, jobs, env, fp):
    """Builds the cache; the caller holds its lock exclusively."""
    if os.path.exists(cache):
        shutil.rmtree(cache)
    os.makedirs(cache)
    src = os.path.join(cache, "src")
    build = os.path.join(cache, "build")
    log = os.path.join(cache, "prepare.log")
    env = dict(env or os.environ)
    say(f"preparing the course once (a student copy and its shared build): {log}")
    started = time.monotonic()

    def step(what):  # the preparation takes about a minute: say where it is
        say(f"  {what} ({time.monotonic() - started:.0f} s so far)")

    if os.path.isdir(os.path.join(course_root, "solutions")):
        step(f"making the student copy, answer libraries for sm_{arch}")
        # The course repository: the copy students get, answer libraries
        # compiled for this batch's GPU only (faster than dist-student's list).
        env["DIST_ARCHS"] = arch
        if _run_logged(["bash", os.path.join(course_root, "grader/tools/dist-student.sh"), src],
                       log, env=env) != 0:
            raise RuntimeError(f"making the student copy failed; see {log}")
    else:
        # Already a student copy (what the students were given).
        shutil.copytree(course_root, src, ignore=lambda d, names: [
            n for n in names if n in SKIP_DIRS or (d == course_root and n.startswith("build"))])

    cmake = ["cmake", "-S", src, "-B", build, "-DCMAKE_BUILD_TYPE=Release",
             f"-DCMAKE_CUDA_ARCHITECTURES={arch}-real", "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON"]
    step("configuring it")
    if _run_logged(cmake, log, env=env) != 0:
        raise RuntimeError(f"configuring the course failed; see {log}")
    labs = labs_mod.discover(src)
    targets = [lab.check_target for lab in labs]
    step(f"building the graders of {len(targets)} labs with {jobs} jobs")
    if _run_logged(["cmake", "--build", build, "-j", str(jobs), "--target"] + targets,
                   log, env=env) != 0:
        raise RuntimeError(f"building the course's graders failed; see {log}")

    step("reading each lab's build recipe and rubric")
    info = {"fingerprint": fp, "src": src, "build": build, "arch": arch,
            "recipes": {}, "rubrics": {}}
    commands = read_json(os.path.join(build, "compile_commands.json"), [])
    for lab in labs:
        info["recipes"][lab.name] = _recipe(lab, build, commands)
        exe = info["recipes"][lab.name]["runner"]
        out = subprocess.run([exe, "--rubric"], capture_output=True, text=True, timeout=60)
        if out.returncode != 0:
            raise RuntimeError(f"{exe} --rubric failed: {out.stderr.strip()}")
        info["rubrics"][lab.name] = json.loads(out.stdout)
    write_json_atomic(os.path.join(cache, "course.json"), info)
    return Course(cache, info)


def _find_link_txt(build, target):
    for folder, dirs, files in os.walk(build):
        if os.path.basename(folder) == target + ".dir" and "link.txt" in files:
            return os.path.join(folder, "link.txt")
    raise RuntimeError(f"no link.txt for {target} under {build}")


def _recipe(lab, build, commands):
    """How lab N's student library and grader were built, to replay per
    submission: compiles (one per whitelisted file), archive tool, the
    link of the grader's test program; and the grader's runner."""
    library = f"lab{lab.number}_labs"
    compiles = []
    for entry in commands:
        if f"CMakeFiles/{library}.dir/" not in entry.get("output", entry["command"]):
            continue
        args = shlex.split(entry["command"])
        # Dependency files are CMake's business, not ours.
        cleaned, skip = [], 0
        for a in args:
            if skip:
                skip -= 1
                continue
            if a in ("-MT", "-MF"):
                skip = 1
                continue
            if a in ("-MD", "-MMD"):
                continue
            cleaned.append(a)
        rel = os.path.relpath(entry["file"], os.path.join(build, "..", "src"))
        compiles.append({"directory": entry["directory"], "args": cleaned,
                         "file": entry["file"], "relative": rel,
                         "output": entry.get("output") or _arg_after(cleaned, "-o")})
    if sorted(c["relative"] for c in compiles) != sorted(lab.files):
        raise RuntimeError(f"{library}: the compile commands cover "
                           f"{[c['relative'] for c in compiles]}, the lab folder has {lab.files}")
    archive_txt = _find_link_txt(build, library)
    link_txt = _find_link_txt(build, lab.tests_target)
    with open(archive_txt) as f:
        ar = shlex.split(f.readline())[0]
    recipe = {"compiles": compiles, "ar": ar, "library": f"lib{library}.a",
              "link_dir": os.path.dirname(os.path.dirname(os.path.dirname(link_txt))),
              "links": _link_lines(link_txt),
              # The runner is the course's own, run as built: only the test
              # program is linked with each submission.
              "runner": os.path.join(build, "bin", lab.check_target)}
    # Labs whose static checks read ptxas's report on the student's kernels
    # (KERNEL_RESOURCES) get it for each submission from the same script,
    # compiler, architecture and include path (build._write_kernel_resources).
    if os.path.exists(os.path.join(build, "bin", lab.tests_target + ".resources")):
        cache = _cmake_cache(build)
        recipe["resources"] = {
            "cmake": cache["CMAKE_COMMAND"], "nvcc": cache["CMAKE_CUDA_COMPILER"],
            "cxxfilt": cache["GRADER_CXXFILT"], "arch": cache["GRADER_RESOURCES_ARCH"],
            "script": os.path.join(build, "..", "src", "grader", "cmake",
                                   "WriteKernelResources.cmake"),
            "includes": _include_dirs(compiles[0]["args"], compiles[0]["directory"])}
    # A lab's race runner (labN_racecheck), which the grader's race check
    # runs from its own folder, is linked against the student's library too.
    runner = f"lab{lab.number}_racecheck"
    try:
        runner_txt = _find_link_txt(build, runner)
    except RuntimeError:
        return recipe
    recipe["race_runner"] = {"name": runner, "links": _link_lines(runner_txt)}
    return recipe


def _link_lines(link_txt):
    """The commands of a CMake link.txt, each split into its words."""
    with open(link_txt) as f:
        return [shlex.split(line) for line in f if line.strip()]


def _include_dirs(args, directory):
    """The -I folders of a compile command, those of its options files
    (--options-file, where CMake puts nvcc's include path) included."""
    found = []
    for i, a in enumerate(args):
        if a in ("--options-file", "-optf") and i + 1 < len(args):
            with open(os.path.join(directory, args[i + 1])) as f:
                found += _include_dirs(shlex.split(f.read()), directory)
        elif a == "-I" and i + 1 < len(args):
            found.append(args[i + 1])
        elif a.startswith("-I") and len(a) > 2:
            found.append(a[2:])
    return found


def _cmake_cache(build):
    """The build's CMakeCache.txt as {name: value}."""
    values = {}
    with open(os.path.join(build, "CMakeCache.txt")) as f:
        for line in f:
            name, sep, value = line.rstrip("\n").partition("=")
            if sep and not line.startswith(("#", "//")):
                values[name.partition(":")[0]] = value
    return values


def _arg_after(args, flag):
    return args[args.index(flag) + 1] if flag in args else None

