#!/usr/bin/env python3
"""Keep each lab's TODOs in step across its three places.

For every lab folder labs/labN_<topic>/ (found, never listed here):

  - labN.h, the contract, may name only TODOs that the skeleton has;
  - the skeleton (every .cu/.c/.cpp/.cuh file of the folder) must have
    exactly the TODOs of the handout's TODO table (handouts/labN-*.md, the
    markdown table whose first column is headed "TODO");
  - each TODO must sit in a function the table's "where" column names:
    in the skeleton, the function around the TODO comment, or the next one
    defined or declared after it; in labN.h, the next declaration after the
    comment, which must also be a function the skeleton's TODO sits in;
    and every function the table names must hold a mention of that TODO;
  - every `--only NAME` of the handout (its "check now" commands) must name
    a test of grader/labN/labN_grader.c.
  - every "section N" or "section N.M" that the lab's grader sources
    (grader/labN/*.c, *.h) or its labs/ folder cite must be a heading of
    its handout (a citation of design.md, grading.md or another lab's
    handout, named just before it, is not the handout's).

A TODO is defined by a comment that starts with it (`/* TODO(7.2): ...`,
`/* TODO(7.1, continued): ...`); other mentions (`... as in TODO(2.4)`,
`TODO(3.1)-(3.8)`, messages in strings) are references and must name a
TODO that is defined. A handout without a TODO table is compared through
the TODOs its text names, with a note (an error with --strict).

    check_todos.py [ROOT] [--strict] [--verbose]
    check_todos.py [ROOT] --self-test

Prints one line per mismatch, `path:line: TODO(N.M): what differs`, and
exits 1; exits 0 with a one-line summary when every lab agrees.
--self-test copies ROOT's labs and handouts into a temporary folder,
renumbers TODOs (and a cited section) there in several ways, and checks
that each is caught.
"""
import bisect
import glob
import os
import re
import shutil
import sys
import tempfile

SOURCE_EXTENSIONS = (".cu", ".cuh", ".c", ".cc", ".cpp")
IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*$")
# Words that can stand before a parenthesis without being a function name.
NOT_FUNCTIONS = {
    "if", "for", "while", "switch", "return", "sizeof", "alignof", "alignas",
    "decltype", "static_assert", "__launch_bounds__", "__align__",
    "__attribute__", "__declspec", "defined", "typeof", "catch",
}
TRAILING_QUALIFIERS = {"const", "noexcept", "override", "final", "volatile"}
# One TODO id, or a range: TODO(2.5)-(2.9), `TODO(4.1)`-`(4.3)`.
TODO_ID = re.compile(r"TODO\((\d+)\.(\d+)")
TODO_RANGE = re.compile(r"TODO\((\d+)\.(\d+)\)`?\s*[-\u2013]\s*`?\((\d+)\.(\d+)\)")
DEFINING = re.compile(r"^TODO\((\d+)\.(\d+)\b")


def tid(lab, sub):
    return (int(lab), int(sub))


def dotted(todo):
    """(3, 2) as "3.2"."""
    return f"{todo[0]}.{todo[1]}"


def fmt(todo):
    return f"TODO({dotted(todo)})"


class Lines:
    """Offsets to 1-based line numbers."""

    def __init__(self, text):
        self.starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]

    def line(self, offset):
        return bisect.bisect_right(self.starts, offset)


