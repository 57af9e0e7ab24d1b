"""Builds one lab of one submission by replaying the course build's recipe
(course.py): compile the student's files with the exact flags CMake used,
archive them as the lab's library, and link the lab's grader from the
shared build's objects and libraries with that library swapped in. Nothing
of the shared build is written to; everything new lands in `workdir`.

Every step runs as the graders do: sandboxed, as the lab's pool uid, in
the graders' clean environment, with limits on memory, file size and time
(`#include "/etc/gshadow"` reads nothing; a recursive include runs out of
memory, not the machine). A step that fails because the course is broken
(a recipe input gone) is an InfraError: the batch stops, and never records
"did not build"."""
import collections
import os
import shutil
import stat
import subprocess
from dataclasses import dataclass
from typing import List, Optional

from . import object_review, runner, symbols

COMPILE_LIMIT_S = 300   # a template bomb must not stall the batch
LINK_LIMIT_S = 120
LOG_CAP = 256 << 10     # compiler errors beyond this are noise
FOLDER_FULL = 124       # _run_step's status for a step that filled the lab's folder
# The review list's flag for symbol_findings (docs/instructors.md: review list).
SYMBOL_FLAG = "symbol of the grader, harness or a library defined or weakly reached"
OBJECT_FLAG = "compiled code reaches past the lab (a call no lab needs, a raw system call, " \
              "code before main)"

# uid: the pool uid the steps run as (None: the batch's own user); env: the
# graders' clean environment; folder_bytes: what the lab's folder may hold
# after any step (max_file_bytes binds each file alone: a giant static array
# makes a large object, program and race runner all at once).
Limits = collections.namedtuple("Limits", "memory_bytes max_file_bytes tmp_bytes uid env "
                                          "folder_bytes")


class InfraError(RuntimeError):
    """The course's build is broken: no submission can be judged by it."""


def _course_inputs(args, cwd):
    """The paths a command reads from the course: the tool, its folder,
    options files (nvcc's --options-file, @file) and every input object,
    archive or library. Only their absence is judged, never the compiler's
    words, which a student's source can imitate."""
    paths = [cwd] + ([args[0]] if os.path.isabs(args[0]) else [])
    for i, a in enumerate(args[1:], 1):
        if a in ("--options-file", "-optf") and i + 1 < len(args):
            paths.append(os.path.join(cwd, args[i + 1]))
        elif a.startswith("@"):
            paths.append(os.path.join(cwd, a[1:]))
        elif os.path.isabs(a) and a.endswith((".o", ".a", ".so")) and "/obj/" not in a:
            paths.append(a)
    return paths


def _check_infra(args, cwd, what, own_files=()):
    """Raises InfraError when `what` failed because a file of the course's
    is gone (the shared build changed or vanished under the batch)."""
    missing = [p for p in _course_inputs(args, cwd) if p not in own_files and not os.path.exists(p)]
    if missing:
        raise InfraError(f"{what}: the course's {missing[0]} is missing (was the course cache "
                         "rebuilt or removed under this batch?)")


# The next students' builds run beside the graders on the GPU, whose tests
# spend CPU time in the CUDA driver (measured: handouts/results/
# h100-batch-grading-times.txt). The builds are ahead anyway: they yield.
BUILD_NICENESS = 10


def _run_step(sandbox, args, workdir, readonly, cwd, log_path, timeout, limits):
    """One compile, archive or link step, as the graders run, at a lower CPU
    priority than the graders (BUILD_NICENESS). The tool's own folder goes
    first on PATH: nvcc finds its host compiler there or in the system's.
    A step after which the folder holds more than limits.folder_bytes
    fails (exit status FOLDER_FULL), its outputs deleted."""
    env = dict(limits.env)
    if os.path.isabs(args[0]):
        env["PATH"] = os.path.dirname(args[0]) + ":" + env.get("PATH", "/usr/bin:/bin")
    res = runner.run(sandbox.wrap(args, workdir, readonly, cwd=cwd, uid=limits.uid,
                                  tmp_bytes=limits.tmp_bytes),
                     log_path, cwd=cwd, env=env, timeout=timeout, cap=LOG_CAP,
                     memory_bytes=limits.memory_bytes, max_file_bytes=limits.max_file_bytes,
                     niceness=BUILD_NICENESS, confine=sandbox.confinement)
    held = folder_bytes(workdir)
    if limits.folder_bytes and held > limits.folder_bytes:
        for folder, _dirs, files in os.walk(os.path.join(workdir, "obj")):
            for name in files:
                os.unlink(os.path.join(folder, name))
        with open(log_path, "ab") as log:
            log.write(f"the build's outputs came to {held >> 20} MiB, over the lab's "
                      f"{limits.folder_bytes >> 20} MiB\n".encode())
        return runner.Result(FOLDER_FULL, False, res.seconds, res.captured, res.dropped)
    return res


