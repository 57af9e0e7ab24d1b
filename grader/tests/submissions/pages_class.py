"""A small fixture class for the pages' test (check_pages.py): six students'
lab records scored by the batch's own scoring (score.score_lab) from
grader results as a GPU run reports them (statuses, messages with their
TODO and handout section, speed ratios and thresholds), then written by
the batch's own writers: gradebook, summary, each student's page and
results.json, and report.html. No compile and no GPU: what it checks is
what the pages show of records, which the corpus test (batch.fixture_corpus)
checks the batch makes from real builds.

  make(out) -> {id: StudentRecord}; the class has weights, a bonus, a build
  failure, a review flag, a lab not submitted and a hostile id."""
import json
import os

from batch import feedback, gradescope, outputs, report, score, weights
from batch.records import LabInfo, ReviewFlag, RunInfo, StudentRecord
from batch.util import read_json, write_atomic, write_json_atomic

# Two labs' rubrics as `labN_check --rubric` writes them (the fields the
# batch reads), cut down to a few tests.
RUBRICS = {
    "lab1": {"title": "Lab 1: indexing", "tests": [
        {"name": "cpu_grid_size", "group": "cpu", "points": 10, "bonus": False, "gate": None},
        {"name": "gpu_vector_add", "group": "gpu", "points": 20, "bonus": False, "gate": None},
        {"name": "gpu_copy_bandwidth", "group": "gpu", "points": 10, "bonus": False,
         "gate": None, "speed": {"metric": "ratio", "floor": 0.6}},
        {"name": "gpu_grid_stride_bonus", "group": "gpu", "points": 5, "bonus": True,
         "gate": None}]},
    "lab2": {"title": "Lab 2: tiled matrix multiply", "tests": [
        {"name": "cpu_tile_count", "group": "cpu", "points": 10, "bonus": False, "gate": None},
        {"name": "gpu_matmul_correct", "group": "gpu", "points": 30, "bonus": False,
         "gate": None},
        {"name": "gpu_tiled_speedup", "group": "gpu", "points": 20, "bonus": False,
         "gate": None, "speed": {"metric": "ratio", "floor": 1.0}}]},
}
WEIGHTS = {"lab1": 30, "lab2": 70}
HOSTILE_ID = "<img src=x onerror=alert(1)>"
MESSAGES = {
    "cpu_grid_size": "grid of 3 blocks for n = 1000 with 256 threads: expected 4. "
                     "TODO(1.1) in indexing.cu: round the block count up (handout 1, "
                     "section 2.1)",
    "gpu_vector_add": "c[1023] = 0, expected 2046: the last block did no work. TODO(1.2) in "
                      "indexing.cu: guard with i < n, not i < n - 1 (handout 1, section 2.2)",
    "gpu_copy_bandwidth": "ratio 0.82 of the copy baseline, below the threshold 0.90: "
                          "neighbouring threads read neighbouring elements? (handout 1, "
                          "section 3)",
    "gpu_matmul_correct": "C[17][3] = 41.5, expected 42.0. TODO(2.2) in matmul.cu: a "
                          "__syncthreads() before the tile is overwritten (handout 2, "
                          "section 4.2)",
    "gpu_tiled_speedup": "speedup 1.6x over the naive kernel, below the threshold 2.5x "
                         "(handout 2, section 5)",
}
THRESHOLDS = {"gpu_copy_bandwidth": 0.9, "gpu_tiled_speedup": 2.5}
# id: {lab: (the tests that pass, {speed test: ratio})}, "build" for a lab
# that did not build, None for one not handed in.
CLASS = {
    "alice": {"lab1": ({"cpu_grid_size", "gpu_vector_add", "gpu_copy_bandwidth",
                        "gpu_grid_stride_bonus"}, {"gpu_copy_bandwidth": 0.97}),
              "lab2": ({"cpu_tile_count", "gpu_matmul_correct", "gpu_tiled_speedup"},
                       {"gpu_tiled_speedup": 3.1})},
    "bob": {"lab1": ({"cpu_grid_size"}, {"gpu_copy_bandwidth": 0.82}),
            "lab2": ({"cpu_tile_count"}, {"gpu_tiled_speedup": 1.6})},
    "carol": {"lab1": ({"cpu_grid_size"}, {"gpu_copy_bandwidth": 0.95}),
              "lab2": "build"},
    "dave": {"lab1": ({"gpu_vector_add", "gpu_copy_bandwidth"}, {"gpu_copy_bandwidth": 0.93}),
             "lab2": None},
    "erin": {"lab1": ({"cpu_grid_size", "gpu_vector_add", "gpu_copy_bandwidth"},
                      {"gpu_copy_bandwidth": 1.02}),
             "lab2": ({"cpu_tile_count", "gpu_matmul_correct"}, {"gpu_tiled_speedup": 2.2})},
    HOSTILE_ID: {"lab1": ({"cpu_grid_size"}, {"gpu_copy_bandwidth": 0.7}), "lab2": None},
}
BUILD_ERRORS = ("labs/lab2_matmul/matmul.cu(41): error: identifier \"TILE\" is undefined\n"
                "labs/lab2_matmul/matmul.cu(57): error: expected a \";\"\n"
                "2 errors detected in the compilation of \"matmul.cu\".")