def scan_c(text):
    """Split C/C++/CUDA text into code (comments, strings and preprocessor
    lines blanked to spaces, newlines kept), comments and string literals,
    each as (start offset, end offset, text)."""
    code = list(text)
    comments, strings = [], []
    i, n = 0, len(text)
    at_line_start = True

    def blank(a, b):
        for j in range(a, b):
            if code[j] != "\n":
                code[j] = " "

    while i < n:
        ch = text[i]
        if ch == "/" and text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            comments.append((i, end, text[i:end]))
            blank(i, end)
            i = end
            continue
        if ch == "/" and text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            comments.append((i, end, text[i:end]))
            blank(i, end)
            i = end
            continue
        if ch in "\"'":
            j = i + 1
            while j < n and text[j] != ch and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            end = min(j + 1, n)
            if ch == '"':
                strings.append((i, end, text[i + 1:end - 1]))
            blank(i, end)
            i = end
            at_line_start = False
            continue
        if ch == "#" and at_line_start:
            # A preprocessor line, with its continuations; comments inside
            # it are still collected on the next passes of the loop.
            j = i
            while j < n:
                if text[j] == "\n" and text[j - 1] != "\\":
                    break
                if text.startswith("/*", j) or text.startswith("//", j):
                    break
                j += 1
            blank(i, j)
            i = j
            continue
        if ch == "\n":
            at_line_start = True
        elif not ch.isspace():
            at_line_start = False
        i += 1
    return "".join(code), comments, strings


def function_name(head):
    """The name a function definition or declaration head declares
    (`__global__ void __launch_bounds__(256, 2) kernel(int n)` -> kernel),
    or None when the head declares no function."""
    head = head.strip()
    if not head or head.startswith("typedef") or head.startswith("using "):
        return None
    words = head.split()
    while words and words[-1] in TRAILING_QUALIFIERS:
        words.pop()
    head = " ".join(words)
    if not head.endswith(")"):
        return None
    depth = 0
    for k in range(len(head) - 1, -1, -1):
        if head[k] == ")":
            depth += 1
        elif head[k] == "(":
            depth -= 1
            if depth == 0:
                break
    else:
        return None
    before = head[:k].rstrip()
    if "=" in before.replace("==", ""):
        return None  # an initialised variable, not a function
    m = re.search(r"([A-Za-z_][A-Za-z0-9_]*)$", before)
    if not m or m.group(1) in NOT_FUNCTIONS:
        return None
    if not before[:m.start()].strip():
        return None  # a call or macro on its own, no return type
    return m.group(1)


def functions_of(code):
    """Function definitions and declarations at file scope (inside extern
    "C" and namespace blocks too): a list of (name, head start, end offset,
    is_definition)."""
    found = []
    stack = []  # kinds of open braces: "scope", "function", "other"
    boundary = 0

    def head_start(a, b):
        k = a
        while k < b and code[k].isspace():
            k += 1
        return k

    in_scope = lambda: all(kind == "scope" for kind in stack)
    i, n = 0, len(code)
    pending = {}  # depth -> (name, start) of a function whose body is open
    while i < n:
        ch = code[i]
        if ch == "{":
            if in_scope():
                head = code[boundary:i]
                words = head.split()
                name = function_name(head)
                if name:
                    stack.append("function")
                    pending[len(stack)] = (name, head_start(boundary, i))
                elif not words or words[0] in ("extern", "namespace"):
                    stack.append("scope")
                else:
                    stack.append("other")
            else:
                stack.append("other")
            boundary = i + 1
        elif ch == "}":
            depth = len(stack)
            kind = stack.pop() if stack else "scope"
            if kind == "function" and depth in pending:
                name, start = pending.pop(depth)
                found.append((name, start, i + 1, True))
            boundary = i + 1
        elif ch == ";":
            if in_scope():
                name = function_name(code[boundary:i])
                if name:
                    found.append((name, head_start(boundary, i), i + 1, False))
            boundary = i + 1
        i += 1
    found.sort(key=lambda f: f[1])
    return found


def comment_body(comment):
    """The words of a comment without its markers."""
    body = comment
    if body.startswith("//"):
        body = body[2:]
    elif body.startswith("/*"):
        body = body[2:]
        if body.endswith("*/"):
            body = body[:-2]
    return body.lstrip(" \t*\n")


def ids_in(text):
    """Every TODO id a text names, ranges expanded."""
    out = set()
    for m in TODO_ID.finditer(text):
        out.add(tid(m.group(1), m.group(2)))
    for m in TODO_RANGE.finditer(text):
        lab, lo, lab2, hi = (int(g) for g in m.groups())
        if lab == lab2 and lo <= hi:
            out.update((lab, k) for k in range(lo, hi + 1))
    return out


