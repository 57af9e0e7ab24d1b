#!/usr/bin/env python3
"""The course's lists of labs, written from the labs themselves.

A lab is its folder labs/labN_<topic>/ (found, never listed here) and its
manifest grader/labN/lab.ini:

    [lab]
    summary = what the lab teaches, in one line of the README's lab table
    status = available            (optional; the README's last column)
    yardstick = what its speed is timed against   (optional: a lab without
                                                   a speed test has none)
    headline = PROBLEM SIZE KERNEL THRESHOLD [over=KERNEL]   (optional, one
               a line: the README's "what good looks like" rows, which
               make handout-numbers writes from the bench file)

Each central file holds its list between two markers,
<!-- lab-lists: NAME --> and <!-- /lab-lists -->, and nothing else of the
file is touched:

    README.md            labs        the table of labs (number, folder,
                                     summary, handout, status)
    docs/design.md       labs        the same labs (number, folder, summary)
    handouts/grading.md  yardsticks  the speed tests' yardsticks
    handouts/glossary.md handouts    "L1 is lab1-....md, L2 ..."

and grader/calibration/rules.json, whose "rules" are every lab's
grader/labN/labN_calibration_rules.json in lab order (each rule gets its
"lab"); its "schema" and "about" are kept as they are.

    lab_lists.py [--root ROOT] --write   rewrite the lists (make lab-lists;
                                         new-lab.sh runs it)
    lab_lists.py [--root ROOT] --check   exit 1 naming each list that differs
                                         from what the labs say (ctest
                                         docs.lab_lists)
    lab_lists.py [--root ROOT] --self-test
                                         in a copy: a new lab's manifest
                                         must reach every list, and a
                                         hand edit must be caught
"""
import argparse
import configparser
import glob
import json
import os
import re
import shutil
import sys
import tempfile

BEGIN = "<!-- lab-lists: {} -->"
END = "<!-- /lab-lists -->"


def headline(line, where):
    """A headline line as (problem, size, kernel, threshold, over or None)."""
    words = line.split()
    if len(words) not in (4, 5) or (len(words) == 5 and not words[4].startswith("over=")):
        raise SystemExit(f"lab_lists: {where}: headline '{line.strip()}' is not PROBLEM SIZE "
                         "KERNEL THRESHOLD [over=KERNEL]")
    return (*words[:4], words[4][len("over="):] if len(words) == 5 else None)


def labs(root):
    """Each lab as a dict: number, folder, handout and its manifest's fields,
    in lab order."""
    found = []
    for folder in glob.glob(os.path.join(root, "labs", "lab*_*")):
        name = os.path.basename(folder)
        m = re.fullmatch(r"lab(\d+)_\w+", name)
        if not m or not os.path.isdir(folder):
            continue
        n = int(m.group(1))
        manifest = os.path.join(root, "grader", f"lab{n}", "lab.ini")
        if not os.path.isfile(manifest):
            raise SystemExit(f"lab_lists: {name} has no manifest grader/lab{n}/lab.ini "
                             "(its summary, status and yardstick: see this script's help)")
        parser = configparser.ConfigParser(interpolation=None)
        parser.read(manifest, encoding="utf-8")
        if "lab" not in parser or "summary" not in parser["lab"]:
            raise SystemExit(f"lab_lists: grader/lab{n}/lab.ini needs a [lab] section with "
                             "a summary")
        fields = {k: " ".join(v.split()) for k, v in parser["lab"].items() if k != "headline"}
        # headline: the README's "what good looks like" rows, one a line
        # (grader/bench/results_tables.py's read_headlines).
        fields["headlines"] = [headline(line, manifest) for line in
                               parser["lab"].get("headline", "").splitlines() if line.strip()]
        unknown = set(parser["lab"]) - {"summary", "status", "yardstick", "headline"}
        if unknown:
            raise SystemExit(f"lab_lists: grader/lab{n}/lab.ini: unknown field(s) "
                             f"{', '.join(sorted(unknown))}")
        handouts = glob.glob(os.path.join(root, "handouts", f"lab{n}-*.md"))
        if len(handouts) != 1:
            raise SystemExit(f"lab_lists: lab {n} needs exactly one handouts/lab{n}-*.md, "
                             f"found {len(handouts)}")
        found.append(dict(fields, number=n, folder=name, handout=os.path.basename(handouts[0])))
    return sorted(found, key=lambda lab: lab["number"])


