#!/usr/bin/env python3
"""The given code of each lab, the same in its skeleton and its solution.

Most of a skeleton, labs/labN_<topic>/<name>.cu, is code the student is
given; solutions/labN_<topic>/<name>.cu holds the same code, so a fix made
to one file must be made to the other: this check finds the ones that were not.

Each file is cut into pieces at its file-scope blank lines. A skeleton
piece is the student's when a comment in it starts with a TODO (as
check_todos.py defines one; a TODO comment alone in its piece gives the
next piece too); a heading when it is a comment alone opening with a rule
(`/* ---`, `/* ===`), and the opening comment is left out too: each file
words these for its own reader. Every other piece is given: the solution
must hold it byte for byte as a piece of its own (comments included, since
the handouts quote them), in the skeleton's order. The solution may add
pieces between them; code only the solution has cannot be told from an answer.

    check_given_code.py [--root DIR]   every lab; exit 1 on a difference
    check_given_code.py --self-test    made-up pairs: a given line changed
        in either file must be caught, an equal pair must pass
"""
import argparse
import difflib
import glob
import io
import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# The same C scanner, TODO definition and lab folders as the TODO check.
from check_todos import (DEFINING, SOURCE_EXTENSIONS, Lines, comment_body,  # noqa: E402
                         labs_of, scan_c)

HEADING = re.compile(r"^/\*\s*[-=]{4,}")
SHOWN = 12  # lines of a missing piece shown before "... more"


class Piece:
    def __init__(self, first):
        self.first = first  # 1-based line number in its file
        self.lines = []
        self.code = False  # holds something besides comments
        self.todo = False  # a comment in it starts with a TODO

    @property
    def text(self):
        return "\n".join(self.lines)

    def label(self):
        """Its first line of code (or its first line), to name it in a message."""
        for line in self.lines:
            words = line.strip()
            if words and not words.startswith(("/*", "*", "//")):
                return words
        return self.lines[0].strip()


def pieces_of(text):
    """The file cut at its file-scope blank lines, without its opening comment."""
    code, comments, _ = scan_c(text)
    lines = Lines(text)
    # A blank line inside a block comment does not cut.
    in_comment, todo_lines = set(), set()
    for start, end, body in comments:
        first, last = lines.line(start), lines.line(end - 1)
        in_comment.update(range(first + 1, last + 1))
        if DEFINING.match(comment_body(body)):
            todo_lines.add(first)
    opening = 0
    if comments and not text[:comments[0][0]].strip():
        opening = lines.line(comments[0][1] - 1)
    pieces, current, depth = [], None, 0
    for number, (line, code_line) in enumerate(zip(text.split("\n"), code.split("\n")), 1):
        if number > opening:
            if not line.strip() and depth == 0 and number not in in_comment:
                current = None
            else:
                if current is None:
                    current = Piece(number)
                    pieces.append(current)
                current.lines.append(line)
                current.code = current.code or bool(code_line.strip())
                current.todo = current.todo or number in todo_lines
        depth += code_line.count("{") - code_line.count("}")
    return pieces


def given_pieces(pieces):
    """The skeleton's given pieces: neither the student's nor headings."""
    given, after_todo_comment = [], False
    for piece in pieces:
        students = piece.todo or after_todo_comment
        after_todo_comment = piece.todo and not piece.code
        heading = not piece.code and HEADING.match(piece.lines[0].lstrip())
        if not students and not heading:
            given.append(piece)
    return given


def line_diff(skel, sol, skel_rel, sol_rel):
    """The lines where two pieces differ, each with its file and line number."""
    out = []
    a, b = skel.lines, sol.lines
    width = max(len(skel_rel), len(sol_rel)) + 6
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        for i in range(i1, i2):
            out.append(f"    {f'{skel_rel}:{skel.first + i}':<{width}} - {a[i]}")
        if i1 == i2:
            out.append(f"    {skel_rel:<{width}}   (no such line, before line {skel.first + i1})")
        for j in range(j1, j2):
            out.append(f"    {f'{sol_rel}:{sol.first + j}':<{width}} + {b[j]}")
        if j1 == j2:
            out.append(f"    {sol_rel:<{width}}   (no such line, before line {sol.first + j1})")
    return out