class Source:
    """One C/CUDA file: its TODO definitions (with the function each sits
    in), its references, its functions."""

    def __init__(self, path, rel, header):
        with open(path, encoding="utf-8", errors="replace") as f:
            self.text = f.read()
        self.rel = rel
        self.lines = Lines(self.text)
        code, comments, strings = scan_c(self.text)
        self.functions = functions_of(code)
        self.defined_names = {f[0] for f in self.functions}
        self.definitions = []  # (todo, line, function or None)
        self.mentions = []  # (todo, line, enclosing or next function or None)
        for start, end, text in comments + strings:
            fn = self._function_for(start, end, header)
            for todo in sorted(ids_in(text)):
                self.mentions.append((todo, self.lines.line(start), fn))
        for start, end, text in comments:
            m = DEFINING.match(comment_body(text))
            if m:
                todo = tid(m.group(1), m.group(2))
                self.definitions.append((todo, self.lines.line(start),
                                         self._function_for(start, end, header)))

    def _function_for(self, start, end, header):
        if not header:
            for name, a, b, is_def in self.functions:
                if is_def and a <= start < b:
                    return name
        for name, a, b, is_def in self.functions:
            if a >= end:
                return name
        return None


def parse_handout_table(path):
    """The handout's TODO table: {todo: (line, [names in `where`])}, and a
    list of problems (duplicate rows); None when it has no TODO table."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    rows, problems, seen_table = {}, [], False

    def cells(line):
        return [c.strip() for c in line.strip().strip("|").split("|")]

    i = 0
    while i < len(lines):
        line = lines[i]
        head = cells(line) if line.lstrip().startswith("|") else []
        if head and head[0].strip("`* ").lower() == "todo":
            seen_table = True
            lower = [h.strip("`* ").lower() for h in head]
            where = lower.index("where") if "where" in lower else None
            i += 2  # the header and its |---| row
            while i < len(lines) and lines[i].lstrip().startswith("|"):
                row = cells(lines[i])
                bare = re.findall(r"(?<![\d.])(\d+)\.(\d+)(?![\d.])", row[0])
                todos = ids_in(row[0]) | {tid(*m) for m in bare}
                names = []
                if where is not None and where < len(row):
                    names = [w for w in re.findall(r"`([^`]+)`", row[where]) if IDENT.match(w)]
                if not todos:
                    problems.append((i + 1, None, "a row of the TODO table names no TODO"))
                for todo in sorted(todos):
                    if todo in rows:
                        problems.append((i + 1, todo, "listed twice in the TODO table "
                                         f"(also line {rows[todo][0]})"))
                    rows[todo] = (i + 1, names)
                i += 1
            continue
        i += 1
    return (rows if seen_table else None), problems


def handout_mentions(path):
    """{todo: first line} of every TODO a handout's text names."""
    out = {}
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            for todo in ids_in(line):
                out.setdefault(todo, number)
    return out


def matches(function, names):
    """Does a function match a name of the table (`_b_element` abbreviates
    the name before it: any function ending so)?"""
    return any(function == w or (w.startswith("_") and function.endswith(w)) for w in names)


