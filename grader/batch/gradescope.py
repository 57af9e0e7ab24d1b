"""Gradescope's autograder results format (results.json): top-level score,
execution_time, output and tests[], each test with name, score, max_score,
status (passed/failed), output and visibility. Gradescope knows no
"skipped": a GPU test graded without a GPU is status failed, score 0,
output "not graded: no GPU", and extra_data.not_graded_no_gpu counts its
points, so it is never mistaken for a pass nor for a real zero."""

from typing import List

from .records import LabRecord

VISIBILITY = "visible"


def lab_tests(record: LabRecord):
    out = []
    for t in record.tests:
        name = f"{record.lab}: {t.name}"
        if t.bonus:
            name += " (bonus)"
        if t.no_gpu:
            name += " [not graded: no GPU]"
        out.append({
            "name": name,
            "score": t.score,
            # Bonus tests: extra credit, so nothing to lose on them.
            "max_score": 0 if t.bonus else t.max_score,
            "status": t.status,
            "output": t.output,
            "visibility": VISIBILITY,
        })
    return out


def lab_output(record: LabRecord):
    lines = [f"{record.title}: {_num(record.score)}/{record.possible} points"]
    if record.bonus_possible:
        lines[0] += f" (+{_num(record.bonus)}/{record.bonus_possible} bonus)"
    if record.state == "not_submitted":
        lines.append("not submitted: no file of this lab was found in the submission")
    elif record.state == "build_failed":
        lines.append("the lab did not build, so no test could run. The compiler said:")
        lines.append(record.build_errors or "")
    elif record.state == "error":
        lines.append("could not be graded: " + record.reason)
    elif record.reason:
        lines.append(record.reason)
    if record.no_gpu_points:
        lines.append(f"{int(record.no_gpu_points)} points of GPU tests were not graded: no GPU on "
                     "the grading machine")
    if record.not_gradable_points:
        lines.append(f"{int(record.not_gradable_points)} points of speed tests were not graded: "
                     "the grading GPU cannot tell the reference from the baseline there (its "
                     "calibration file says so); they are not counted in the lab's points")
    return "\n".join(lines)


def _num(x):
    return str(int(x)) if float(x).is_integer() else f"{x:.2f}"


def results(records: List[LabRecord], execution_time, extra_output=""):
    """One results.json (a dict, Gradescope's format) for a list of lab
    records (one lab, or all)."""
    score = sum(r.score + r.bonus for r in records)
    tests = [t for r in records for t in lab_tests(r)]
    output = "\n\n".join(lab_output(r) for r in records)
    if extra_output:
        output = extra_output + "\n\n" + output
    return {
        "score": round(score, 2),
        "execution_time": round(execution_time, 1),
        "output": output,
        "visibility": VISIBILITY,
        "stdout_visibility": "hidden",
        "tests": tests,
        "extra_data": {
            "not_graded_no_gpu": sum(r.no_gpu_points for r in records),
            "labs": {r.lab: {"state": r.state, "score": r.score, "possible": r.possible,
                             "bonus": r.bonus, "device": r.device,
                             "calibration": r.calibration} for r in records},
        },
    }