def folder_bytes(top):
    """Bytes of the files under `top` (links not followed)."""
    total = 0
    for folder, _dirs, files in os.walk(top):
        for name in files:
            try:
                total += os.lstat(os.path.join(folder, name)).st_size
            except OSError:
                pass
    return total


def _without_dependency_file(args):
    """Drops the linker's --dependency-file option: newer CMake (3.27 on the
    GPU machine) asks the linker to write CMakeFiles/<target>.dir/link.d
    next to the shared build, which is read-only here, and only CMake's own
    rebuilds read it."""
    out = []
    skip_next = False
    for i, a in enumerate(args):
        if skip_next:
            skip_next = False
            continue
        if a.startswith("-Wl,--dependency-file") or a.startswith("--dependency-file"):
            continue
        if a == "-Xlinker" and i + 1 < len(args) and args[i + 1].startswith("--dependency-file"):
            skip_next = True
            continue
        out.append(a)
    return out


def _other_link_inputs(recipe):
    """Every input of the grader's link but the student's library
    (link_inputs_from_argv reads the response files itself)."""
    return symbols.link_inputs_from_argv(recipe["links"][-1], recipe["link_dir"],
                                         exclude=[recipe["library"]])


def warm_symbol_cache(recipes):
    """Reads (nm) every non-student input of these labs' links into the
    symbol check's cache. Best effort: a failure shows up, with its reason,
    in the check itself."""
    for recipe in recipes:
        try:
            symbols.collisions([], _other_link_inputs(recipe))
        except (OSError, RuntimeError, ValueError):
            pass


def symbol_findings(objects, recipe):
    """The student's objects against every other input of the grader's
    link (symbols.py): names the student's code takes over from the harness,
    the grader, libc or cudart, and weak references into the grader; then
    what the objects reach for that no lab needs (object_review.py). A
    check that cannot run says so as a finding of its own."""
    try:
        inputs = _other_link_inputs(recipe)
        return [symbols.describe(f) for f in symbols.collisions(objects, inputs)] + \
            object_review.review(objects, object_review.contract_names(inputs))
    except (OSError, RuntimeError, ValueError, subprocess.SubprocessError) as e:
        return [f"the symbol check could not run: {e}"]


def flag_for(finding):
    """The review list's flag for one of symbol_findings' lines."""
    return OBJECT_FLAG if finding.startswith(object_review.PREFIX) else SYMBOL_FLAG


def _replayed(args, output, swap):
    """A recorded command line with the word after -o replaced by `output`
    and each other word for which swap(word) gives a replacement replaced."""
    out, after_o = [], False
    for a in args:
        if after_o:
            out.append(output)
            after_o = False
        else:
            new = swap(a)
            out.append(a if new is None else new)
            after_o = new is None and a == "-o"
    return out