def check_lab(root, folder, strict):
    """Mismatch lines and notes for one lab; and its TODO count."""
    problems, notes = [], []
    number = int(re.match(r"lab(\d+)_", os.path.basename(folder)).group(1))
    rel = lambda p: os.path.relpath(p, root)
    say = lambda path, line, todo, what: problems.append(
        f"{path}:{line}: {fmt(todo) if todo else 'TODO'}: {what}")

    header_path = os.path.join(folder, f"lab{number}.h")
    sources = sorted(p for p in glob.glob(os.path.join(folder, "*"))
                     if p.endswith(SOURCE_EXTENSIONS))
    handouts = sorted(glob.glob(os.path.join(root, "handouts", f"lab{number}-*.md")))
    if not os.path.isfile(header_path):
        problems.append(f"{rel(folder)}: no lab{number}.h, the lab's contract")
    if not sources:
        problems.append(f"{rel(folder)}: no skeleton source (.cu, .c, .cpp)")
    if len(handouts) != 1:
        problems.append(f"handouts/lab{number}-*.md: {len(handouts)} handouts match, expected "
                        "exactly one")
    if problems:
        return problems, notes, 0
    handout = handouts[0]
    header = Source(header_path, rel(header_path), header=True)
    skeleton = [Source(p, rel(p), header=False) for p in sources]

    # Everything must be this lab's.
    for src in [header] + skeleton:
        for todo, line, _ in src.mentions:
            if todo[0] != number:
                say(src.rel, line, todo, f"names another lab's TODO in lab {number}")

    # The skeleton's TODOs: where each is defined, and in which functions.
    defined = {}  # todo -> [(file, line, function)]
    mentioned_in = {}  # todo -> functions holding any mention of it
    for src in skeleton:
        for todo, line, fn in src.definitions:
            defined.setdefault(todo, []).append((src.rel, line, fn))
        for todo, line, fn in src.mentions:
            if fn:
                mentioned_in.setdefault(todo, set()).add(fn)
    for src in skeleton:
        for todo, line, _ in src.mentions:
            if todo[0] == number and todo not in defined:
                say(src.rel, line, todo, "is named here but no comment of the skeleton "
                    "starts with it (a renumbered TODO?)")

    # labN.h names only TODOs of the skeleton.
    for todo, line, _ in header.mentions:
        if todo[0] == number and todo not in defined:
            say(header.rel, line, todo, f"is in {os.path.basename(header.rel)} but not in the "
                f"skeleton ({', '.join(s.rel for s in skeleton)})")

    table, table_problems = parse_handout_table(handout)
    for line, todo, what in table_problems:
        say(rel(handout), line, todo, what)
    if table is None:
        listed = {todo: (line, []) for todo, line in handout_mentions(handout).items()
                  if todo[0] == number}
        message = ("has no TODO table (a markdown table whose first column is headed TODO; "
                   "docs/design.md, section 6, item 10): compared the TODOs its text names, "
                   "without the functions")
        if strict:
            problems.append(f"{rel(handout)}: {message}")
        else:
            notes.append(f"note: {rel(handout)} {message}")
    else:
        listed = table

    # The skeleton's set equals the table's.
    for todo in sorted(defined):
        if todo not in listed:
            path, line, _ = defined[todo][0]
            say(path, line, todo, f"is in the skeleton but not in {rel(handout)}'s TODO "
                + ("table" if table is not None else "mentions"))
    for todo in sorted(listed):
        if todo not in defined:
            say(rel(handout), listed[todo][0], todo,
                "is in the handout's TODO table but no skeleton comment starts with it")

    # The functions.
    known = set().union(*(s.defined_names for s in skeleton)) | header.defined_names
    for todo in sorted(set(defined) & set(listed)):
        names = listed[todo][1]
        if not names:
            continue
        for path, line, fn in defined[todo]:
            if fn is None:
                say(path, line, todo, "sits in no function; the handout's table names "
                    + ", ".join(names))
            elif not matches(fn, names):
                say(path, line, todo, f"sits in {fn}; the handout's table (line "
                    f"{listed[todo][0]}) names {', '.join(names)}")
        holders = mentioned_in.get(todo, set())
        for w in names:
            targets = [f for f in known if matches(f, [w])]
            if targets and not any(f in holders for f in targets):
                say(rel(handout), listed[todo][0], todo,
                    f"the table names {w}, but no mention of {fmt(todo)} sits in "
                    f"{' or '.join(sorted(targets))} in the skeleton")
    skeleton_names = set().union(*(s.defined_names for s in skeleton))
    for todo, line, fn in header.definitions:
        sits_in = {f for _, _, f in defined.get(todo, [])}
        if todo in defined and fn in skeleton_names and fn not in sits_in:
            places = ", ".join(sorted(f or "no function" for f in sits_in))
            say(header.rel, line, todo, f"comes before the declaration of {fn}, but the "
                f"skeleton's {fmt(todo)} sits in {places}")
        if todo in listed and listed[todo][1] and fn and not matches(fn, listed[todo][1]):
            say(header.rel, line, todo, f"comes before the declaration of {fn}; the handout's "
                f"table (line {listed[todo][0]}) names {', '.join(listed[todo][1])}")
    # The handout's "check now" commands run tests the lab's grader has
    # (--only NAME; a misspelt name would run nothing and pass nothing).
    grader_file = os.path.join(root, "grader", f"lab{number}", f"lab{number}_grader.c")
    if os.path.isfile(grader_file):
        with open(grader_file, encoding="utf-8") as f:
            tests = set(re.findall(r"GRADER_[A-Z_]+\(\s*(\w+)", f.read()))
        with open(handout, encoding="utf-8") as f:
            for i, text in enumerate(f, 1):
                for name in re.findall(r"--only (\w+)", text):
                    if name not in tests:
                        problems.append(f"{rel(handout)}:{i}: --only {name}: no such test in "
                                        f"{rel(grader_file)}")
    problems += cited_sections(root, number, handout)
    return problems, notes, len(defined)


