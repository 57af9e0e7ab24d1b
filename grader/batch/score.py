"""Scores one lab of one submission from the grader's results (JSON back
over the batch's own descriptor, --results-fd) and the lab's rubric:

- the results are validated first (read_results): UTF-8, the schema,
  finite numbers only; results that fail are "unreadable" and earn nothing;
- points come from the rubric, never from the results: a passed test earns
  its rubric points unless its gate failed, so a forged "points" or
  "gated_by" changes nothing;
- a failed speed test earns partial credit on its curve (curve_from_rubric):
  nothing at or below the floor ratio, full points at the test's
  threshold, linear in between;
- a GPU test that found no GPU ("no_gpu") earns 0, never counts as passed,
  and flags the lab as partly graded; a ratio the grading GPU's calibration
  cannot grade ("not_gradable") earns nothing and leaves the possible points;
- the calibration and the run's times (schema 4 and 5) are kept for the
  record and timeline.py, never scored;
- a test that never reported (crash, kill, no build, not submitted) earns
  0 and says why.

The result is a records.LabRecord (lab.json)."""
import json
import math
from dataclasses import dataclass, field
from typing import Dict, List, Optional

from .records import LabRecord, LabTest

NO_GPU = "not graded: no GPU"
OUTPUT_LIMIT = 4000
RESULTS_MAX_BYTES = 8 << 20   # a grader's results are tens of KiB
STATUSES = ("pass", "fail", "skip", "crash", "timeout")
# Why a test was skipped (harness.h, grader_skip_reason); null when it was not.
SKIP_REASONS = ("by_test", "no_gpu", "no_tool", "not_gradable")
NOT_GRADABLE = "not graded on this GPU"
# The results' "calibration" (harness_report.c): which thresholds graded them.
CALIBRATION_STATES = ("file", "defaults", "disabled", "not_needed")
UNREADABLE = "grader results unreadable"


class Unreadable(ValueError):
    """The results cannot be used; the message says why."""


def _no_constant(name):
    raise Unreadable(f"{name} is not a number JSON allows")


def _finite_float(text):
    value = float(text)
    if not math.isfinite(value):
        raise Unreadable(f"the number {text[:40]} is not finite")
    return value


def _text(test, key):
    value = test.get(key, "")
    if value is None:
        return ""
    if not isinstance(value, str):
        raise Unreadable(f"test {test.get('name')!r}: {key} is not text")
    return value


@dataclass
class Metric:
    """One of a test's measurements (the results' "metrics"): a finite
    number, or None where the test reported none."""
    value: Optional[float]
    unit: str = ""


@dataclass
class ReportedTest:
    """One test as the grader reported it, every field scoring reads of the
    right type (read_results). skip_reason is None when it was not skipped,
    and in results before schema 3."""
    name: str
    status: str                       # one of STATUSES
    skip_reason: Optional[str] = None  # one of SKIP_REASONS
    # The runner could not run it (no fork, no GPU lock): harness_internal.h.
    runner_failed: bool = False
    message: str = ""
    notes: str = ""
    output: str = ""
    metrics: Dict[str, Metric] = field(default_factory=dict)
    seconds: Optional[float] = None   # what it took (slots.py)
    gpu_wait_s: Optional[float] = None  # of which waiting to measure alone
    # Seconds after the grader's start (schema 5; None before it, and for a
    # test that never started or never held the GPU alone): timeline.py.
    started_s: Optional[float] = None
    ended_s: Optional[float] = None
    alone_from_s: Optional[float] = None

    @classmethod
    def from_json(cls, t) -> "ReportedTest":
        """Raises Unreadable for a test the batch cannot trust."""
        if not isinstance(t, dict) or not isinstance(t.get("name"), str):
            raise Unreadable("a test without a name")
        if t.get("status") not in STATUSES:
            raise Unreadable(f"test {t['name'][:80]!r}: status {str(t.get('status'))[:20]!r}")
        skip_reason = t.get("skip_reason")
        if skip_reason is not None and skip_reason not in SKIP_REASONS:
            raise Unreadable(f"test {t['name'][:80]!r}: skip_reason {str(skip_reason)[:20]!r}")
        metrics = t.get("metrics") or {}
        if not isinstance(metrics, dict):
            raise Unreadable(f"test {t['name'][:80]!r}: metrics are not an object")
        clean = {}
        for name, m in metrics.items():
            value = m.get("value") if isinstance(m, dict) else "bad"
            if value is not None and (isinstance(value, bool) or
                                      not isinstance(value, (int, float)) or
                                      not math.isfinite(value)):
                raise Unreadable(f"test {t['name'][:80]!r}: metric {str(name)[:40]!r} is not a "
                                 "finite number")
            clean[name] = Metric(value, str(m.get("unit", ""))[:16])
        return cls(name=t["name"], status=t["status"], skip_reason=skip_reason,
                   runner_failed=t.get("runner_failed") is True,
                   message=_text(t, "message"), notes=_text(t, "notes"),
                   output=_text(t, "output"), metrics=clean,
                   seconds=_seconds(t.get("seconds")), gpu_wait_s=_seconds(t.get("gpu_wait_s")),
                   started_s=_seconds(t.get("started_s")), ended_s=_seconds(t.get("ended_s")),
                   alone_from_s=_seconds(t.get("alone_from_s")))


