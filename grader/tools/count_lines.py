#!/usr/bin/env python3
"""Lines of code in the repository, per area: every file git tracks that is
C, CUDA, a header, Python, CMake, shell or Make (make count-lines; ctest
tools.count_lines runs it).

A file's kind comes from its name (a scaffold template's trailing ".in" is
dropped first: rubric.h.in is a header), or for a file without an extension
from its "#!" line. Its area is its folder's first two components
(grader/batch, labs/lab4_transpose_bank_conflicts, solutions/variants), so a
new folder is a new row without any list to edit; the top folders' subtotals
follow. Lab 8 is set aside: a path containing "lab8" is counted apart and
left out of the totals, which are the whole tree and the tree outside
solutions/ (what a maintainer reads beside the reference answers). Each
total is split into blank lines, comment-only lines and the rest, the code:
a line comment of the file's kind, a /* */ block or a Python docstring is a
comment line (a scan of lines, not a parser: close enough for a split).

    count_lines.py [--rev REV] [--repo DIR]

--rev counts the files of a commit (read from git, not from disk), so that
two trees can be compared: count_lines.py --rev f7f8275."""
import argparse
import os
import subprocess
import sys
from collections import defaultdict

KINDS = ("C", "CUDA", "header", "Python", "CMake", "shell", "Make")
BY_SUFFIX = {".c": "C", ".cu": "CUDA", ".cuh": "header", ".h": "header", ".hpp": "header",
             ".py": "Python", ".cmake": "CMake", ".sh": "shell", ".bash": "shell",
             ".sbatch": "shell", ".mk": "Make"}
BY_NAME = {"CMakeLists.txt": "CMake", "Makefile": "Make", "GNUmakefile": "Make"}
SET_ASIDE = "lab8"
C_FAMILY = ("C", "CUDA", "header")


def kind_of(path, first_line):
    """The file's kind (one of KINDS), or None when it is not code we count."""
    name = os.path.basename(path)
    if name.endswith(".in"):
        name = name[:-3]
    if name in BY_NAME:
        return BY_NAME[name]
    stem, suffix = os.path.splitext(name)
    if suffix:
        return BY_SUFFIX.get(suffix)
    if first_line.startswith(b"#!"):
        if b"python" in first_line:
            return "Python"
        if any(s in first_line for s in (b"/sh", b"bash", b" sh")):
            return "shell"
    return None


def area_of(path):
    """The folder's first two components; files at the top: "(top)"."""
    folders = path.split("/")[:-1]
    return "/".join(folders[:2]) + "/" if folders else "(top)"


def tracked_files(repo, rev):
    """(path, bytes) of every tracked file, from the work tree or from `rev`."""
    def git(*args, **kw):
        return subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True,
                              **kw).stdout
    if rev is None:
        for path in git("ls-files", "-z").decode().split("\0"):
            full = os.path.join(repo, path)
            if path and os.path.isfile(full) and not os.path.islink(full):
                with open(full, "rb") as f:
                    yield path, f.read()
        return
    listing = git("ls-tree", "-r", "-z", rev).decode().split("\0")
    blobs = [(line.split("\t", 1)[1], line.split()[2]) for line in listing
             if line and line.split()[1] == "blob" and not line.startswith("120000")]
    # One git process for every blob: "<sha> blob <size>\n<bytes>\n" each.
    out = git("cat-file", "--batch", input="".join(f"{sha}\n" for _, sha in blobs).encode())
    at = 0
    for path, _ in blobs:
        header_end = out.index(b"\n", at)
        size = int(out[at:header_end].split()[2])
        yield path, out[header_end + 1:header_end + 1 + size]
        at = header_end + 1 + size + 1


def lines_in(data):
    """Lines as wc -l counts them, plus a last line without its newline."""
    return data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)


