#!/usr/bin/env python3
"""The outcome table: what the graders decided for every variant and every
batch fixture, in a form a later commit can be compared with.

A refactor of the graders must reproduce it: the table is written from
one commit's run and committed, and a later tree's run is compared with it.

  outcome_table.py variants GENERATED [--fixtures GRADEBOOK] [-o TABLE]
  outcome_table.py variants GENERATED [--fixtures GRADEBOOK] --compare TABLE
  outcome_table.py --self-test

GENERATED is the build's grader/tests/generated folder after `ctest -L
variant` (each variant test leaves its grader's results there); GRADEBOOK
the gradebook.csv of grader/tests/submissions/check_corpus.py's run (its
WORK/out). One line per row, tab-separated: kind, name, test or column,
outcome. A variant's outcome is the test's status and its message; measured
numbers and paths in messages become '#' and '<path>', since they differ
from run to run. Exit status of --compare: 0 when every row is the same,
1 with the differing rows listed."""
import argparse
import csv
import glob
import json
import os
import re
import sys
import tempfile

# Measured numbers; not those inside names (lab1_...) or a TODO's number.
NUMBER = re.compile(r"(?<![\w.(])[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?")
# The first number of a coordinate, "(7,12)": NUMBER keeps numbers after "("
# for the TODOs' sake, but where a race or a missing barrier is caught, which
# element shows it first changes from run to run. A call's argument, "(16,
# ...)", has a space after its comma and stays.
COORDINATE = re.compile(r"\(\d+,(?=[-+]?\d)")
PATH = re.compile(r"(?<![\w.])/[^\s'\"),;:]+")
# Addresses (lab 2's copy watch names the pointers it saw): a new one each run.
ADDRESS = re.compile(r"\b0x[0-9a-fA-F]+\b")
MESSAGE_CHARS = 240


def normalised(message):
    text = " ".join(message.split())
    text = PATH.sub("<path>", text)
    text = ADDRESS.sub("<address>", text)
    text = COORDINATE.sub("(#,", text)
    return NUMBER.sub("#", text)[:MESSAGE_CHARS]


def variant_rows(generated):
    rows = []
    for path in sorted(glob.glob(os.path.join(generated, "*", "*.json"))):
        variant = os.path.basename(os.path.dirname(path))
        test = os.path.splitext(os.path.basename(path))[0]
        try:
            with open(path, encoding="utf-8") as f:
                results = json.load(f)
        except (OSError, ValueError) as e:
            rows.append(("variant", variant, test, f"unreadable results: {type(e).__name__}"))
            continue
        found = [t for t in results.get("tests", []) if t.get("name") == test]
        if not found:
            rows.append(("variant", variant, test, "not reported"))
            continue
        t = found[0]
        rows.append(("variant", variant, test,
                     f"{t.get('status')}: {normalised(t.get('message') or '')}"))
    return rows


def fixture_rows(gradebook):
    rows = []
    with open(gradebook, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            name = row.get("id", "")
            if name == "points-possible":
                continue
            for column, cell in row.items():
                if column not in ("id", "id_percent_encoded"):
                    rows.append(("fixture", name, column, cell or ""))
    return rows


def read_table(path):
    with open(path, encoding="utf-8") as f:
        return [tuple(line.rstrip("\n").split("\t")) for line in f
                if line.strip() and not line.startswith("#")]


def self_test():
    """A made-up run: two variant results and a gradebook; the table of the
    same run compares equal, a changed status and a new row do not."""
    with tempfile.TemporaryDirectory() as work:
        generated = os.path.join(work, "generated")
        os.makedirs(os.path.join(generated, "lab9_variant_wrong"))
        def results(status, message):
            with open(os.path.join(generated, "lab9_variant_wrong", "gpu_fast.json"), "w") as f:
                json.dump({"tests": [{"name": "other", "status": "pass", "message": ""},
                                     {"name": "gpu_fast", "status": status,
                                      "message": message}]}, f)
        results("fail", "ran 1.25 ms, 0.8x\tof /tmp/x/y at (1,7): TODO(9.1) lab9_go(16, 2)")
        gradebook = os.path.join(work, "gradebook.csv")
        with open(gradebook, "w") as f:
            f.write("id,lab9,total,id_percent_encoded\npoints-possible,10,10,\nann,7,7,ann\n")
        table = os.path.join(work, "table.tsv")
        args = ["variants", generated, "--fixtures", gradebook]
        assert main(args + ["-o", table]) == 0
        rows = read_table(table)
        assert ("variant", "lab9_variant_wrong", "gpu_fast",
                "fail: ran # ms, #x of <path> at (#,#): TODO(9.1) lab9_go(16, #)") in rows, rows
        assert ("fixture", "ann", "lab9", "7") in rows and len(rows) == 3, rows
        results("fail", "ran 2.5 ms, 0.9x\tof /tmp/z at (12,0): TODO(9.1) lab9_go(16, 3)")
        assert main(args + ["--compare", table]) == 0, "measured numbers must not count"
        results("pass", "")
        assert main(args + ["--compare", table]) == 1, "a changed status must count"
    print("outcome_table self-test: ok")
    return 0


def main(argv):
    if argv == ["--self-test"]:
        return self_test()
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("what", choices=["variants"])
    p.add_argument("generated")
    p.add_argument("--fixtures", metavar="GRADEBOOK")
    p.add_argument("-o", "--output")
    p.add_argument("--compare", metavar="TABLE")
    args = p.parse_args(argv)
    if not os.path.isdir(args.generated):
        sys.exit(f"outcome_table: {args.generated} is not a folder (the build's "
                 "grader/tests/generated)")
    rows = variant_rows(args.generated)
    if args.fixtures:
        rows += fixture_rows(args.fixtures)
    if not rows:
        sys.exit(f"outcome_table: no variant results under {args.generated}: run "
                 "`ctest -L variant` first")
    rows = [tuple(cell.replace("\t", " ") for cell in row) for row in rows]
    if args.compare:
        before = {r[:3]: r[3] for r in read_table(args.compare)}
        now = {r[:3]: r[3] for r in rows}
        differ = 0
        for key in sorted(set(before) | set(now)):
            if before.get(key) != now.get(key):
                differ += 1
                print(f"{' '.join(key)}\n  was: {before.get(key, '(absent)')}\n"
                      f"  now: {now.get(key, '(absent)')}")
        print(f"{differ} of {len(set(before) | set(now))} rows differ")
        return 1 if differ else 0
    text = "".join("\t".join(r) + "\n" for r in rows)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
