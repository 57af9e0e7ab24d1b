"""Scores one lab of one submission from the grader's results file
(--results JSON, harness_report.c) and the lab's test table (--rubric):

- a passed test earns what the harness credited (gates included);
- a failed speed test earns partial credit on the lab's curve
  (labN_speed_curve.txt): nothing at or below the floor ratio, full points
  at the rubric's threshold, linear in between;
- a GPU test that found no GPU earns 0 and says "not graded: no GPU" (it is
  never counted as passed); the lab is flagged as partly graded;
- a test that never reported (the grader crashed or was killed as a whole,
  or the lab did not build, or was not submitted) earns 0 and says why.

The result is a plain dict (the lab record, lab.json); gradescope.py turns
records into Gradescope's results.json."""
import math

NO_GPU = "not graded: no GPU"
OUTPUT_LIMIT = 4000


def graded_tests(rubric):
    """The tests the batch runs (the grader's --scored-only): CPU and GPU
    tests worth points. Self-tests check the grader, not the student, and
    the measurement tables earn nothing."""
    return [t for t in rubric["tests"] if t["group"] in ("cpu", "gpu") and t["points"] > 0]


def _clip(text, limit=OUTPUT_LIMIT):
    text = (text or "").strip()
    return text if len(text) <= limit else text[:limit] + "\n[... cut ...]"


def _metric(test, name):
    m = (test.get("metrics") or {}).get(name)
    v = m.get("value") if isinstance(m, dict) else None
    return v if isinstance(v, (int, float)) and math.isfinite(v) else None


def speed_partial(test, points, curve):
    """(points earned, ratio, threshold) on the curve for a failed speed
    test; (0, ratio, threshold) when the curve does not apply."""
    spec = curve.get(test["name"])
    ratio = _metric(test, spec["metric"]) if spec else None
    threshold = _metric(test, "threshold")
    if spec is None or ratio is None or threshold is None or threshold <= spec["floor"]:
        return 0.0, ratio, threshold
    if test.get("status") != "fail" or test.get("gated_by") or ratio >= threshold:
        return 0.0, ratio, threshold
    share = (ratio - spec["floor"]) / (threshold - spec["floor"])
    return round(points * min(1.0, max(0.0, share)), 2), ratio, threshold


def _student_message(t):
    parts = []
    if t.get("message"):
        parts.append(t["message"])
    if t.get("gated_by"):
        parts.append("not credited: %s failed (this lab's mechanism check)" % t["gated_by"])
    if t.get("notes"):
        parts.append(t["notes"])
    if t.get("output") and t.get("status") != "pass":
        parts.append("output:\n" + t["output"])
    return _clip("\n".join(parts))


def score_lab(lab_name, rubric, curve, results=None, state="graded", reason=""):
    """state: graded (results may be None if the grader died), not_submitted,
    build_failed, error. reason: why a test never reported."""
    reported = {t["name"]: t for t in (results or {}).get("tests", [])}
    tests = []
    for r in graded_tests(rubric):
        points = r["points"]
        entry = {"name": r["name"], "group": r["group"], "max_score": points,
                 "bonus": r["bonus"], "score": 0.0, "status": "failed", "no_gpu": False,
                 "outcome": None, "output": ""}
        t = reported.get(r["name"])
        if state != "graded":
            entry["outcome"] = state
            entry["output"] = reason
        elif t is None:
            entry["outcome"] = "not_reported"
            entry["output"] = "no result: %s" % (reason or "the grader did not report this test")
        else:
            entry["outcome"] = t["status"]
            if t["status"] == "pass":
                entry["score"] = float(t.get("points", points))
                entry["status"] = "passed"
                entry["output"] = _clip(t.get("notes", "")) if not t.get("gated_by") else \
                    _student_message(t)
            elif t["status"] == "skip" and "no CUDA device" in (t.get("message") or ""):
                entry["no_gpu"] = True
                entry["output"] = NO_GPU
            elif t["status"] == "skip":
                entry["output"] = "not graded: " + (t.get("message") or "skipped")
            else:
                earned, ratio, threshold = speed_partial(t, points, curve)
                entry["output"] = _student_message(t)
                if ratio is not None:
                    entry["ratio"] = ratio
                    entry["threshold"] = threshold
                if earned > 0:
                    entry["score"] = earned
                    entry["partial"] = True
                    entry["output"] = ("partial credit %.2f/%d: speed ratio %.3f on the curve "
                                       "(floor %.3g, full points at %.3g)\n%s"
                                       % (earned, points, ratio, curve[r["name"]]["floor"],
                                          threshold, entry["output"]))
            if t["status"] == "pass" and _metric(t, "threshold") is not None:
                spec = curve.get(r["name"])
                ratio = _metric(t, spec["metric"]) if spec else None
                if ratio is not None:
                    entry["ratio"] = ratio
                    entry["threshold"] = _metric(t, "threshold")
        tests.append(entry)

    required = [t for t in tests if not t["bonus"]]
    bonus = [t for t in tests if t["bonus"]]
    return {
        "lab": lab_name,
        "title": rubric.get("title", lab_name),
        "state": state,
        "reason": reason,
        "score": round(sum(t["score"] for t in required), 2),
        "possible": sum(t["max_score"] for t in required),
        "bonus": round(sum(t["score"] for t in bonus), 2),
        "bonus_possible": sum(t["max_score"] for t in bonus),
        "no_gpu_points": sum(t["max_score"] for t in required if t["no_gpu"]),
        "device": (results or {}).get("device"),
        "seed": (results or {}).get("seed"),
        "tests": tests,
    }


def possible_points(rubric):
    return sum(t["points"] for t in graded_tests(rubric) if not t["bonus"])