def readme_labs(all_labs):
    rows = ["| # | folder | topic | handout | status |", "|---|---|---|---|---|"]
    rows += [f"| {lab['number']} | `{lab['folder']}` | {lab['summary']} | "
             f"[{lab['handout']}](handouts/{lab['handout']}) | {lab.get('status', 'available')} |"
             for lab in all_labs]
    return rows


def design_labs(all_labs):
    rows = ["| lab | folder (fixed) | topic |", "|---|---|---|"]
    rows += [f"| {lab['number']} | `{lab['folder']}` | {lab['summary']} |" for lab in all_labs]
    return rows


def yardsticks(all_labs):
    rows = ["| lab | yardstick |", "|---|---|"]
    rows += [f"| {lab['number']} | {lab['yardstick']} |" for lab in all_labs
             if "yardstick" in lab]
    return rows


def handout_links(all_labs):
    parts = [f"L{lab['number']} [{lab['handout']}]({lab['handout']})" for lab in all_labs]
    parts[0] = parts[0].replace(" ", " is ", 1)
    return ["Section numbers point at the handouts: " + ", ".join(parts) + "."]


# Each list: the file, its marker name, and how to write it.
LISTS = [
    ("README.md", "labs", readme_labs),
    ("docs/design.md", "labs", design_labs),
    ("handouts/grading.md", "yardsticks", yardsticks),
    ("handouts/glossary.md", "handouts", handout_links),
]


RULES = "grader/calibration/rules.json"


def calibration_rules(root, text):
    """rules.json's text with its rules gathered from the labs' own files."""
    doc = json.loads(text)
    rules = []
    for path in sorted(glob.glob(os.path.join(root, "grader", "lab*", "lab*_calibration_rules.json")),
                       key=lambda p: int(re.search(r"lab(\d+)_calibration", p).group(1))):
        n = int(re.search(r"lab(\d+)_calibration", path).group(1))
        if os.path.basename(os.path.dirname(path)) != f"lab{n}":
            raise SystemExit(f"lab_lists: {os.path.relpath(path, root)} is not in grader/lab{n}/")
        with open(path, encoding="utf-8") as f:
            rules += [dict(threshold=r["threshold"], lab=n, **{k: v for k, v in r.items()
                                                                if k not in ("threshold", "lab")})
                      for r in json.load(f)["rules"]]
    head = json.dumps({k: v for k, v in doc.items() if k != "rules"}, indent=2,
                      ensure_ascii=False)
    body = ",\n".join("    " + json.dumps(r, ensure_ascii=False) for r in rules)
    return head[:-2] + ',\n  "rules": [\n' + body + "\n  ]\n}\n"


def rewritten(text, name, rows, path):
    """text with the block NAME replaced by rows, keeping its indentation."""
    lines = text.split("\n")
    begin = [i for i, line in enumerate(lines) if line.strip() == BEGIN.format(name)]
    if len(begin) != 1:
        raise SystemExit(f"lab_lists: {path} must hold {BEGIN.format(name)} once "
                         f"(found {len(begin)})")
    start = begin[0]
    end = next((i for i in range(start + 1, len(lines)) if lines[i].strip() == END), None)
    if end is None:
        raise SystemExit(f"lab_lists: {path}: {BEGIN.format(name)} has no {END} after it")
    indent = re.match(r"\s*", lines[start]).group(0)
    return "\n".join(lines[:start + 1] + [indent + row for row in rows] + lines[end:])


