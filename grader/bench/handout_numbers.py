#!/usr/bin/env python3
"""Handout numbers from the committed bench results and the graders' rubrics.

    handout_numbers.py --check handouts/*.md     (ctest handouts.numbers_match)
    handout_numbers.py --write handouts/*.md     (make handout-numbers)

Three kinds of marked text in a handout (HTML comments: invisible on GitHub):

  <!-- rubric: LAB2_SPEEDUP_OVER_UNCOALESCED_MIN -->6.0<!-- /rubric -->
      a threshold; must equal the #define in grader/labN/labN_rubric.h.
  <!-- bench: lab2.matmul.2048.naive.tflops -->6.73<!-- /bench -->
  <!-- bench@h200: 100 * lab3.matmul.2048.tiled.median_ms / lab3.matmul.2048.cublas.median_ms -->..
      a number (or, for gpu, date, cuda, driver, a word) from a committed
      bench file: quantity names and arithmetic (+ - * / and brackets) over
      them (results_file.py lists the names). Without @gpu: PRIMARY_GPU.
  <!-- result: [h100-lab5-divergence.txt > no atomic: > (b)/(a)] -->2.32<!-- /result -->
  <!-- result: [F > (c) t < s & no atomic #2] / [F > (d) i = & no atomic #2] -->1.29<!-- /result -->
      a number from a committed text file of handouts/results (a GPU
      session's log): each [FILE > ANCHOR > ANCHOR ... #N] is the Nth number
      (1 if no #N) after the last anchor, on the first line that holds it
      after the lines that held the anchors before it; A & B: a line that
      holds both, numbers counted after B (spaces compared collapsed);
      + - * / and brackets over them.
  <!-- bench-results: lab2 -->  ...  <!-- /bench-results -->
      a generated block: the lab's table and figure; rewritten whole.
  <!-- bench-summary -->  ...  <!-- /bench-summary -->
      the README's table: each lab's headline kernel and its grader's ratio.

The rounding rule: a quoted number agrees when the committed value, rounded
to as many decimals as the quote has, prints as the quote (6.73 quotes
6.7349; 6.7 quotes 6.66). --write keeps each quote's decimals.

While no bench file of a GPU is committed, the numbers quoted from it are
reported as pending (they cannot be checked) and its blocks must hold the
"not measured yet" text that --write puts there; thresholds are always
checked. A file in handouts/results that is not a real measurement (no
schema, or marked "fixture") is refused.
"""
import argparse
import ast
import glob
import operator
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import results_file  # noqa: E402
import results_tables  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The GPU the handouts quote unless a marker names another (bench@h200: ...).
PRIMARY_GPU = "h100"

INLINE = re.compile(r"<!-- (bench|rubric)(?:@([a-z0-9-]+))?: (.+?) -->(.*?)<!-- /\1 -->")
SUMMARY = re.compile(r"(<!-- bench-summary -->\n)(.*?)(<!-- /bench-summary -->)", re.S)
BLOCK = re.compile(r"(<!-- bench-results: (lab\d+) -->\n)(.*?)(<!-- /bench-results -->)", re.S)
QUANTITY = re.compile(r"\b(?:lab\d+(?:\.[A-Za-z0-9_]+){4}|gpu\.name|gpu|date|cuda|driver|"
                      r"ceiling\.[a-z_]+)\b")
NUMBER = re.compile(r"-?\d+(?:\.(\d+))?")
RESULT = re.compile(r"<!-- result: (.+?) -->(.*?)<!-- /result -->")
REFERENCE = re.compile(r"\[([^\]]+)\]")


def read_rubrics(root):
    """{NAME: value} of every numeric #define in grader/lab*/lab*_rubric.h."""
    values = {}
    for path in sorted(glob.glob(os.path.join(root, "grader", "lab*", "lab*_rubric.h"))):
        with open(path, encoding="utf-8") as f:
            for m in re.finditer(r"^#define\s+(\w+)\s+(?:CALIBRATED\(\w+,\s*)?\(?(-?[\d.]+(?:\s*<<\s*\d+)?)\)?\s*$",
                                 f.read(), re.M):
                text = m.group(2)
                values[m.group(1)] = (1 << int(text.split("<<")[1])) if "<<" in text \
                    else float(text)
    return values