@dataclass
class Results:
    """A grader's results as scoring uses them: its tests, the device and
    seed it reported, and which calibration graded it (_calibration)."""
    tests: List[ReportedTest]
    device: Optional[str] = None
    seed: Optional[int] = None
    calibration: Optional[Dict[str, Optional[str]]] = None
    started_at: Optional[float] = None  # the grader's start, Unix time (schema 5)

    @classmethod
    def from_json(cls, data) -> "Results":
        """From the decoded results file; raises Unreadable. Only what
        scoring uses is kept."""
        if not isinstance(data, dict) or not isinstance(data.get("tests"), list):
            raise Unreadable("no list of tests")
        tests, seen = [], set()
        for t in data["tests"]:
            # Checked in this order since the first: the reason the batch gives
            # for a file with several faults stays the same.
            if not isinstance(t, dict) or not isinstance(t.get("name"), str):
                raise Unreadable("a test without a name")
            if t["name"] in seen:
                raise Unreadable(f"test {t['name'][:80]!r} reported twice")
            seen.add(t["name"])
            tests.append(ReportedTest.from_json(t))
        device = data.get("device")
        seed = data.get("seed")
        return cls(tests=tests, device=device if isinstance(device, str) else None,
                   seed=seed if isinstance(seed, int) and not isinstance(seed, bool) else None,
                   calibration=_calibration(data.get("calibration")),
                   started_at=_unix_time(data.get("started_at")))


def read_results(raw) -> Results:
    """The grader's results from raw bytes, validated; raises Unreadable."""
    if len(raw) > RESULTS_MAX_BYTES:
        raise Unreadable(f"over {RESULTS_MAX_BYTES >> 20} MiB")
    text = raw.decode("utf-8", errors="replace")
    if not text.strip():
        raise Unreadable("empty")
    try:
        data = json.loads(text, parse_constant=_no_constant, parse_float=_finite_float)
    except (ValueError, RecursionError) as e:
        raise Unreadable(str(e)[:200])
    return Results.from_json(data)


def _calibration(value):
    """{"state", "file"} of the results' calibration, or None (results
    before schema 4, or a value that is not one)."""
    if not isinstance(value, dict) or value.get("state") not in CALIBRATION_STATES:
        return None
    file = value.get("file")
    if value["state"] == "file":
        if not isinstance(file, str) or not file or len(file) > 200 or "/" in file:
            return None
        return {"state": "file", "file": file}
    return {"state": value["state"], "file": None}


def _seconds(value):
    """A test's time, GPU wait or moment (schema 5) as a float, or None
    when it is not one a test can take: an integer too large for a float
    must not reach slots.py's or the timeline's arithmetic."""
    seconds = _as_float(value)
    return seconds if seconds is not None and 0.0 <= seconds < 1e7 else None


def _unix_time(value):
    """The results' "started_at" as a float, or None when it is not a Unix
    time (informational: it lines up a student's graders, nothing more)."""
    moment = _as_float(value)
    return moment if moment is not None and 0.0 < moment < 1e11 else None


