"""Gradescope's autograder results format (results.json): top-level score,
execution_time, output and tests[], each test with name, score, max_score,
status (passed/failed), output and visibility. Gradescope knows no
"skipped": a GPU test graded without a GPU is status failed, score 0,
output "not graded: no GPU", and extra_data.not_graded_no_gpu counts its
points, so it is never mistaken for a pass nor for a real zero.

The top-level score is the student's total as every other output gives it
(weights.py): the labs' scores as weighted, bonus points never in it. A
bonus test keeps its points in tests[] with max_score 0, and
extra_data.bonus is their sum as weighted; Gradescope takes the top-level
score when there is one, so the bonus is shown and never added."""

from typing import List, Optional

from . import weights as weights_mod
from .records import LabInfo, LabRecord, StudentRecord

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


def results(records: List[LabRecord], execution_time, extra_output="",
            labs_info: Optional[List[LabInfo]] = None):
    """One results.json (a dict, Gradescope's format) for a list of lab
    records: one lab (its own points), or a student's labs with the run's
    `labs_info` (the weighted total of every output)."""
    if labs_info is None:
        labs_info = [LabInfo(r.lab, r.title, r.possible, r.bonus_possible) for r in records]
    rec = StudentRecord(id="", state="graded", labs={r.lab: r for r in records})
    total = weights_mod.totals(rec, labs_info)
    tests = [t for r in records for t in lab_tests(r)]
    summary = (f"Total: {_num(total.total)} of {_num(total.possible)} points; bonus "
               f"{_num(total.bonus)} of {_num(total.bonus_possible)} "
               f"({weights_mod.statement(labs_info)})")
    output = "\n\n".join([summary] + [lab_output(r) for r in records])
    if extra_output:
        output = extra_output + "\n\n" + output
    return {
        "score": total.total,
        "execution_time": round(execution_time, 1),
        "output": output,
        "visibility": VISIBILITY,
        "stdout_visibility": "hidden",
        "tests": tests,
        "extra_data": {
            "total": total.total,
            "possible": total.possible,
            "bonus": total.bonus,
            "bonus_possible": round(total.bonus_possible, 2),
            "not_graded_no_gpu": sum(r.no_gpu_points for r in records),
            "labs": {r.lab: {"state": r.state, "score": r.score, "possible": r.possible,
                             "counted": total.labs.get(r.lab), "bonus": r.bonus,
                             "device": r.device, "calibration": r.calibration}
                     for r in records},
        },
    }