def _write_new(path, data):
    """A new file, never through a link: the folder is the graders' user's."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
    with os.fdopen(fd, "wb") as f:
        f.write(data)


@dataclass
class BuildResult:
    """What building one lab of a submission gave."""
    exe: Optional[str]        # the grader's test program, None when the build failed
    message: str              # "built", or which step failed and how
    symbol_findings: List[str]  # symbols.describe() lines of what its objects define


def build_lab(recipe, staged, workdir, sandbox, readonly, log_path, limits) -> BuildResult:
    """staged: relative whitelisted path -> the student's file (inside
    workdir); limits: a Limits. Raises InfraError."""
    objects = []
    os.makedirs(os.path.join(workdir, "obj"), exist_ok=True)
    for i, step in enumerate(recipe["compiles"]):
        obj = os.path.join(workdir, "obj", f"{i}_{os.path.basename(step['relative'])}.o")
        args = _replayed(step["args"], obj,
                         lambda a: staged[step["relative"]] if a == step["file"] else None)
        with open(log_path, "ab") as log:
            log.write(f"== compiling {step['relative']}\n".encode())
        res = _run_step(sandbox, args, workdir, readonly, step["directory"], log_path,
                        COMPILE_LIMIT_S, limits)
        if res.rc != 0 or res.timed_out:
            _check_infra(args, step["directory"], f"compiling {step['relative']}")
            return BuildResult(None, f"{step['relative']} did not compile ({res.describe()})", [])
        objects.append(obj)
    findings = symbol_findings(objects, recipe)

    library = os.path.join(workdir, recipe["library"])
    if os.path.exists(library):
        os.unlink(library)
    res = _run_step(sandbox, [recipe["ar"], "qc", library] + objects, workdir, readonly, workdir,
                    log_path, LINK_LIMIT_S, limits)
    if res.rc != 0:
        _check_infra([recipe["ar"]], workdir, "archiving the lab's library")
        return BuildResult(None, f"archiving the lab's library failed ({res.describe()})",
                           findings)

    # The grader's test program; its runner is the course's (course.py).
    exe = os.path.join(workdir, "tests")
    res = _link(recipe["links"], exe, library, recipe, workdir, sandbox, readonly, log_path,
                "the grader's test program", limits)
    if res.rc != 0 or res.timed_out:
        return BuildResult(None, f"the grader did not link with this code ({res.describe()})",
                           findings)
    _write_student_symbols(library, exe + ".symbols")
    if recipe.get("resources"):
        _write_kernel_resources(recipe, staged, exe + ".resources", workdir, sandbox, readonly,
                                log_path, limits)
    race = recipe.get("race_runner")
    if race:
        # Next to the grader, under the name it was built with: the race
        # check looks there. If it does not link, the grader still runs and
        # its race check fails, saying the runner is missing.
        _link(race["links"], os.path.join(workdir, race["name"]), library, recipe, workdir,
              sandbox, readonly, log_path, f"the race runner {race['name']}", limits)
    return BuildResult(exe, "built", findings)


def _write_student_symbols(library, out):
    """<grader>.symbols, as CMake writes it (grader/cmake/WriteStudentSymbols.cmake):
    `nm -P` of the student's library, from which the harness tells the
    student's kernels from a library's (harness/checks/launch_watch.h). Without
    it the harness says the identity was not checked; so a failure here
    is the course's, not the student's."""
    proc = subprocess.run(["nm", "-P", library], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          timeout=LINK_LIMIT_S)
    if proc.returncode != 0:
        raise InfraError(f"nm -P {library} failed: {proc.stderr.decode(errors='replace')[:300]}")
    _write_new(out, proc.stdout)


STEP_OUTPUT_BYTES = 1 << 20  # a report of a few lines per kernel


def read_step_output(path):
    """The bytes a sandboxed step wrote at `path` (at most STEP_OUTPUT_BYTES),
    then the file removed; None when there is no regular file there. The
    folder is writable from the sandbox, so the file is opened without
    following a link or blocking on a FIFO, and judged by what was opened."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        data = None
    else:
        regular = stat.S_ISREG(os.fstat(fd).st_mode)
        if regular:
            with os.fdopen(fd, "rb") as f:
                data = f.read(STEP_OUTPUT_BYTES)
        else:
            os.close(fd)
            data = None
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path)
    elif os.path.lexists(path):
        os.unlink(path)
    return data


def _write_kernel_resources(recipe, staged, out, workdir, sandbox, readonly, log_path, limits):
    """<grader>.resources, as CMake writes it (grader/cmake/WriteKernelResources.cmake):
    ptxas's report on the student's kernels for the course's reference
    architecture, which the lab's static checks read (harness/checks/
    kernel_resources.h). A compile of the student's files, so sandboxed as
    theirs are; one that fails leaves an "# error:" line, which fails those
    checks saying why. The step writes beside it; the file is written here
    (_write_new)."""
    r = recipe["resources"]
    sources = "|".join(staged[step["relative"]] for step in recipe["compiles"])
    args = [r["cmake"], f"-DNVCC={r['nvcc']}", f"-DCXXFILT={r['cxxfilt']}",
            f"-DARCH={r['arch']}", f"-DSOURCES={sources}",
            "-DINCLUDES=" + "|".join(r["includes"]), f"-DOUT={out}.step", "-P", r["script"]]
    with open(log_path, "ab") as log:
        log.write(b"== the kernels' resources (ptxas)\n")
    res = _run_step(sandbox, args, workdir, readonly, workdir, log_path, COMPILE_LIMIT_S, limits)
    report = read_step_output(out + ".step")
    if report is None:
        # The course's tools gone: the batch stops. Otherwise the student's
        # code kept the compile from ending (a time or folder limit): the
        # checks fail saying so.
        _check_infra([r["cmake"], r["nvcc"], r["script"]], workdir,
                     "writing the kernels' resources")
        report = (f"# error: the compile for the report did not finish "
                  f"({res.describe()})\n").encode()
    _write_new(out, report)


def _link(lines, output, library, recipe, workdir, sandbox, readonly, log_path, what, limits):
    """Replays a link recipe with the output and the lab's library swapped."""
    res = None
    for line in lines:
        args = _without_dependency_file(symbols._expand_response_files(line, recipe["link_dir"]))
        swapped = _replayed(args, output,
                            lambda a: library if os.path.basename(a) == recipe["library"] else None)
        with open(log_path, "ab") as log:
            log.write(f"== linking {what}\n".encode())
        res = _run_step(sandbox, swapped, workdir, readonly, recipe["link_dir"], log_path,
                        LINK_LIMIT_S, limits)
        if res.rc != 0 or res.timed_out:
            _check_infra(swapped, recipe["link_dir"], f"linking {what}",
                         own_files=(library, output))
            return res
    return res
