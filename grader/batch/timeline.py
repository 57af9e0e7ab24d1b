#!/usr/bin/env python3
"""Where a student's grading time went: the tests of their labs' graders on
one timeline, from the graders' results (cuda-labs-results/5 or later).

    python3 grader/batch/timeline.py RESULTS.json...
    python3 grader/batch/timeline.py --student OUT ID

Each results file (OUT/students/<id>/<lab>/grader.json) says when its
runner started ("started_at", Unix time) and, per test, when it started,
ended and first held the GPU alone ("started_s", "ended_s", "alone_from_s":
seconds after the runner's start); shifting each lab by its "started_at"
puts them on one clock. A test that measured alone more than once is drawn
as one interval of its total, from its first claim. Nothing here is
scored. It imports nothing of the batch, so it runs as a script anywhere."""
import argparse
import glob
import json
import math
import os
import sys
from dataclasses import dataclass, field
from typing import List, Optional, Tuple

SCHEMA_PREFIX = "cuda-labs-results/"
FIRST_WITH_TIMELINE = 5   # the schema that added started_at and the tests' moments
RAW_RESULTS = "grader.json"  # batch.py: each lab's results as the grader wrote them
STUDENTS = "students"        # outputs.py: OUT/students/<id>/


class Refused(ValueError):
    """A results file the timeline cannot use; the message says why."""


@dataclass
class TestSpan:
    """One test on the student's clock (seconds after the earliest start).
    start and end are None for a test that never started (the runner
    skipped it); alone_from for one that never held the GPU alone."""
    lab: str
    name: str
    start: Optional[float]
    end: Optional[float]
    waited: float
    alone_from: Optional[float]
    alone_for: float


@dataclass
class LabRun:
    """One grader's run: its runner's start on the student's clock, and the
    end of its last test (its start when no test ran)."""
    lab: str
    start: float
    end: float
    tests: List[TestSpan] = field(default_factory=list)


@dataclass
class Summary:
    wall: float         # the earliest start to the last end
    gpu_alone: float    # the union of the tests' alone intervals
    waited: float       # the sum of the tests' waits for the GPU
    last_lab: str       # the lab that ended last


def number(value) -> Optional[float]:
    """A finite JSON number as a float, else None (null, text, true)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        value = float(value)
    except OverflowError:
        return None
    return value if math.isfinite(value) else None


def schema_version(doc) -> Optional[int]:
    """N of "cuda-labs-results/N", or None when it is not such a file."""
    schema = doc.get("schema") if isinstance(doc, dict) else None
    if not isinstance(schema, str) or not schema.startswith(SCHEMA_PREFIX):
        return None
    version = schema[len(SCHEMA_PREFIX):]
    return int(version) if version.isdigit() else None


def load(path):
    """The decoded results file, with the fields the timeline needs; raises
    Refused for a file that is not one, or has no timeline (schema < 5)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            doc = json.load(f)
    except OSError as e:
        raise Refused(f"{path}: cannot be read ({e.strerror})")
    except (ValueError, RecursionError) as e:
        raise Refused(f"{path}: not JSON ({str(e)[:120]})")
    version = schema_version(doc)
    if version is None:
        raise Refused(f"{path}: not a grader results file (no \"{SCHEMA_PREFIX}N\" schema)")
    if version < FIRST_WITH_TIMELINE:
        raise Refused(f"{path}: results of schema {SCHEMA_PREFIX}{version} have no timeline "
                      f"(schema {FIRST_WITH_TIMELINE} added started_at and each test's "
                      "started_s, ended_s, alone_from_s); grade again with a current grader")
    if number(doc.get("started_at")) is None or not isinstance(doc.get("tests"), list):
        raise Refused(f"{path}: no started_at or no list of tests")
    return doc


def lab_name(doc, path) -> str:
    lab = doc.get("lab")
    return lab if isinstance(lab, str) and lab else os.path.basename(path)


def test_span(lab, test, offset) -> TestSpan:
    """A results file's test on the student's clock: `offset` is its
    runner's start after the earliest one."""
    def moved(key):
        moment = number(test.get(key))
        return None if moment is None else offset + moment
    start, end = moved("started_s"), moved("ended_s")
    if start is None or end is None:
        start = end = None
    alone_from = moved("alone_from_s") if start is not None else None
    name = test.get("name")
    return TestSpan(lab=lab, name=name if isinstance(name, str) else "?", start=start, end=end,
                    waited=number(test.get("gpu_wait_s")) or 0.0, alone_from=alone_from,
                    alone_for=(number(test.get("gpu_alone_s")) or 0.0) if alone_from is not None
                    else 0.0)


