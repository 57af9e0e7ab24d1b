#!/usr/bin/env python3
"""The partial credit for speed is the same, to the last bit, since its
curves moved from grader/labN/labN_speed_curve.txt into the test tables
(labN_rubric.h, exported by labN_check --rubric). The old files, frozen in
speed_curves_before_rubric.txt, are read with the old parser; the curves
come from the runners of this build (CUDA_LABS_BUILD/bin/labN_check). Both
must be equal, and so must every lab record and review flag scored with
either on sample results around each floor and threshold. ctest:
batch.speed_curve_from_rubric."""
import json
import os
import re
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", ".."))
from batch import review, score  # noqa: E402

BEFORE = os.path.join(HERE, "speed_curves_before_rubric.txt")
# Speed tests whose curves were written into a rubric after the move, so
# the frozen file cannot hold them; every other curve must be the frozen one.
ADDED_AFTER_THE_MOVE = {
    "lab4": {"gpu_vector_fraction_of_copy"},  # the optional final stage (e), a bonus
    "lab7": {"gpu_sized_speed_vs_lab3"},  # the optional final stage, a bonus
}
BUILD = os.environ.get("CUDA_LABS_BUILD", os.path.join(HERE, "..", "..", "..", "build"))

# The old parser (grader/batch/course.py, read_curve, until the move): its
# expression and conversions as they were.
CURVE_LINE = re.compile(r"^\s*([A-Za-z0-9_]+)\s+([A-Za-z0-9_]+)\s+([0-9.]+)(?:\s+([0-9.]+))?\s*(?:#.*)?$")


def old_curves():
    """{lab: curve} from the frozen files, each after its [labN] line."""
    curves, lab = {}, None
    with open(BEFORE) as f:
        for line in f:
            header = re.match(r"^\[(lab\d+)\]$", line.strip())
            if header:
                lab = header.group(1)
                curves[lab] = {}
                continue
            m = CURVE_LINE.match(line)
            if m and lab:
                # As the old parser's dict, in the type the batch now uses.
                curves[lab][m.group(1)] = score.SpeedCurve(
                    metric=m.group(2), floor=float(m.group(3)),
                    reference=float(m.group(4)) if m.group(4) else None)
    return curves


def rubric(lab):
    runner = os.path.join(BUILD, "bin", f"{lab}_check")
    out = subprocess.run([runner, "--rubric"], capture_output=True, text=True, timeout=60)
    if out.returncode != 0:
        raise AssertionError(f"{runner} --rubric exited {out.returncode}: {out.stderr.strip()}")
    return json.loads(out.stdout)


def metrics(spec, ratio, threshold):
    """A speed test's metrics: its ratio and its threshold; none for other tests."""
    if spec is None:
        return {}
    return {spec.metric: {"value": ratio, "unit": "x"},
            "threshold": {"value": threshold, "unit": "x"}}


def sample_results(curve, rubric_tests):
    """(what, tests): every speed test of the curve at ratios below, at,
    between and above its floor and a threshold, failed and passed, the
    other tests passed (so gates hold); last, every test failed."""
    def result(t, status, metric_values):
        return {"name": t["name"], "status": status, "message": "", "notes": "",
                "output": "", "metrics": metric_values}

    for name, spec in curve.items():
        floor, reference = spec.floor, spec.reference or 2 * spec.floor + 1
        for threshold in (floor + 0.05, floor + 0.4, 0.8 * reference, floor):
            for ratio in (floor - 0.1, floor, floor + 0.01, (floor + threshold) / 2,
                          threshold - 1e-9, threshold, 1.6 * reference):
                for status in ("fail", "pass"):
                    yield (f"{name} {status} at {ratio} of {threshold}",
                           [result(t, status, metrics(spec, ratio, threshold))
                            if t["name"] == name else result(t, "pass", {})
                            for t in rubric_tests])
    yield "every test failed", [result(t, "fail", metrics(curve.get(t["name"]), 0.9, 1.1))
                                for t in rubric_tests]


class SpeedCurveTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.old = old_curves()
        cls.rubrics = {lab: rubric(lab) for lab in cls.old}

    def test_every_lab_had_a_curve_file(self):
        self.assertEqual(sorted(self.old), [f"lab{n}" for n in range(1, 8)])
        for lab, curve in self.old.items():
            self.assertTrue(curve, f"{lab}: no curve read from the frozen file")

    def test_the_rubric_exports_the_same_curve(self):
        for lab, curve in self.old.items():
            with self.subTest(lab=lab):
                self.assertEqual(self.rubrics[lab]["schema"], "cuda-labs-rubric/2")
                exported = score.curve_from_rubric(self.rubrics[lab])
                # Speed tests added after the move have no frozen curve: only
                # those named in ADDED_AFTER_THE_MOVE may be new.
                added = {name for name in exported if name not in curve}
                self.assertEqual(added, ADDED_AFTER_THE_MOVE.get(lab, set()))
                self.assertEqual({n: c for n, c in exported.items() if n in curve}, curve)

    def test_the_same_scores_and_review_flags(self):
        partial = 0
        for lab, curve in self.old.items():
            rub = self.rubrics[lab]
            new = score.curve_from_rubric(rub)
            for what, tests in sample_results(curve, rub["tests"]):
                results = score.Results.from_json({"tests": tests, "device": "sample", "seed": 1})
                before = score.score_lab(lab, rub, curve, results=results)
                after = score.score_lab(lab, rub, new, results=results)
                self.assertEqual(before, after, f"{lab} {what}")
                self.assertEqual(review.speed_flags(before, curve),
                                 review.speed_flags(after, new), f"{lab} {what}")
                partial += sum(1 for t in after.tests if t.partial)
        # The samples reach the curve, not only its ends.
        self.assertGreater(partial, 100)

    def test_numbers_worked_by_hand(self):
        """points x (ratio - floor) / (threshold - floor), to 0.01."""
        cases = [("lab1", "gpu_image_bandwidth", 0.67, 0.74, 3.0),       # 6 x 0.07 / 0.14
                 ("lab5", "gpu_grid_stride_fraction_of_copy", 0.5625, 0.75, 2.5),  # 5 x 1/2
                 ("lab6", "gpu_overlap_efficiency", 0.35, 0.7, 1.5),     # 3 x 0.35 / 0.7
                 ("lab7", "gpu_warp_tile_fraction_of_cublas", 0.4375, 0.7, 1.5)]  # 3 x 1/2
        for lab, name, ratio, threshold, want in cases:
            new = score.curve_from_rubric(self.rubrics[lab])
            points = [t["points"] for t in self.rubrics[lab]["tests"] if t["name"] == name][0]
            test = score.ReportedTest.from_json({
                "name": name, "status": "fail",
                "metrics": {new[name].metric: {"value": ratio},
                            "threshold": {"value": threshold}}})
            self.assertEqual(score.speed_partial(test, points, new)[0], want, f"{lab} {name}")


if __name__ == "__main__":
    unittest.main()