# "section 8.3" in a grader's message or a skeleton's comment sends the
# student to their lab's handout; a citation of another document names it
# just before (design.md, grading.md, "lab 4's handout", "lab 3, section").
SECTION = re.compile(r"\bsection (\d+(?:\.\d+)?)")
OTHER_DOCUMENT = re.compile(r"(design|grading)|[Ll]ab \d+'s handout|[Ll]ab \d+, $")


def own_citations(text):
    """The `section N` matches of text that cite the lab's own handout."""
    return [m for m in SECTION.finditer(text)
            if not OTHER_DOCUMENT.search(text[max(0, m.start() - 80):m.start()])]


def cited_sections(root, number, handout):
    """A problem per citation of a section the lab's handout has no heading for."""
    with open(handout, encoding="utf-8") as f:
        headings = {m.group(1) for m in re.finditer(r"^#{2,4} (\d+(?:\.\d+)*)\.? ", f.read(),
                                                    re.M)}
    sources = (glob.glob(os.path.join(root, "grader", f"lab{number}", "*.[ch]")) +
               glob.glob(os.path.join(root, "labs", f"lab{number}_*", "*")))
    problems = []
    for path in sorted(sources):
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        for m in own_citations(text):
            if m.group(1) in headings:
                continue
            line = text.count("\n", 0, m.start()) + 1
            problems.append(f"{os.path.relpath(path, root)}:{line}: cites section "
                            f"{m.group(1)}, which {os.path.relpath(handout, root)} has no "
                            "heading for")
    return problems


def labs_of(root):
    return sorted((p for p in glob.glob(os.path.join(root, "labs", "lab*_*"))
                   if os.path.isdir(p) and re.match(r"lab\d+_", os.path.basename(p))),
                  key=lambda p: int(re.match(r"lab(\d+)_", os.path.basename(p)).group(1)))


def check(root, strict=False, verbose=False, out=sys.stdout):
    labs = labs_of(root)
    if not labs:
        print(f"check_todos: no labs/lab*_*/ folder under {root}", file=out)
        return 1
    problems, total = [], 0
    for folder in labs:
        found, notes, count = check_lab(root, folder, strict)
        problems += found
        total += count
        for note in notes:
            print(note, file=out)
        if verbose:
            print(f"{os.path.basename(folder)}: {count} TODOs, {len(found)} mismatches",
                  file=out)
    for line in problems:
        print(line, file=out)
    if problems:
        print(f"check_todos: {len(problems)} mismatches between labN.h, the skeletons and the "
              "handouts' TODO tables", file=out)
        return 1
    print(f"check_todos: {len(labs)} labs, {total} TODOs: every labN.h, skeleton and handout "
          "TODO table agree", file=out)
    return 0


