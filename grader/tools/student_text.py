#!/usr/bin/env python3
"""The student copy's text (grader/tools/dist-student.sh): what the course
repository says to instructors stays out of it, and nothing it names is missing.

  student_text.py makefile IN OUT   the copy's Makefile: the course's without
                                    its "# >>> course only" ... "# <<< course only"
                                    blocks; each target those blocks define says,
                                    in one line, that it is not in a student copy
  student_text.py readme IN OUT [--labs "1 2"]
                                    the copy's README.md: the course's without its
                                    <!-- course only --> ... <!-- /course only -->
                                    blocks, and with its <!-- student copy ... -->
                                    comments shown; with --labs, without the
                                    table rows of the other labs
  student_text.py links COPY        rewrites, in every .md file of COPY, each
                                    Markdown link to a file the copy lacks into
                                    its text alone, and each `path/of/a/file`
                                    it lacks (a grader source, in a copy with
                                    compiled graders) into "the course's
                                    `file`"; lists what it rewrote
  student_text.py check COPY        exit 1, naming each, if a .md file of COPY
                                    links to, or names in `code` as a path of the
                                    course, a file the copy lacks
  student_text.py --self-test

One marker convention for both files keeps a single source of truth: the
course's Makefile and README are what instructors read, and the copy's are
cut from them, so neither is kept twice by hand.
"""
import os
import re
import sys

MAKE_BEGIN, MAKE_END = "# >>> course only", "# <<< course only"
MD_BEGIN, MD_END = "<!-- course only -->", "<!-- /course only -->"
MD_STUDENT = "<!-- student copy"

# A make rule's targets: "a b c:" or "a b:: ...", not "x := y" or "x ?= y".
RULE = re.compile(r"^([^\s#:=][^:=]*?)\s*::?(?![=])")
LINK = re.compile(r"\[([^\]]*)\]\(([^)\s]+)\)")
# `path` in a Markdown text that names one of the course's files or folders.
CODE_PATH = re.compile(r"`((?:labs|common|handouts|grader|solutions|docs)/[A-Za-z0-9_./-]*)`")


def cut_blocks(lines, begin, end, where):
    """The lines outside begin ... end blocks, and those inside."""
    kept, cut, inside = [], [], False
    for number, line in enumerate(lines, 1):
        marker = line.strip()
        if marker == begin:
            if inside:
                raise SystemExit(f"{where}:{number}: {begin} inside another block")
            inside = True
        elif marker == end:
            if not inside:
                raise SystemExit(f"{where}:{number}: {end} without {begin}")
            inside = False
        elif inside:
            cut.append(line)
        else:
            kept.append(line)
    if inside:
        raise SystemExit(f"{where}: {begin} never closed")
    return kept, cut


def student_makefile(text, where="Makefile"):
    kept, cut = cut_blocks(text.splitlines(), MAKE_BEGIN, MAKE_END, where)
    targets = []
    for line in cut:
        found = RULE.match(line)
        if found and not line.startswith("\t"):
            for name in found.group(1).split():
                if name.startswith(".") or "$(" in name or name in targets:
                    continue
                targets.append(name)
    # $(error): make's one line ("Makefile:N: *** ...  Stop."), status 2.
    say = ("\t$(error make $@ is not in this student copy: it is a target of the course"
           " repository, for instructors; make help lists yours)")
    names = [t for t in targets if "%" not in t]
    patterns = [t for t in targets if "%" in t]
    tail = [
        "",
        "# Written by grader/tools/dist-student.sh: the course repository's targets",
        "# that a student copy has not, each answered in one line.",
    ]
    if names:
        tail += [".PHONY: " + " ".join(names), " ".join(names) + ":", say]
    for pattern in patterns:  # one rule each: a rule of several patterns is one recipe
        tail += [pattern + ":", say]
    tail += [
        "",
        "# Any other name: one line, not make's own message.",
        ".DEFAULT:",
        "\t$(error make $@: no such target or file here; make help lists the targets)",
    ]
    return "\n".join(kept + tail) + "\n"


def student_readme(text, where="README.md", labs=None):
    """labs: the lab numbers a copy releases (make dist-student LABS=...);
    a table row of another lab ("| 3 | ...") is left out."""
    kept, _ = cut_blocks(text.splitlines(), MD_BEGIN, MD_END, where)
    out, showing = [], False
    for line in kept:
        row = re.match(r"^\| *([0-9]+) *\|", line)
        if labs is not None and row and row.group(1) not in labs:
            continue
        if line.strip() == MD_STUDENT:
            showing = True
        elif showing and line.strip() == "-->":
            showing = False
        else:
            out.append(line)
    if showing:
        raise SystemExit(f"{where}: {MD_STUDENT} never closed")
    text = "\n".join(out) + "\n"
    return re.sub(r"\n{3,}", "\n\n", text)


def markdown_files(copy):
    for folder, dirs, files in os.walk(copy):
        dirs[:] = [d for d in dirs if not d.startswith(".") and not d.startswith("build")]
        for name in sorted(files):
            if name.endswith(".md"):
                yield os.path.join(folder, name)