def compare(number, skel_rel, skel_text, sol_rel, sol_text):
    """Messages for one skeleton file against its solution file, and the
    number of given lines it holds."""
    given = given_pieces(pieces_of(skel_text))
    theirs = pieces_of(sol_text)
    name = os.path.basename(skel_rel)
    messages, missing = [], []
    # The given pieces the solution holds in the skeleton's order...
    in_order, used = set(), set()
    matcher = difflib.SequenceMatcher(None, [p.text for p in given], [p.text for p in theirs],
                                      autojunk=False)
    for a, b, size in matcher.get_matching_blocks():
        in_order.update(range(a, a + size))
        used.update(range(b, b + size))
    # ...then the rest: elsewhere in the solution, changed, or not there.
    for i, piece in enumerate(given):
        if i in in_order:
            continue
        elsewhere = next((j for j, other in enumerate(theirs)
                          if j not in used and other.text == piece.text), None)
        if elsewhere is None:
            missing.append(piece)
            continue
        used.add(elsewhere)
        messages.append(f"lab {number}, {name}: the given `{piece.label()}` "
                        f"({skel_rel}:{piece.first}) stands at {sol_rel}:"
                        f"{theirs[elsewhere].first}, out of the skeleton's order: move it back")
    for piece in missing:
        # The solution's closest piece of its own, to show what differs.
        best, score = None, 0.0
        for j, other in enumerate(theirs):
            if j in used:
                continue
            ratio = difflib.SequenceMatcher(None, piece.text, other.text,
                                            autojunk=False).ratio()
            if ratio > score:
                best, score = j, ratio
        if best is not None and score >= 0.6:
            used.add(best)
            other = theirs[best]
            messages.append(f"lab {number}, {name}: the given `{piece.label()}` differs between "
                            f"{skel_rel}:{piece.first} and {sol_rel}:{other.first}; make the fix "
                            "on the side that lacks it:")
            messages += line_diff(piece, other, skel_rel, sol_rel)
        else:
            messages.append(f"lab {number}, {name}: the given `{piece.label()}` "
                            f"({skel_rel}:{piece.first}-{piece.first + len(piece.lines) - 1}) "
                            f"is not in {sol_rel}:")
            for i, line in enumerate(piece.lines[:SHOWN]):
                messages.append(f"    {skel_rel}:{piece.first + i} - {line}")
            if len(piece.lines) > SHOWN:
                messages.append(f"    ... {len(piece.lines) - SHOWN} more lines")
    return messages, sum(len(p.lines) for p in given)


def check(root, out=sys.stdout):
    if not os.path.isdir(os.path.join(root, "solutions")):
        print(f"check_given_code: no solutions/ under {root} (a student copy has none): "
              "nothing to compare", file=out)
        return 1
    labs = labs_of(root)
    messages, files, lines = [], 0, 0
    for folder in labs:
        number = int(re.match(r"lab(\d+)_", os.path.basename(folder)).group(1))
        for path in sorted(p for p in glob.glob(os.path.join(folder, "*"))
                           if p.endswith(SOURCE_EXTENSIONS)):
            skel_rel = os.path.relpath(path, root).replace(os.sep, "/")
            sol_rel = "solutions/" + skel_rel[len("labs/"):]
            if not os.path.isfile(os.path.join(root, sol_rel)):
                messages.append(f"lab {number}, {os.path.basename(path)}: no {sol_rel} (a "
                                "skeleton file needs its solution of the same name, "
                                "docs/design.md section 6)")
                continue
            with open(path, encoding="utf-8") as f:
                skel_text = f.read()
            with open(os.path.join(root, sol_rel), encoding="utf-8") as f:
                sol_text = f.read()
            found, count = compare(number, skel_rel, skel_text, sol_rel, sol_text)
            messages += found
            files += 1
            lines += count
    for message in messages:
        print(message, file=out)
    differences = sum(1 for m in messages if m.startswith("lab "))
    if differences:
        print(f"check_given_code: {differences} difference{'' if differences == 1 else 's'} in "
              "the given code of the skeletons and the solutions", file=out)
        return 1
    print(f"check_given_code: {len(labs)} labs, {files} files: the given code ({lines} lines) "
          "is the same in each skeleton and its solution", file=out)
    return 0


