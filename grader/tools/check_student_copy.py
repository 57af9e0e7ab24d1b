#!/usr/bin/env python3
"""Prove, line by line, that a student copy (make dist-student) holds no answer.

  check_student_copy.py --course REPO --archs "90" [--graders source] COPY
  check_student_copy.py --self-test

Checks (each failure is named, with file and line):
  1. nothing outside the whitelist's kind: no solutions/, grader/batch,
     grader/tests, grader/measure, grader/bench, docs/ (the instructors' guide);
  2. no solution-only line in any text file: a line of 24 or more characters
     (stripped) of an answer file under REPO/solutions/ (its C, CUDA, header,
     CMake and template files: the references, the answer helpers, the
     variants' FIND/REPLACE data, the measurement programs' kernels, the
     scaffold's template answer) that appears in no file of REPO/labs/ or
     REPO/common/ (what students are given anyway). With --graders source
     the graders' C and CUDA sources are shipped on purpose, and their
     reference models share such lines (docs/design.md section 5.3): those
     are counted and reported, not failed; anywhere else they fail;
  3. no PTX: every ELF object, alone or in an ar archive, holds SASS only,
     and each object with GPU code under grader/prebuilt/ (the answer
     libraries, the compiled graders) exactly one SASS image per
     architecture in --archs; no PTX as text (a .target line);
  4. with --graders compiled, no grader source at all;
  5. with --labs "1 2" (make dist-student LABS=...), no file of another lab.
Prints the copy's file count. The build folders a test makes inside the copy
(build*/) are not the copy and are skipped. Exit status 1 on any failure.
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fatbin_images  # noqa: E402  (the .nv_fatbin reader dist-student.sh uses)

MIN_LINE = 24
ANSWER_SUFFIXES = (".c", ".cu", ".cuh", ".h", ".cmake", ".in")
GRADER_SOURCE_SUFFIXES = (".c", ".cu", ".cuh", ".h")
LEFT_OUT = ("solutions", "grader/batch", "grader/tests", "grader/measure", "grader/bench",
            "docs")


def copy_files(root):
    for folder, dirs, files in os.walk(root):
        if folder == root:
            dirs[:] = [d for d in dirs if not d.startswith("build")]
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for name in files:
            path = os.path.join(folder, name)
            yield os.path.relpath(path, root), path


def text_of(path):
    """The file's text, or None for a binary (a NUL byte or not UTF-8)."""
    with open(path, "rb") as f:
        data = f.read()
    if b"\0" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def long_lines(text):
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if len(line) >= MIN_LINE:
            yield number, line


def lines_under(root, suffixes=None):
    found = set()
    for rel, path in copy_files(root):
        if suffixes and not rel.endswith(suffixes):
            continue
        text = text_of(path)
        if text is not None:
            found.update(line for _, line in long_lines(text))
    return found


def solution_only_lines(course):
    answers = lines_under(os.path.join(course, "solutions"), ANSWER_SUFFIXES)
    given = lines_under(os.path.join(course, "labs")) | lines_under(os.path.join(course, "common"))
    return answers - given


def ar_members(data):
    """(name, bytes) of each member of an ar archive."""
    at = 8
    while at + 60 <= len(data):
        name = data[at:at + 16].decode(errors="replace").strip()
        size = int(data[at + 48:at + 58].decode().strip())
        yield name, data[at + 60:at + 60 + size]
        at += 60 + size + (size & 1)


def gpu_images(elf):
    """(kind, sm) of each GPU image an ELF object embeds (none: empty)."""
    if elf[4:5] != b"\x02":
        return []
    section = fatbin_images.section(elf, ".nv_fatbin")
    return list(fatbin_images.images(section)) if section else []


LAB_PATH = re.compile(r"(^|[/_-])lab([0-9]+)([/_.-])")