class Results:
    """The committed bench files, by GPU slug prefix ('h100' finds
    bench-h100-80gb-hbm3.json)."""

    def __init__(self, folder, allow_fixtures=False):
        self.folder, self.cache, self.allow_fixtures = folder, {}, allow_fixtures

    def path(self, gpu):
        matches = sorted(glob.glob(os.path.join(self.folder, f"bench-{gpu}*.json")))
        if len(matches) > 1:
            raise ValueError(f"several bench files for {gpu}: {', '.join(matches)}")
        return matches[0] if matches else None

    def get(self, gpu):
        """(bench, path), or (None, None) when none is committed."""
        if gpu not in self.cache:
            path = self.path(gpu)
            bench = results_file.load(path) if path else None
            if bench is not None and not self.allow_fixtures and (bench.get("fixture") or
                                                                  "gpu" not in bench):
                raise ValueError(f"{path} is not a measurement (a test fixture or a "
                                 f"placeholder): handouts quote only real bench files")
            self.cache[gpu] = (bench, path)
        return self.cache[gpu]


_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
        ast.Div: operator.truediv}


def _arithmetic(expression, operand, value_of, allowed, negation):
    """`expression` with each match of the regex `operand` replaced by
    value_of(match), then + - * / and brackets over those and numbers (a
    leading minus only where `negation`); ValueError naming `allowed` for
    anything else."""
    names = {}

    def name_of(m):
        key = f"_v{len(names)}"
        names[key] = value_of(m)
        return key
    tree = ast.parse(operand.sub(name_of, expression.strip()), mode="eval")

    def walk(node):
        if isinstance(node, ast.Expression):
            return walk(node.body)
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
            return node.value
        if isinstance(node, ast.Name) and node.id in names:
            return names[node.id]
        if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
            return _OPS[type(node.op)](walk(node.left), walk(node.right))
        if negation and isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -walk(node.operand)
        raise ValueError(f"{expression!r}: only {allowed}")
    return walk(tree)


def evaluate(expression, bench):
    """A quantity, or + - * / over quantities and numbers."""
    return _arithmetic(expression, QUANTITY,
                       lambda m: results_file.quantity(bench, m.group(0)),
                       "quantities, numbers, + - * / and brackets", negation=True)


def collapsed(line):
    return " ".join(line.split())


def logged_number(folder, reference):
    """The number [FILE > ANCHOR > ... #N] names in a results text file."""
    spec, _, index = reference.rpartition(" #") if re.search(r" #\d+$", reference) \
        else (reference, "", "1")
    parts = [p.strip() for p in spec.split(" > ")]
    path = os.path.join(folder, parts[0])
    if os.path.basename(parts[0]) != parts[0] or not os.path.isfile(path):
        raise KeyError(f"[{reference}]: no file {parts[0]} in handouts/results")
    with open(path, encoding="utf-8") as f:
        lines = [collapsed(line) for line in f]
    at, rest = 0, None
    for anchor in parts[1:]:
        pieces = [collapsed(p) for p in anchor.split(" & ")]
        hit = next((i for i in range(at, len(lines)) if all(p in lines[i] for p in pieces)),
                   None)
        if hit is None:
            raise KeyError(f"[{reference}]: {anchor!r} not found in order in {parts[0]}")
        at, rest = hit + 1, lines[hit][lines[hit].index(pieces[-1]) + len(pieces[-1]):]
    numbers = [m.group(0) for m in NUMBER.finditer(rest or "")]
    if rest is None or len(numbers) < int(index):
        raise KeyError(f"[{reference}]: no number {index} after the last anchor")
    return float(numbers[int(index) - 1])


def evaluate_logged(expression, folder):
    """[reference]s, or + - * / over them and numbers."""
    return _arithmetic(expression, REFERENCE, lambda m: logged_number(folder, m.group(1)),
                       "[FILE > ANCHOR ... #N], numbers, + - * / and brackets", negation=False)


def formatted(value, quote):
    """`value` printed as `quote` is: same decimals (3 significant figures
    when the quote holds no number yet)."""
    if isinstance(value, str):
        return value
    m = NUMBER.fullmatch(quote.strip())
    if m:
        decimals = len(m.group(1) or "")
    else:
        decimals = max(0, 2 - int(f"{abs(value):e}".split("e")[1])) if value else 0
    return f"{value:.{decimals}f}"


def threshold_text(value):
    """6.0 -> '6.0', 0.74 -> '0.74', 67108864 -> '67108864'."""
    return str(int(value)) if isinstance(value, int) else repr(float(value))


def line_of(text, offset):
    return text.count("\n", 0, offset) + 1