# ------------------------------------------------------------------ self-test

def self_test(root):
    """Renumber TODOs in copies of ROOT's labs and handouts, for every lab;
    each change must be caught, and the untouched copy must pass."""
    import io

    labs = labs_of(root)
    if not labs:
        print(f"check_todos --self-test: no labs under {root}")
        return 1
    failures, caught = [], 0

    def run(tmp):
        buf = io.StringIO()
        rc = check(tmp, out=buf)
        return rc, buf.getvalue()

    def fresh():
        tmp = tempfile.mkdtemp(prefix="check_todos.")
        shutil.copytree(os.path.join(root, "labs"), os.path.join(tmp, "labs"))
        shutil.copytree(os.path.join(root, "handouts"), os.path.join(tmp, "handouts"),
                        ignore=shutil.ignore_patterns("figures", "results", "*.png"))
        for grader_file in glob.glob(os.path.join(root, "grader", "lab*", "*.[ch]")):
            rel_grader = os.path.relpath(grader_file, root)
            os.makedirs(os.path.dirname(os.path.join(tmp, rel_grader)), exist_ok=True)
            shutil.copy(grader_file, os.path.join(tmp, rel_grader))
        return tmp

    def rewrite(tmp, rel, line, pattern, replacement):
        """Replace the first match of pattern on one line of a file."""
        path = os.path.join(tmp, rel)
        with open(path, encoding="utf-8") as f:
            text = f.read().split("\n")
        text[line - 1] = re.sub(pattern, replacement, text[line - 1], 1)
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(text))

    def number_re(todo):
        return rf"(?<![\d.]){todo[0]}\.{todo[1]}(?![\d])"

    def expect(name, edits, must_contain):
        """Each edit (file, line, pattern, replacement) made in a fresh copy:
        the check must fail with a line holding must_contain."""
        nonlocal caught
        tmp = fresh()
        for edit in edits:
            rewrite(tmp, *edit)
        rc, output = run(tmp)
        shutil.rmtree(tmp, ignore_errors=True)
        if rc != 1 or must_contain not in output:
            failures.append(f"{name}: not caught (exit {rc}, wanted a line with "
                            f"{must_contain!r}):\n{output}")
        else:
            caught += 1
            print(f"caught: {name}")

    tmp = fresh()
    rc, output = run(tmp)
    shutil.rmtree(tmp, ignore_errors=True)
    if rc != 0:
        print("check_todos --self-test: the tree itself does not pass:\n" + output)
        return 1

    for folder in labs:
        base = os.path.basename(folder)
        number = int(re.match(r"lab(\d+)_", base).group(1))
        handout = sorted(glob.glob(os.path.join(root, "handouts", f"lab{number}-*.md")))[0]
        rel_handout = os.path.relpath(handout, root)
        rel_header = os.path.join("labs", base, f"lab{number}.h")
        rel_skel = [os.path.join("labs", base, os.path.basename(p))
                    for p in sorted(glob.glob(os.path.join(folder, "*")))
                    if p.endswith(SOURCE_EXTENSIONS)][0]
        table, _ = parse_handout_table(handout)
        skel = Source(os.path.join(root, rel_skel), rel_skel, header=False)
        header = Source(os.path.join(root, rel_header), rel_header, header=True)
        todos = sorted({t for t, _, _ in skel.definitions})
        if len(todos) < 2:
            continue
        unused = (number, todos[-1][1] + 1)

        # 1. The skeleton's last TODO comment renumbered to a free number.
        todo, line, _ = skel.definitions[-1]
        expect(f"{rel_skel}:{line} {fmt(todo)} renumbered {fmt(unused)}",
               [(rel_skel, line, number_re(todo), dotted(unused))], fmt(unused))

        # 2. A skeleton TODO comment renumbered onto another TODO's number:
        # the two sets may still agree, the functions do not.
        if table:
            first = todos[0]
            move = next(((t, l) for t, l, f in skel.definitions
                         if t != first and not matches(f or "", table[first][1])), None)
            if move:
                expect(f"{rel_skel}:{move[1]} {fmt(move[0])} renumbered {fmt(first)}, an "
                       "existing number", [(rel_skel, move[1], number_re(move[0]), dotted(first))],
                       fmt(first))

        # 3. labN.h's first TODO shifted by one (the drift lab 7 once had).
        if header.definitions:
            todo, line, fn = header.definitions[0]
            shifted = (number, todo[1] + 1)
            if fn in {f for t, _, f in skel.definitions if t == shifted}:
                shifted = unused  # the next TODO sits in the same function
            expect(f"{rel_header}:{line} {fmt(todo)} renumbered {fmt(shifted)}",
                   [(rel_header, line, number_re(todo), dotted(shifted))], fmt(shifted))

        if not table:
            continue
        # 4. Two rows of the handout's table swap their numbers.
        pair = next(((a, b) for a, b in zip(todos, todos[1:])
                     if table.get(a) and table.get(b) and table[a][1] != table[b][1]), None)
        if pair:
            a, b = pair
            expect(f"{rel_handout}: the rows of {fmt(a)} and {fmt(b)} swapped",
                   [(rel_handout, table[a][0], number_re(a), dotted(b)),
                    (rel_handout, table[b][0], number_re(b), dotted(a))], "the handout's table")

        # 5. The table's last row dropped.
        last = max(table)
        expect(f"{rel_handout}: the row of {fmt(last)} removed",
               [(rel_handout, table[last][0], r"^.*$", "")], fmt(last))

        # 6. A "check now" command's test misspelt.
        with open(handout, encoding="utf-8") as f:
            only = next(((i, m.group(1)) for i, text in enumerate(f, 1)
                         for m in [re.search(r"--only (\w+)", text)] if m), None)
        if only:
            expect(f"{rel_handout}:{only[0]}: --only {only[1]} misspelt",
                   [(rel_handout, only[0], r"--only \w+", f"--only {only[1]}_typo")],
                   f"--only {only[1]}_typo: no such test")

        # 7. A section the grader cites renumbered in the handout.
        cited = None
        for path in sorted(glob.glob(os.path.join(root, "grader", f"lab{number}", "*.[ch]"))):
            with open(path, encoding="utf-8") as f:
                found = own_citations(f.read())
            if found:
                cited = found[0].group(1)
                break
        if cited:
            with open(handout, encoding="utf-8") as f:
                heading = next((i for i, text in enumerate(f, 1)
                                if re.match(rf"#{{2,4}} {re.escape(cited)}\.? ", text)), None)
            if heading:
                expect(f"{rel_handout}:{heading}: section {cited} renumbered",
                       [(rel_handout, heading, rf"{re.escape(cited)}(?=\.? )", "99")],
                       f"cites section {cited}")

    if failures:
        for failure in failures:
            print("FAILED " + failure)
        print(f"check_todos --self-test: {len(failures)} renumberings went unnoticed, "
              f"{caught} caught")
        return 1
    print(f"check_todos --self-test: all {caught} renumberings in {len(labs)} labs were caught")
    return 0


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    flags = {a for a in argv if a.startswith("--")}
    unknown = flags - {"--strict", "--verbose", "--self-test", "--help"}
    if "--help" in flags and not unknown:
        print(__doc__.strip())
        return 0
    if unknown or len(args) > 1:
        print("usage: check_todos.py [ROOT] [--strict] [--verbose] | [ROOT] --self-test "
              "(--help says more)", file=sys.stderr)
        return 2
    root = os.path.abspath(args[0] if args else
                           os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    if "--self-test" in flags:
        return self_test(root)
    return check(root, strict="--strict" in flags, verbose="--verbose" in flags)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
