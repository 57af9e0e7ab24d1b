#!/usr/bin/env python3
"""Unit tests of grader/batch/timeline.py on synthetic results files: labs
lined up by their started_at, the GPU's alone time as a union, results
without a timeline refused with a message. ctest: batch.timeline."""
import io
import json
import os
import subprocess
import sys
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout

BATCH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "batch")
sys.path.insert(0, BATCH)
import timeline  # noqa: E402

T0 = 1790000000.0


def a_test(name, started_s, ended_s, alone_from_s=None, gpu_alone_s=0.0, gpu_wait_s=0.0):
    return {"name": name, "status": "pass", "seconds": (ended_s or 0) - (started_s or 0),
            "gpu_wait_s": gpu_wait_s, "gpu_alone_s": gpu_alone_s, "started_s": started_s,
            "ended_s": ended_s, "alone_from_s": alone_from_s}


def results(lab, started_at, *tests, schema="cuda-labs-results/5"):
    doc = {"schema": schema, "lab": lab, "device": "test", "seed": 1, "tests": list(tests)}
    if started_at is not None:
        doc["started_at"] = started_at
    return doc


class TimelineTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)

    def write(self, doc, name):
        path = os.path.join(self.dir.name, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            json.dump(doc, f)
        return path

    def run_main(self, *argv):
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            code = timeline.main(list(argv))
        return code, out.getvalue(), err.getvalue()

    def two_labs(self):
        """lab2 starts 1.5 s after lab1; each measures once, overlapping on
        the student's clock from 2.0 to 2.5 s."""
        lab1 = results("lab1", T0,
                       a_test("cpu_a", 0.1, 0.3),
                       a_test("gpu_speed", 0.5, 3.0, alone_from_s=1.0, gpu_alone_s=1.5,
                            gpu_wait_s=0.4))
        lab2 = results("lab2", T0 + 1.5,
                       a_test("gpu_speed", 0.25, 2.5, alone_from_s=0.5, gpu_alone_s=1.0,
                            gpu_wait_s=0.25),
                       a_test("gpu_not_gradable", None, None))
        return (self.write(lab2, "lab2.json"), self.write(lab1, "lab1.json"))

    def test_labs_line_up_by_started_at(self):
        runs = timeline.lab_runs([(p, timeline.load(p)) for p in self.two_labs()])
        self.assertEqual([(r.lab, r.start, r.end) for r in runs],
                         [("lab1", 0.0, 3.0), ("lab2", 1.5, 4.0)])
        spans = {(t.lab, t.name): t for r in runs for t in r.tests}
        lab2 = spans[("lab2", "gpu_speed")]
        self.assertEqual((lab2.start, lab2.end, lab2.alone_from), (1.75, 4.0, 2.0))
        skipped = spans[("lab2", "gpu_not_gradable")]
        self.assertEqual((skipped.start, skipped.end, skipped.alone_from), (None, None, None))

    def test_alone_time_is_the_union_of_the_intervals(self):
        runs = timeline.lab_runs([(p, timeline.load(p)) for p in self.two_labs()])
        s = timeline.summarize(runs)
        # [1.0, 2.5] and [2.0, 3.0] overlap: 2.0 s, not 2.5.
        self.assertAlmostEqual(s.gpu_alone, 2.0)
        self.assertAlmostEqual(s.waited, 0.65)
        self.assertAlmostEqual(s.wall, 4.0)
        self.assertEqual(s.last_lab, "lab2")
        self.assertEqual(timeline.union_length([(0, 1), (3, 4), (0.5, 2), (3.5, 3.75)]), 3.0)
        self.assertEqual(timeline.union_length([]), 0.0)

    def test_the_printout_orders_tests_by_start(self):
        code, out, err = self.run_main(*self.two_labs())
        self.assertEqual((code, err), (0, ""))
        rows = [line.split()[:2] for line in out.splitlines()
                if line.startswith("  lab") and len(line.split()) > 4]
        self.assertEqual(rows.pop(0), ["lab", "test"])  # the header
        self.assertEqual(rows, [["lab1", "cpu_a"], ["lab1", "gpu_speed"], ["lab2", "gpu_speed"],
                                ["lab2", "gpu_not_gradable"]])
        self.assertIn("wall time 4.000 s", out)
        self.assertIn("the GPU held alone by a test 2.000 s", out)
        self.assertIn("lab2 ended last", out)

    def test_results_without_a_timeline_are_refused_with_a_message(self):
        old = self.write(results("lab3", None, {"name": "cpu_a", "status": "pass"},
                                 schema="cuda-labs-results/4"), "old.json")
        code, out, err = self.run_main(old)
        self.assertEqual((code, out), (1, ""))
        self.assertIn("schema cuda-labs-results/4 have no timeline", err)
        self.assertNotIn("Traceback", err)
        # With a usable file beside it: that one's timeline, and still exit 1.
        lab1, _ = self.two_labs()
        code, out, err = self.run_main(old, lab1)
        self.assertEqual(code, 1)
        self.assertIn("lab2", out)
        for junk, why in (("{", "not JSON"), ('{"schema": "cuda-labs-bench/1"}', "not a grader"),
                          ('{"schema": "cuda-labs-results/5", "tests": []}', "no started_at")):
            path = os.path.join(self.dir.name, "junk.json")
            with open(path, "w") as f:
                f.write(junk)
            self.assertIn(why, self.run_main(path)[2])

    def test_a_student_of_a_batch(self):
        out_dir = os.path.join(self.dir.name, "OUT")
        for lab, started in (("lab1", T0 + 2), ("lab4", T0)):
            self.write(results(lab, started, a_test("t", 0.0, 1.0)),
                       os.path.join("OUT", "students", "s1", lab, "grader.json"))
        os.makedirs(os.path.join(out_dir, "students", "s1", "lab5"))  # not built: no results
        code, out, _ = self.run_main("--student", out_dir, "s1")
        self.assertEqual(code, 0)
        self.assertIn("wall time 3.000 s", out)
        self.assertIn("lab1 ended last", out)
        code, _, err = self.run_main("--student", out_dir, "nobody")
        self.assertEqual(code, 1)
        self.assertIn("no such student folder", err)

    def test_it_runs_as_a_script(self):
        lab2, lab1 = self.two_labs()
        done = subprocess.run([sys.executable, os.path.join(BATCH, "timeline.py"), lab1, lab2],
                              capture_output=True, text=True, timeout=60)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("lab2 ended last", done.stdout)


if __name__ == "__main__":
    unittest.main()