def blank_and_comment(kind, data):
    """(blank lines, comment-only lines) of a file of `kind`."""
    blank = comment = 0
    closing = None  # the end of the block comment or docstring a line is inside
    text = data.decode("utf-8", "replace")
    for line in text.split("\n")[:lines_in(data)]:
        s = line.strip()
        if closing:
            comment += 1
            closing = None if closing in s else closing
        elif not s:
            blank += 1
        elif s.startswith("//" if kind in C_FAMILY else "#"):
            comment += 1
        elif kind in C_FAMILY and s.startswith("/*"):
            comment += 1
            closing = None if "*/" in s[2:] else "*/"
        elif kind == "Python" and s.startswith(('"""', 'r"""')):
            comment += 1
            closing = None if s.count('"""') > 1 else '"""'
    return blank, comment


def count(repo, rev):
    """{area: {kind: [files, lines, blank, comment]}} and the same for what lab 8 holds."""
    areas = defaultdict(lambda: defaultdict(lambda: [0, 0, 0, 0]))
    aside = defaultdict(lambda: [0, 0, 0, 0])
    for path, data in tracked_files(repo, rev):
        kind = kind_of(path, data.split(b"\n", 1)[0])
        if kind is None:
            continue
        cell = aside[kind] if SET_ASIDE in path else areas[area_of(path)][kind]
        cell[0] += 1
        cell[1] += lines_in(data)
        blank, comment = blank_and_comment(kind, data)
        cell[2] += blank
        cell[3] += comment
    return areas, aside


def row(label, kinds, width):
    files = sum(v[0] for v in kinds.values())
    lines = sum(v[1] for v in kinds.values())
    cells = "".join(f"{kinds[k][1] if k in kinds else 0:>8}" for k in KINDS)
    return f"{label:<{width}}{files:>7}{lines:>8}{cells}"


def report(areas, aside, where):
    width = max([len(a) for a in areas] + [24]) + 2
    head = f"{'area':<{width}}{'files':>7}{'lines':>8}" + "".join(f"{k:>8}" for k in KINDS)
    print(f"Lines of C, CUDA, header, Python, CMake, shell and Make files tracked by git "
          f"({where}), lab 8 aside")
    print(head)
    for area in sorted(areas):
        print(row(area, areas[area], width))
    tops = defaultdict(lambda: defaultdict(lambda: [0, 0, 0, 0]))
    for area, kinds in areas.items():
        for k, counts in kinds.items():
            cell = tops[area.split("/")[0] + "/" if "/" in area else area][k]
            for i, n in enumerate(counts):
                cell[i] += n
    print(f"\n{'top folder':<{width}}{'files':>7}{'lines':>8}" + "".join(f"{k:>8}" for k in KINDS))
    for top in sorted(tops):
        print(row(top, tops[top], width))
    def total(where):
        cells = [v for a, kinds in areas.items() if where(a) for v in kinds.values()]
        lines, blank, comment = (sum(v[i] for v in cells) for i in (1, 2, 3))
        return (f"{lines} lines ({lines - blank - comment} code, {comment} comment-only, "
                f"{blank} blank)")
    print(f"\nwhole tree, lab 8 aside: {total(lambda a: True)}")
    print(f"outside solutions/, lab 8 aside: {total(lambda a: not a.startswith('solutions/'))}")
    print(f"lab 8 (paths containing \"{SET_ASIDE}\", not in the totals): "
          f"{sum(v[1] for v in aside.values())} lines")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rev", help="count this commit's files instead of the work tree's")
    ap.add_argument("--repo", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                   "..", ".."))
    args = ap.parse_args()
    try:
        areas, aside = count(args.repo, args.rev)
    except subprocess.CalledProcessError as e:
        sys.exit(f"count_lines: git failed ({e.stderr.decode().strip()}): run it in a clone "
                 f"of the repository")
    report(areas, aside, f"at {args.rev}" if args.rev else "work tree")
    return 0


if __name__ == "__main__":
    sys.exit(main())