def lab_runs(docs) -> List[LabRun]:
    """[(path, decoded results)] as lab runs on one clock, in order of start."""
    origin = min(number(doc["started_at"]) for _, doc in docs)
    runs = []
    for path, doc in docs:
        lab = lab_name(doc, path)
        offset = number(doc["started_at"]) - origin
        tests = [test_span(lab, t, offset) for t in doc["tests"] if isinstance(t, dict)]
        ends = [t.end for t in tests if t.end is not None]
        runs.append(LabRun(lab=lab, start=offset, end=max(ends, default=offset), tests=tests))
    return sorted(runs, key=lambda run: (run.start, run.lab))


def union_length(intervals: List[Tuple[float, float]]) -> float:
    """The time covered by at least one of the intervals."""
    covered, reach = 0.0, -math.inf
    for start, end in sorted(intervals):
        if end <= reach:
            continue
        covered += end - max(start, reach)
        reach = end
    return covered


def summarize(runs: List[LabRun]) -> Summary:
    tests = [t for run in runs for t in run.tests]
    alone = [(t.alone_from, t.alone_from + t.alone_for) for t in tests
             if t.alone_from is not None and t.alone_for > 0]
    last = max(runs, key=lambda run: run.end)
    return Summary(wall=last.end - min(run.start for run in runs), gpu_alone=union_length(alone),
                   waited=sum(t.waited for t in tests), last_lab=last.lab)


def seconds(value: Optional[float]) -> str:
    return "-" if value is None else f"{value:.3f}"


def print_timeline(runs: List[LabRun]):
    print("Labs (seconds after the earliest start):")
    for run in runs:
        print(f"  {run.lab:<10} {run.start:9.3f} to {run.end:9.3f}")
    tests = [t for run in runs for t in run.tests]
    # Tests that never started go last, in their labs' order.
    ordered = sorted((t for t in tests if t.start is not None), key=lambda t: (t.start, t.lab))
    ordered += [t for t in tests if t.start is None]
    width = max([len(t.name) for t in tests] + [4])
    print(f"\n  {'lab':<10} {'test':<{width}} {'start':>9} {'end':>9} {'waited':>8} "
          f"{'alone from':>10} {'alone for':>9}")
    for t in ordered:
        print(f"  {t.lab:<10} {t.name:<{width}} {seconds(t.start):>9} {seconds(t.end):>9} "
              f"{t.waited:8.3f} {seconds(t.alone_from):>10} "
              f"{seconds(t.alone_for if t.alone_from is not None else None):>9}")
    s = summarize(runs)
    print(f"\nwall time {s.wall:.3f} s (first start to last end); the GPU held alone by a test "
          f"{s.gpu_alone:.3f} s; waits for the GPU {s.waited:.3f} s in all; "
          f"{s.last_lab} ended last")


def student_files(out_dir, student) -> List[str]:
    """Each lab's raw results of one student of a batch's OUT folder."""
    folder = os.path.join(out_dir, STUDENTS, student)
    if not os.path.isdir(folder):
        raise Refused(f"{folder}: no such student folder (a batch's OUT/{STUDENTS}/<id>)")
    files = sorted(glob.glob(os.path.join(glob.escape(folder), "*", RAW_RESULTS)))
    if not files:
        raise Refused(f"{folder}: no lab has grader results ({RAW_RESULTS}): none was built "
                      "and run")
    return files


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description="Where a student's grading time went: their labs' tests on one timeline.")
    parser.add_argument("results", nargs="*", help="grader results files (one student's)")
    parser.add_argument("--student", nargs=2, metavar=("OUT", "ID"),
                        help="the results the batch kept for student ID in its OUT folder")
    args = parser.parse_args(argv)
    if bool(args.results) == bool(args.student):
        parser.error("give results files, or --student OUT ID")
    try:
        paths = student_files(*args.student) if args.student else args.results
    except Refused as e:
        print(f"timeline: {e}", file=sys.stderr)
        return 1
    docs, refused = [], 0
    for path in paths:
        try:
            docs.append((path, load(path)))
        except Refused as e:
            print(f"timeline: {e}", file=sys.stderr)
            refused += 1
    if docs:
        print_timeline(lab_runs(docs))
    return 1 if refused else 0


if __name__ == "__main__":
    sys.exit(main())