# ------------------------------------------------------------------ self-test

# A made-up lab whose solution differs from its skeleton only where the rule
# allows: the opening comment, the headings, the functions holding a TODO, a
# helper of its own and the blank lines between pieces.
SKELETON = """\
/* Lab 9 - a made-up lab.
 *
 * Fill in the TODOs. */
#include "lab9.h"

/* ------------------------------------------------------------ helpers */

LAB_HOST_DEVICE int lab9_twice(int x)
{
    /* TODO(9.1): twice x. (handout section 1) */
    return 0;
}

/* TODO(9.2): the kernel. */
__global__ void lab9_kernel(int *x) {}

/* ------------------------------------------------------------------------
 * Entry points: written for you. */

/* No NULL: nothing is launched
 * when x is NULL. */
extern "C" lab_status lab9_run(int *x)
{
    if (!x)
        return lab_fail(LAB_ERR_NULL_POINTER, "lab9_run: x is NULL");

    lab9_kernel<<<1, 1>>>(x);
    return LAB_OK;
}

extern "C" int lab9_answer(void) { return 42; }
"""

SOLUTION = """\
/* Lab 9 - a made-up lab: reference solution. */
#include "lab9.h"

/* The answer's own helper. */
static LAB_HOST_DEVICE int add(int a, int b) { return a + b; }

LAB_HOST_DEVICE int lab9_twice(int x) { return add(x, x); }

/* Twice each element. */
__global__ void lab9_kernel(int *x)
{
    x[0] = lab9_twice(x[0]);
}

/* ------------------------------------------------------ entry points */

/* No NULL: nothing is launched
 * when x is NULL. */
extern "C" lab_status lab9_run(int *x)
{
    if (!x)
        return lab_fail(LAB_ERR_NULL_POINTER, "lab9_run: x is NULL");

    lab9_kernel<<<1, 1>>>(x);
    return LAB_OK;
}


extern "C" int lab9_answer(void) { return 42; }
"""

SKEL_REL = "labs/lab9_made_up/made_up.cu"
SOL_REL = "solutions/lab9_made_up/made_up.cu"