def check(course, copy, archs, graders, labs=None):
    problems, allowed = [], []
    for rel in LEFT_OUT:
        if os.path.exists(os.path.join(copy, rel)):
            problems.append(f"{rel}/ is in the copy")
    only = solution_only_lines(course)
    want = sorted(("sass", int(a)) for a in archs.split())
    count = 0
    for rel, path in copy_files(copy):
        count += 1
        of_lab = LAB_PATH.search(rel)
        if labs is not None and of_lab and of_lab.group(2) not in labs:
            problems.append(f"{rel}: lab {of_lab.group(2)} is not released in this copy")
        text = text_of(path)
        if text is not None:
            is_grader_source = rel.startswith("grader/") and rel.endswith(GRADER_SOURCE_SUFFIXES) \
                and not rel.startswith("grader/prebuilt/")
            if graders == "compiled" and is_grader_source:
                problems.append(f"{rel}: grader source in a copy with compiled graders")
            for number, line in long_lines(text):
                if line.startswith(".target sm_"):
                    problems.append(f"{rel}:{number}: PTX ({line})")
                if line in only:
                    if graders == "source" and is_grader_source:
                        allowed.append(f"{rel}:{number}")
                    else:
                        problems.append(f"{rel}:{number}: a solution-only line: {line[:80]}")
            continue
        with open(path, "rb") as f:
            data = f.read()
        if data.startswith(b"!<arch>\n"):
            members = list(ar_members(data))
        elif data.startswith(b"\x7fELF"):
            members = [(os.path.basename(rel), data)]
        else:
            continue
        for name, member in members:
            if not member.startswith(b"\x7fELF"):
                continue
            found = gpu_images(member)
            if any(kind != "sass" for kind, _ in found):
                problems.append(f"{rel}({name}): holds PTX: {found}")
            # Every member with GPU code (a grader's C object has none) holds
            # exactly one SASS image per architecture the copy was made for.
            if rel.startswith("grader/prebuilt/") and found and sorted(found) != want:
                problems.append(f"{rel}({name}): images {sorted(found)}, expected SASS for {archs}")
    return count, allowed, problems


def self_test():
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        course, copy = os.path.join(tmp, "course"), os.path.join(tmp, "copy")
        answer = "    return block_idx.x * block_dim.x + thread_idx.x;\n"
        given = "    lab_status status = lab_check_extents(n, 1, 1);\n"
        files = {
            "course/solutions/lab1_x/x.cu": given + answer,
            "course/labs/lab1_x/x.cu": given + "    return 0;\n",
            "copy/labs/lab1_x/x.cu": given + "    return 0;\n",
            "copy/handouts/lab1.md": "text\n" + answer,
            "copy/grader/lab1/lab1_cpu_checks.c": answer,
        }
        for rel, text in files.items():
            os.makedirs(os.path.dirname(os.path.join(tmp, rel)), exist_ok=True)
            with open(os.path.join(tmp, rel), "w") as f:
                f.write(text)
        count, allowed, problems = check(course, copy, "90", "source")
        assert count == 3, count
        assert allowed == ["grader/lab1/lab1_cpu_checks.c:1"], allowed
        assert len(problems) == 1 and problems[0].startswith("handouts/lab1.md:2:"), problems
        _, _, problems = check(course, copy, "90", "compiled")
        assert len(problems) == 3, problems  # the grader's source, its line, the handout's line
        _, _, problems = check(course, copy, "90", "source", labs=["2"])
        assert sum("not released" in p for p in problems) == 3, problems
    print("check_student_copy.py: self-test passed")


def main():
    if sys.argv[1:] == ["--self-test"]:
        self_test()
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--course", required=True)
    parser.add_argument("--archs", required=True)
    parser.add_argument("--graders", choices=("source", "compiled"), default="source")
    parser.add_argument("--labs", help="the lab numbers the copy releases")
    parser.add_argument("copy")
    args = parser.parse_args()
    labs = args.labs.split() if args.labs else None
    count, allowed, problems = check(args.course, args.copy, args.archs, args.graders, labs)
    print(f"student copy: {count} files")
    if allowed:
        files = len({a.split(":")[0] for a in allowed})
        print(f"student copy: {len(allowed)} solution-only lines in {files} grader source files "
              "(GRADERS=source ships them: docs/design.md section 5.3)")
    for problem in problems:
        print(f"FAIL: {problem}")
    if problems:
        return 1
    print("student copy: no solution-only line" + (" outside them" if allowed else "") +
          ", no PTX, nothing left out got in")
    return 0


if __name__ == "__main__":
    sys.exit(main())