def process(path, text, results, rubrics, write, headlines=None):
    """(new text, problems, pending count) for one handout."""
    problems, pending = [], [0]
    name = os.path.relpath(path, REPO)

    def settled(m, expression, quote, want, where, source):
        """The marker rewritten to `want` (--write), or kept, a mismatch noted."""
        if write:
            return m.group(0).replace(f"-->{quote}<!--", f"-->{want}<!--")
        if want != quote.strip():
            problems.append(f"{where}: the handout quotes `{expression}` as {quote!r}; the "
                            f"{source} gives {want}")
        return m.group(0)

    def inline(m):
        kind, gpu, expression, quote = m.group(1), m.group(2), m.group(3), m.group(4)
        where = f"{name}:{line_of(text, m.start())}"
        if kind == "rubric":
            if expression not in rubrics:
                problems.append(f"{where}: {expression} is not a threshold in any "
                                f"grader/lab*/lab*_rubric.h")
                return m.group(0)
            want = rubrics[expression]
            try:
                agrees = float(quote) == want
            except ValueError:
                agrees = False
            if not agrees and not write:
                problems.append(f"{where}: the handout quotes {expression} as {quote!r}; "
                                f"the grader's value is {want:g}")
            if write and not agrees:
                return m.group(0).replace(f"-->{quote}<!--", f"-->{threshold_text(want)}<!--")
            return m.group(0)
        gpu = gpu or PRIMARY_GPU
        try:
            bench, source = results.get(gpu)
            if bench is None:
                pending[0] += 1
                return m.group(0)
            want = formatted(evaluate(expression, bench), quote)
        except (KeyError, ValueError, ZeroDivisionError) as err:
            problems.append(f"{where}: {err}")
            return m.group(0)
        return settled(m, expression, quote, want, where,
                       f"committed result ({os.path.relpath(source, REPO)})")

    def logged(m):
        expression, quote = m.group(1), m.group(2)
        where = f"{name}:{line_of(text, m.start())}"
        try:
            want = formatted(evaluate_logged(expression, results.folder), quote)
        except (KeyError, ValueError, SyntaxError, ZeroDivisionError) as err:
            problems.append(f"{where}: {err}")
            return m.group(0)
        return settled(m, expression, quote, want, where, "committed log")

    def block(m):
        lab = int(m.group(2)[3:])
        try:
            bench, source = results.get(PRIMARY_GPU)
            others = [results.get(g) for g in results_tables.other_gpus(results.folder,
                                                                         PRIMARY_GPU)]
        except ValueError as err:
            problems.append(f"{name}:{line_of(text, m.start())}: {err}")
            return m.group(0)
        want = results_tables.lab_block(lab, bench, source, [o for o in others if o[0]],
                                        PRIMARY_GPU)
        if write:
            return m.group(1) + want + m.group(4)
        if m.group(3) != want:
            problems.append(f"{name}:{line_of(text, m.start())}: the generated block "
                            f"bench-results: lab{lab} differs from what the committed results "
                            f"give: run `make handout-numbers`")
        return m.group(0)

    def summary(m):
        try:
            bench, source = results.get(PRIMARY_GPU)
        except ValueError as err:
            problems.append(f"{name}:{line_of(text, m.start())}: {err}")
            return m.group(0)
        want = results_tables.summary_block(bench, source, rubrics, PRIMARY_GPU,
                                            headlines if headlines is not None else
                                            results_tables.read_headlines(REPO))
        if write:
            return m.group(1) + want + m.group(3)
        if m.group(2) != want:
            problems.append(f"{name}:{line_of(text, m.start())}: the generated bench-summary "
                            f"differs from what the committed results give: run "
                            f"`make handout-numbers`")
        return m.group(0)

    new = INLINE.sub(inline, text)
    new = RESULT.sub(logged, new)
    new = BLOCK.sub(block, new)
    new = SUMMARY.sub(summary, new)
    return new, problems, pending[0]


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true")
    mode.add_argument("--write", action="store_true")
    parser.add_argument("--results", default=os.path.join(REPO, "handouts", "results"))
    parser.add_argument("--root", default=REPO, help="where grader/lab*/ holds the rubrics")
    parser.add_argument("handouts", nargs="+")
    args = parser.parse_args(argv)
    rubrics = read_rubrics(args.root)
    headlines = results_tables.read_headlines(args.root)
    results = Results(args.results)
    all_problems, pending, quoted = [], 0, 0
    for path in args.handouts:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        quoted += len(INLINE.findall(text)) + len(RESULT.findall(text)) + \
            len(BLOCK.findall(text)) + \
            len(SUMMARY.findall(text))
        new, problems, waiting = process(path, text, results, rubrics, args.write, headlines)
        all_problems += problems
        pending += waiting
        if args.write and new != text:
            with open(path, "w", encoding="utf-8") as f:
                f.write(new)
            print(f"rewrote {os.path.relpath(path, REPO)}")
    for problem in all_problems:
        print(problem, file=sys.stderr)
    waiting = ""
    if pending:
        waiting = (f"; {pending} quoted from a GPU whose bench file is not committed yet "
                   f"(make bench on that GPU, commit build/results/bench-*.json to "
                   f"handouts/results/, then make handout-numbers)")
    print(f"{len(args.handouts)} handouts, {quoted} marked numbers and blocks: "
          f"{len(all_problems)} disagree{waiting}")
    return 1 if all_problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