def _results(lab, passed, ratios):
    tests = []
    for t in score.graded_tests(RUBRICS[lab]):
        name, ok = t["name"], t["name"] in passed
        metrics = {}
        if name in ratios:
            metrics = {"ratio": {"value": ratios[name], "unit": "x"},
                       "threshold": {"value": THRESHOLDS[name], "unit": "x"}}
        tests.append({"name": name, "status": "pass" if ok else "fail",
                      "message": "" if ok else MESSAGES.get(name, "not done yet"),
                      "notes": "", "output": "", "skip_reason": None, "metrics": metrics})
    raw = json.dumps({"device": "NVIDIA H200", "seed": 7, "tests": tests}).encode()
    return score.read_results(raw)


def _lab(lab, spec):
    rubric = RUBRICS[lab]
    if spec is None:
        return score.score_lab(lab, rubric, {}, state="not_submitted",
                               reason="no file of this lab was found in the submission")
    if spec == "build":
        rec = score.score_lab(lab, rubric, {}, state="build_failed",
                              reason="the lab did not build")
        rec.build_errors = BUILD_ERRORS
        return rec
    passed, ratios = spec
    rec = score.score_lab(lab, rubric, score.curve_from_rubric(rubric),
                          results=_results(lab, passed, ratios), state="graded")
    rec.files_hash = "5d1f" * 16
    rec.course = "c0ffee00c0ffee00"
    rec.run = RunInfo(status="ok", seconds=21.4, output_dropped_bytes=0, sandbox=True,
                      gpu_shared=True, gpu="NVIDIA H200")
    rec.calibration = {"state": "file", "file": "nvidia-h200_132sm.json"}
    return rec


def labs_info():
    info = [LabInfo(name=n, title=r["title"], possible=score.possible_points(r),
                    bonus_possible=sum(t["points"] for t in score.graded_tests(r) if t["bonus"]))
            for n, r in RUBRICS.items()]
    return weights.with_weights(info, WEIGHTS)


def make(out, when="2026-11-28 21:00 UTC"):
    """Writes the class's outputs under `out`; returns its records."""
    info = labs_info()
    students = {}
    for sid, labs in CLASS.items():
        rec = StudentRecord(id=sid, state="graded", sandbox=True, graders="pool",
                            labs={lab: _lab(lab, spec) for lab, spec in labs.items()})
        if sid == "bob":
            rec.review = [ReviewFlag("labs/lab1_indexing/indexing.cu", 12, "process control",
                                     'system("nvidia-smi <x>");')]
        students[sid] = rec
        folder = outputs.student_dir(out, sid)
        os.makedirs(folder, exist_ok=True)
        order = list(RUBRICS)
        dates = {lab: when for lab in order}
        write_json_atomic(os.path.join(folder, "results.json"),
                          gradescope.results(list(rec.labs.values()), 20.0, "", info))
        write_atomic(os.path.join(folder, "feedback.html"),
                     feedback.page(rec, order, info, when=when, dates=dates))
        write_atomic(os.path.join(folder, "student.json"), json.dumps(rec.to_json()))
    written = outputs.write_class_outputs(out, students, info, roster=list(CLASS) + ["frank"])
    report.write(out, read_json(os.path.join(out, "summary.json")), written, info,
                 {sid: outputs.student_dir(out, sid) for sid in written}, when=when)
    return written