def link_target(path, target):
    """The file a relative link points to, or None for a web link or an anchor."""
    if re.match(r"^[a-z]+:", target) or target.startswith("#"):
        return None
    return os.path.normpath(os.path.join(os.path.dirname(path), target.split("#")[0]))


def names_one_file(named):
    """Whether a path in `code` names one file: a pattern (labN_<topic>,
    *.cu) names none, and a folder alone (`solutions/`, which the copy says
    it lacks) is no reference to a file."""
    return not re.search(r"labN|[<>*]|\bN\b", named) and "." in named.rsplit("/", 1)[-1]


def rewrite_links(copy):
    rewritten = []
    for path in markdown_files(copy):
        with open(path, encoding="utf-8") as f:
            text = f.read()

        def unlink(found):
            target = link_target(path, found.group(2))
            if target is None or os.path.exists(target):
                return found.group(0)
            rewritten.append(f"{os.path.relpath(path, copy)}: {found.group(2)}")
            return found.group(1)

        def unpath(found):
            named = found.group(1).rstrip("./")
            if not names_one_file(named) or os.path.exists(os.path.join(copy, named)):
                return found.group(0)
            rewritten.append(f"{os.path.relpath(path, copy)}: `{found.group(1)}`")
            return f"the course's `{os.path.basename(named)}`"

        new = CODE_PATH.sub(unpath, LINK.sub(unlink, text))
        if new != text:
            with open(path, "w", encoding="utf-8") as f:
                f.write(new)
    return rewritten


def dead_references(copy):
    dead = []
    for path in markdown_files(copy):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        where = os.path.relpath(path, copy)
        for found in LINK.finditer(text):
            target = link_target(path, found.group(2))
            if target is not None and not os.path.exists(target):
                dead.append(f"{where}: link to {found.group(2)}")
        for found in CODE_PATH.finditer(text):
            named = found.group(1).rstrip("./")
            if not names_one_file(named):
                continue
            if not os.path.exists(os.path.join(copy, named)):
                dead.append(f"{where}: names `{found.group(1)}`")
    return dead


def self_test():
    make = ("all: x\n# >>> course only\n#   make calibrate  (instructors)\n"
            "calibrate check-solution-lab%: build\n\t@run\nX := 1\n# <<< course only\nx:\n\ttrue\n")
    out = student_makefile(make)
    assert "@run" not in out and "(instructors)" not in out, out
    assert "\ncalibrate:\n" in out and "\ncheck-solution-lab%:\n" in out, out
    assert "X := 1" not in out and "x:\n\ttrue" in out, out
    readme = ("a\n<!-- course only -->\nsecret\n<!-- /course only -->\n"
              "<!-- student copy\nyours\n-->\nb\n")
    assert student_readme(readme) == "a\nyours\nb\n", student_readme(readme)
    table = "| # | x |\n|---|---|\n| 1 | a |\n| 3 | c |\n"
    assert student_readme(table, labs=["1", "2"]) == "| # | x |\n|---|---|\n| 1 | a |\n"
    for bad in ("# >>> course only\n", "# <<< course only\n"):
        try:
            student_makefile(bad)
        except SystemExit:
            continue
        raise AssertionError(f"an unbalanced block was accepted: {bad!r}")
    import tempfile
    with tempfile.TemporaryDirectory() as copy:
        os.makedirs(os.path.join(copy, "handouts"))
        os.makedirs(os.path.join(copy, "labs"))
        open(os.path.join(copy, "labs", "x.cu"), "w").close()
        page = os.path.join(copy, "handouts", "a.md")
        with open(page, "w") as f:
            f.write("see [the guide](../docs/instructors.md), [x](../labs/x.cu), `labs/x.cu`,\n"
                    "points in `grader/lab1/lab1_grader.c`, all of `solutions/`\n")
        assert len(dead_references(copy)) == 2, dead_references(copy)
        assert len(rewrite_links(copy)) == 2
        with open(page) as f:
            text = f.read()
        assert text == ("see the guide, [x](../labs/x.cu), `labs/x.cu`,\n"
                        "points in the course's `lab1_grader.c`, all of `solutions/`\n"), text
        assert dead_references(copy) == []
    print("student_text.py: self-test passed")


def main(argv):
    if argv[1:] == ["--self-test"]:
        self_test()
        return 0
    if len(argv) == 6 and argv[1] == "readme" and argv[4] == "--labs":
        with open(argv[2], encoding="utf-8") as f:
            text = f.read()
        with open(argv[3], "w", encoding="utf-8") as f:
            f.write(student_readme(text, argv[2], argv[5].split()))
        return 0
    if len(argv) == 4 and argv[1] in ("makefile", "readme"):
        with open(argv[2], encoding="utf-8") as f:
            text = f.read()
        make = student_makefile if argv[1] == "makefile" else student_readme
        with open(argv[3], "w", encoding="utf-8") as f:
            f.write(make(text, argv[2]))
        return 0
    if len(argv) == 3 and argv[1] == "links":
        for line in rewrite_links(argv[2]):
            print(f"unlinked (not in the copy): {line}")
        return 0
    if len(argv) == 3 and argv[1] == "check":
        dead = dead_references(argv[2])
        for line in dead:
            print(f"dead: {line}")
        return 1 if dead else 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