def self_test():
    failures = []

    def run(skeleton, solution):
        tmp = tempfile.mkdtemp(prefix="check_given_code.")
        try:
            for rel, text in ((SKEL_REL, skeleton), (SOL_REL, solution)):
                if text is None:
                    continue
                os.makedirs(os.path.dirname(os.path.join(tmp, rel)), exist_ok=True)
                with open(os.path.join(tmp, rel), "w", encoding="utf-8") as f:
                    f.write(text)
            os.makedirs(os.path.join(tmp, "solutions"), exist_ok=True)
            buf = io.StringIO()
            rc = check(tmp, out=buf)
            return rc, buf.getvalue()
        finally:
            shutil.rmtree(tmp, ignore_errors=True)

    def expect(what, skeleton, solution, rc_wanted, *wanted):
        rc, output = run(skeleton, solution)
        missing = [w if isinstance(w, str) else w.pattern for w in wanted
                   if (w not in output if isinstance(w, str) else not w.search(output))]
        if rc != rc_wanted or missing:
            failures.append(f"{what}: exit {rc} (wanted {rc_wanted}), missing {missing!r} "
                            f"in:\n{output}")
        else:
            print(f"ok: {what} (exit {rc})")

    def edit(text, old, new):
        assert text.count(old) == 1, old
        return text.replace(old, new)

    line = lambda text, words: text[:text.index(words)].count("\n") + 1

    def shown(rel, number, sign, text):
        """A line of a message's diff: file:line, padding, - or +, the line."""
        return re.compile(re.escape(f"{rel}:{number}") + " +" + re.escape(sign + " " + text))

    message = '        return lab_fail(LAB_ERR_NULL_POINTER, "lab9_run: x is NULL");'
    changed = message.replace("x is NULL", "x is a NULL pointer")

    expect("an equal pair, answers, helpers and headings aside, passes", SKELETON, SOLUTION, 0,
           "the given code (")
    # A given line changed in the solution: both files, both lines, both line numbers.
    expect("a given line changed in the solution is caught", SKELETON,
           edit(SOLUTION, message, changed), 1,
           "lab 9, made_up.cu: the given `extern \"C\" lab_status lab9_run(int *x)` differs",
           shown(SKEL_REL, line(SKELETON, message), "-", message),
           shown(SOL_REL, line(SOLUTION, message), "+", changed))
    expect("a given line changed in the skeleton is caught", edit(SKELETON, message, changed),
           SOLUTION, 1, shown(SKEL_REL, line(SKELETON, message), "-", changed),
           shown(SOL_REL, line(SOLUTION, message), "+", message))
    expect("a given comment changed is caught",
           edit(SKELETON, " * when x is NULL. */", " * when x is NULL (checked first). */"),
           SOLUTION, 1, "+  * when x is NULL. */")
    expect("a line only the solution's given function has is caught", SKELETON,
           edit(SOLUTION, "    return LAB_OK;\n}\n\n\n", "    LAB_LAUNCH_CHECK();\n"
                "    return LAB_OK;\n}\n\n\n"), 1, "+     LAB_LAUNCH_CHECK();",
           f"(no such line, before line {line(SKELETON, '    return LAB_OK;')})")
    expect("a blank line inside a given function is compared", SKELETON,
           edit(SOLUTION, "NULL\");\n\n", "NULL\");\n"), 1, "lab9_run")
    answer_line = line(SKELETON, "extern \"C\" int lab9_answer")
    expect("a given function missing from the solution is caught", SKELETON,
           edit(SOLUTION, "extern \"C\" int lab9_answer(void) { return 42; }\n", ""), 1,
           "the given `extern \"C\" int lab9_answer(void) { return 42; }` "
           f"({SKEL_REL}:{answer_line}-{answer_line}) is not in")
    moved = edit(SOLUTION, '#include "lab9.h"\n', "") + '\n#include "lab9.h"\n'
    expect("given code out of the skeleton's order is caught", SKELETON, moved, 1,
           f"the given `#include \"lab9.h\"` ({SKEL_REL}:{line(SKELETON, '#include')}) stands at "
           f"{SOL_REL}:{line(moved, '#include')}, out of the skeleton's order")
    expect("the student's functions (TODO) may differ", edit(SKELETON, "    return 0;\n",
                                                              "    return -1;\n"), SOLUTION, 0)
    expect("a TODO comment alone above its function gives that function to the student",
           edit(SKELETON, "the kernel. */\n", "the kernel. */\n\n"), SOLUTION, 0)
    expect("a skeleton file without its solution is caught", SKELETON, None, 1,
           f"lab 9, made_up.cu: no {SOL_REL} (a skeleton file needs its solution")
    for failure in failures:
        print("FAILED " + failure)
    said = (f"{len(failures)} failures" if failures else
            "every difference was caught, the equal pair passed")
    print(f"check_given_code --self-test: {said}")
    return 1 if failures else 0


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--self-test", action="store_true", help="check the check on made-up pairs")
    parser.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                       "..", ".."))
    args = parser.parse_args(argv)
    if args.self_test:
        return self_test()
    return check(os.path.abspath(args.root))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
