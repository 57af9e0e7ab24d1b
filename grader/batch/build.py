"""Builds one lab of one submission by replaying the course build's recipe
(course.py): compile the student's files with the exact flags CMake used,
archive them as the lab's library, and link the lab's grader from the
shared build's objects and libraries with that library swapped in. Nothing
of the shared build is written to; everything new lands in `workdir`."""
import os
import shlex

from . import runner

COMPILE_LIMIT_S = 300   # a template bomb must not stall the batch
LINK_LIMIT_S = 120
LOG_CAP = 256 << 10     # compiler errors beyond this are noise


def _expand_response_files(args, cwd):
    out = []
    for a in args:
        if a.startswith("@") and os.path.isfile(os.path.join(cwd, a[1:])):
            with open(os.path.join(cwd, a[1:])) as f:
                out += shlex.split(f.read())
        else:
            out.append(a)
    return out


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


def build_lab(recipe, staged, workdir, sandbox, readonly, log_path):
    """staged: relative whitelisted path -> the student's file (inside
    workdir). Returns (executable or None, message)."""
    objects = []
    os.makedirs(os.path.join(workdir, "obj"), exist_ok=True)
    for i, step in enumerate(recipe["compiles"]):
        obj = os.path.join(workdir, "obj", "%d_%s.o" % (i, os.path.basename(step["relative"])))
        args = []
        after_o = False
        for a in step["args"]:
            if after_o:
                args.append(obj)
                after_o = False
            elif a == step["file"]:
                args.append(staged[step["relative"]])
            else:
                args.append(a)
                after_o = a == "-o"
        with open(log_path, "ab") as log:
            log.write(("== compiling %s\n" % step["relative"]).encode())
        res = runner.run(sandbox.wrap(args, workdir, readonly, cwd=step["directory"]), log_path,
                         cwd=step["directory"],
                         timeout=COMPILE_LIMIT_S, cap=LOG_CAP)
        if res.rc != 0 or res.timed_out:
            return None, "%s did not compile (%s)" % (step["relative"], res.describe())
        objects.append(obj)

    library = os.path.join(workdir, recipe["library"])
    if os.path.exists(library):
        os.unlink(library)
    res = runner.run([recipe["ar"], "qc", library] + objects, log_path, timeout=LINK_LIMIT_S)
    if res.rc != 0:
        return None, "archiving the lab's library failed (%s)" % res.describe()

    exe = os.path.join(workdir, "grader")
    res = _link(recipe["links"], exe, library, recipe, workdir, sandbox, readonly, log_path,
                "the grader")
    if res.rc != 0 or res.timed_out:
        return None, "the grader did not link with this code (%s)" % res.describe()
    race = recipe.get("race_runner")
    if race:
        # Next to the grader, under the name it was built with: the race
        # check looks there. If it does not link, the grader still runs and
        # its race check fails, saying the runner is missing.
        _link(race["links"], os.path.join(workdir, race["name"]), library, recipe, workdir,
              sandbox, readonly, log_path, "the race runner %s" % race["name"])
    return exe, "built"


def _link(lines, output, library, recipe, workdir, sandbox, readonly, log_path, what):
    """Replays a link recipe with the output and the lab's library swapped."""
    res = None
    for line in lines:
        args = _without_dependency_file(_expand_response_files(line, recipe["link_dir"]))
        swapped = []
        after_o = False
        for a in args:
            if after_o:
                swapped.append(output)
                after_o = False
            elif os.path.basename(a) == recipe["library"]:
                swapped.append(library)
            else:
                swapped.append(a)
                after_o = a == "-o"
        with open(log_path, "ab") as log:
            log.write(("== linking %s\n" % what).encode())
        res = runner.run(sandbox.wrap(swapped, workdir, readonly, cwd=recipe["link_dir"]), log_path,
                         cwd=recipe["link_dir"], timeout=LINK_LIMIT_S, cap=LOG_CAP)
        if res.rc != 0 or res.timed_out:
            return res
    return res