def run(root, write):
    all_labs = labs(root)
    stale = []
    targets = [(rel, lambda text, rel=rel, name=name, make=make:
                rewritten(text, name, make(all_labs), rel)) for rel, name, make in LISTS]
    targets.append((RULES, lambda text: calibration_rules(root, text)))
    for rel, regenerate in targets:
        path = os.path.join(root, rel)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        new = regenerate(text)
        if new == text:
            continue
        stale.append(rel)
        if write:
            with open(path, "w", encoding="utf-8") as f:
                f.write(new)
    if write:
        print(f"lab_lists: {len(all_labs)} labs; rewrote {', '.join(stale) or 'nothing'}")
        return 0
    for rel in stale:
        print(f"{rel}: differs from what the labs say (grader/labN/lab.ini, "
              "labN_calibration_rules.json): run make lab-lists")
    if not stale:
        print(f"lab_lists: {len(all_labs)} labs, every list in step")
    return 1 if stale else 0


def self_test(root):
    with tempfile.TemporaryDirectory() as tmp:
        for rel in ["labs", "grader"]:
            os.makedirs(os.path.join(tmp, rel))
        for rel in [r for r, _, _ in LISTS] + [RULES]:
            os.makedirs(os.path.dirname(os.path.join(tmp, rel)) or tmp, exist_ok=True)
            shutil.copy(os.path.join(root, rel), os.path.join(tmp, rel))
        for lab in labs(root):
            n = lab["number"]
            os.makedirs(os.path.join(tmp, "labs", lab["folder"]))
            shutil.copytree(os.path.join(root, "grader", f"lab{n}"),
                            os.path.join(tmp, "grader", f"lab{n}"),
                            ignore=lambda d, names: [x for x in names if x != "lab.ini" and
                                                     not x.endswith("_calibration_rules.json")])
            shutil.copy(os.path.join(root, "handouts", lab["handout"]),
                        os.path.join(tmp, "handouts"))
        assert run(tmp, write=False) == 0, "the copy's lists are not in step to begin with"
        # A new lab: its manifest alone must reach every list.
        n = max(lab["number"] for lab in labs(tmp)) + 1
        os.makedirs(os.path.join(tmp, "labs", f"lab{n}_probe"))
        os.makedirs(os.path.join(tmp, "grader", f"lab{n}"))
        with open(os.path.join(tmp, "grader", f"lab{n}", "lab.ini"), "w") as f:
            f.write("[lab]\nsummary = a probe\n  over two lines\nyardstick = a probe's copy\n")
        with open(os.path.join(tmp, "grader", f"lab{n}", f"lab{n}_calibration_rules.json"), "w") as f:
            json.dump({"rules": [{"threshold": f"LAB{n}_PROBE_MIN", "better": "higher"}]}, f)
        open(os.path.join(tmp, "handouts", f"lab{n}-probe.md"), "w").close()
        assert run(tmp, write=False) == 1, "a new lab's manifest went unnoticed"
        run(tmp, write=True)
        assert run(tmp, write=False) == 0, "--write did not bring the lists in step"
        for rel, want in [("README.md", f"| {n} | `lab{n}_probe` | a probe over two lines |"),
                          ("docs/design.md", f"| {n} | `lab{n}_probe` | a probe over two lines"),
                          ("handouts/grading.md", f"| {n} | a probe's copy |"),
                          ("handouts/glossary.md", f"L{n} [lab{n}-probe.md](lab{n}-probe.md)")]:
            with open(os.path.join(tmp, rel)) as f:
                assert want in f.read(), f"{rel} did not get the new lab: {want}"
        with open(os.path.join(tmp, RULES)) as f:
            assert json.load(f)["rules"][-1] == {"threshold": f"LAB{n}_PROBE_MIN", "lab": n,
                                                 "better": "higher"}, "rules.json lacks the probe's"
        # A hand edit inside a list is caught.
        path = os.path.join(tmp, "README.md")
        with open(path) as f:
            text = f.read()
        with open(path, "w") as f:
            f.write(text.replace("a probe over two lines", "a probe, edited by hand"))
        assert run(tmp, write=False) == 1, "a hand edit of the README's list went unnoticed"
    print("lab_lists self-test: a new manifest and calibration rule reach every list; "
          "a hand edit is caught")
    return 0


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", default=os.path.join(os.path.dirname(__file__), "..", ".."))
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true")
    mode.add_argument("--check", action="store_true")
    mode.add_argument("--self-test", action="store_true")
    args = parser.parse_args(argv)
    root = os.path.abspath(args.root)
    if args.self_test:
        return self_test(root)
    return run(root, write=args.write)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