def _as_float(value):
    """A JSON number as a float, or None (true and false are not numbers
    here, and an integer too large for a float is none either)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        return float(value)
    except OverflowError:
        return None


def gate_failures(rubric, reported: Dict[str, ReportedTest]):
    """{test name: its gate's name} for every test whose gate (the rubric's,
    never the file's) failed: reported with a status other than pass or
    skip, or graded and not reported at all (the harness runs a gate before
    the tests it gates, so a missing gate is a cut or forged file)."""
    graded = {t["name"] for t in graded_tests(rubric)}
    failed = {}
    for r in rubric["tests"]:
        gate = r.get("gate")
        if not gate:
            continue
        g = reported.get(gate)
        if (g is None and gate in graded) or (g is not None and g.status not in ("pass", "skip")):
            failed[r["name"]] = gate
    return failed


def graded_tests(rubric):
    """The tests the batch runs (--scored-only): CPU and GPU tests worth
    points (self-tests check the grader; measurement tables earn nothing)."""
    return [t for t in rubric["tests"] if t["group"] in ("cpu", "gpu") and t["points"] > 0]


def _clip(text, limit=OUTPUT_LIMIT):
    text = (text or "").strip()
    return text if len(text) <= limit else text[:limit] + "\n[... cut ...]"


def _metric(test: ReportedTest, name):
    m = test.metrics.get(name)
    v = m.value if m is not None else None
    return v if isinstance(v, (int, float)) and math.isfinite(v) else None


@dataclass(frozen=True)
class SpeedCurve:
    """A speed test's partial credit (harness.h, grader_speed_curve): the
    metric that holds its ratio, the ratio that earns nothing, and the
    reference solution's median ratio (None where it was not measured),
    which review.speed_flags compares against."""
    metric: str
    floor: float
    reference: Optional[float] = None


def curve_from_rubric(rubric) -> Dict[str, SpeedCurve]:
    """{test name: its curve} for every test whose row in the lab's test
    table has one (--rubric's "speed"). A rubric without "speed" (schema
    1) has no curve: speed points go only to a passed test."""
    curve = {}
    for t in rubric.get("tests", []):
        spec = t.get("speed")
        if spec:
            reference = spec.get("reference")
            curve[t["name"]] = SpeedCurve(spec["metric"], float(spec["floor"]),
                                          None if reference is None else float(reference))
    return curve


def speed_partial(test: ReportedTest, points, curve: Dict[str, SpeedCurve], gated=False):
    """(points earned, ratio, threshold) on the curve for a failed speed
    test; (0, ratio, threshold) when the curve does not apply."""
    spec = curve.get(test.name)
    ratio = _metric(test, spec.metric) if spec else None
    threshold = _metric(test, "threshold")
    if spec is None or ratio is None or threshold is None or threshold <= spec.floor:
        return 0.0, ratio, threshold
    if test.status != "fail" or gated or ratio >= threshold:
        return 0.0, ratio, threshold
    share = (ratio - spec.floor) / (threshold - spec.floor)
    return round(points * min(1.0, max(0.0, share)), 2), ratio, threshold


def _student_message(t: ReportedTest, gated_by=None):
    parts = []
    if t.message:
        parts.append(t.message)
    if gated_by:
        parts.append(f"not credited: {gated_by} failed (this lab's mechanism check)")
    if t.notes:
        parts.append(t.notes)
    if t.output and t.status != "pass":
        parts.append("output:\n" + t.output)
    return _clip("\n".join(parts))


def score_lab(lab_name, rubric, curve: Dict[str, SpeedCurve], results: Optional[Results] = None,
              state="graded", reason="") -> LabRecord:
    """state: graded (results may be None if the grader died), not_submitted, too_large,
    build_failed, error. reason: why a test never reported."""
    reported = {t.name: t for t in results.tests} if results is not None else {}
    gated = gate_failures(rubric, reported) if results is not None else {}
    tests = []
    for r in graded_tests(rubric):
        points = r["points"]
        entry = LabTest(name=r["name"], group=r["group"], max_score=points, bonus=r["bonus"])
        t = reported.get(r["name"])
        if state != "graded":
            entry.outcome = state
            entry.output = reason
        elif t is None:
            entry.outcome = "not_reported"
            entry.output = f"no result: {reason or 'the grader did not report this test'}"
        else:
            entry.outcome = t.status
            if t.status == "pass":
                gate = gated.get(r["name"])
                entry.score = 0.0 if gate else float(points)
                entry.status = "passed"
                entry.output = _student_message(t, gate) if gate else _clip(t.notes)
            elif t.status == "skip" and t.skip_reason == "no_gpu":
                entry.no_gpu = True
                entry.output = NO_GPU
            elif t.status == "skip" and t.skip_reason == "not_gradable":
                entry.not_gradable = True
                entry.output = (f"{NOT_GRADABLE}: not counted in the lab's points\n"
                                + t.message)
            elif t.status == "skip":
                entry.output = "not graded: " + (t.message or "skipped")
            else:
                earned, ratio, threshold = speed_partial(t, points, curve, r["name"] in gated)
                entry.output = _student_message(t)
                if ratio is not None:
                    entry.ratio = ratio
                    entry.threshold = threshold
                if earned > 0:
                    entry.score = earned
                    entry.partial = True
                    entry.output = (f"partial credit {earned:.2f}/{points}: speed ratio "
                                    f"{ratio:.3f} on the curve (floor "
                                    f"{curve[r['name']].floor:.3g}, full points at "
                                    f"{threshold:.3g})\n{entry.output}")
            if t.status == "pass" and _metric(t, "threshold") is not None:
                spec = curve.get(r["name"])
                ratio = _metric(t, spec.metric) if spec else None
                if ratio is not None:
                    entry.ratio = ratio
                    entry.threshold = _metric(t, "threshold")
        tests.append(entry)

    required = [t for t in tests if not t.bonus]
    bonus = [t for t in tests if t.bonus]
    return LabRecord(
        lab=lab_name,
        title=rubric.get("title", lab_name),
        state=state,
        reason=reason,
        score=round(sum(t.score for t in required), 2),
        possible=sum(t.max_score for t in required if not t.not_gradable),
        bonus=round(sum(t.score for t in bonus), 2),
        bonus_possible=sum(t.max_score for t in bonus),
        no_gpu_points=sum(t.max_score for t in required if t.no_gpu),
        not_gradable_points=sum(t.max_score for t in required if t.not_gradable),
        device=results.device if results is not None else None,
        calibration=results.calibration if results is not None else None,
        seed=results.seed if results is not None else None,
        tests=tests,
    )


def possible_points(rubric):
    return sum(t["points"] for t in graded_tests(rubric) if not t["bonus"])
