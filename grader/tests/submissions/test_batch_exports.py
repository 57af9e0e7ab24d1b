#!/usr/bin/env python3
"""grade-submissions export (batch/export.py): each format written from a
gradebook the batch made, then read back the way that system's import
reads it, and compared with the gradebook cell for cell."""
import csv
import io
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", ".."))
from batch import export, feedback, gradescope, outputs, report, score, weights  # noqa: E402
from batch.records import LabInfo, ReviewFlag, StudentRecord  # noqa: E402
from batch.util import read_json  # noqa: E402

RUBRIC = {"title": "Lab", "tests": [
    {"name": "cpu_a", "group": "cpu", "points": 5, "bonus": False, "gate": None},
    {"name": "gpu_b", "group": "gpu", "points": 10, "bonus": False, "gate": None},
    {"name": "gpu_extra", "group": "gpu", "points": 3, "bonus": True, "gate": None}]}
LABS = [LabInfo(name="lab1", title="Lab 1", possible=15, bonus_possible=3),
        LabInfo(name="lab2", title="Lab 2", possible=15, bonus_possible=3)]


def lab(name, *passed):
    tests = [{"name": t["name"], "status": "pass" if t["name"] in passed else "fail",
              "message": "", "notes": "", "output": "", "skip_reason": None, "metrics": {}}
             for t in RUBRIC["tests"]]
    raw = json.dumps({"device": "test", "seed": 1, "tests": tests}).encode()
    return score.score_lab(name, RUBRIC, {}, results=score.read_results(raw), state="graded")


def class_out(folder):
    """A gradebook as the batch writes it: three students (one id with an
    accent, one a spreadsheet would run as a formula) and a rostered one
    who handed nothing in."""
    students = {
        "alice": StudentRecord(id="alice", state="graded", sandbox=True, graders="pool",
                               labs={"lab1": lab("lab1", "cpu_a", "gpu_b", "gpu_extra"),
                                     "lab2": lab("lab2", "cpu_a")}),
        "amélie": StudentRecord(id="amélie", state="graded", sandbox=True, graders="pool",
                                labs={"lab1": lab("lab1", "cpu_a"),
                                      "lab2": lab("lab2", "gpu_b", "gpu_extra")}),
        "=1+1": StudentRecord(id="=1+1", state="graded", sandbox=True, graders="pool",
                              labs={"lab1": lab("lab1"), "lab2": lab("lab2")}),
    }
    outputs.write_class_outputs(folder, students, LABS, roster=["alice", "amélie", "=1+1",
                                                                "bob"])
    return export.read_gradebook(folder)


def canvas_import(text):
    """Canvas's reading: a header, the "Points Possible" row set aside,
    each student found by SIS User ID, every column after Section an
    assignment."""
    rows = list(csv.DictReader(io.StringIO(text)))
    fields = list(rows[0])
    assert fields[:5] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"], fields
    points = next(r for r in rows if r["Student"].strip() == "Points Possible")
    grades = {r["SIS User ID"]: {a: r[a] for a in fields[5:]} for r in rows
              if r["Student"].strip() != "Points Possible"}
    return {a: points[a] for a in fields[5:]}, grades


def moodle_import(text, identifier="ID number"):
    """Moodle's reading: a header, the identifier column mapped to a user
    field, every other column mapped to a grade item."""
    rows = list(csv.DictReader(io.StringIO(text)))
    return {r[identifier]: {k: v for k, v in r.items() if k != identifier} for r in rows}


class ExportTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.out = self.tmp.name
        self.labs, self.possible, self.students = class_out(self.out)

    def test_canvas_reads_the_gradebooks_numbers(self):
        points, grades = canvas_import(export.canvas(self.labs, self.possible, self.students,
                                                     "CUDA "))
        self.assertEqual(points, {"CUDA lab1": "15", "CUDA lab2": "15", "CUDA bonus": "0"})
        self.assertEqual(set(grades), {"alice", "amélie", "'=1+1", "bob"})
        for s in self.students:
            self.assertEqual(grades[s["id"]], {"CUDA lab1": s["lab1"], "CUDA lab2": s["lab2"],
                                               "CUDA bonus": s["bonus"]})
        self.assertEqual(grades["alice"], {"CUDA lab1": "15", "CUDA lab2": "5",
                                           "CUDA bonus": "3"})

    def test_canvas_ids_in_the_field_asked_for(self):
        text = export.canvas(self.labs, self.possible, self.students, "", "SIS Login ID")
        rows = list(csv.DictReader(io.StringIO(text)))
        self.assertEqual({r["SIS Login ID"] for r in rows[1:]}, {"alice", "amélie", "'=1+1",
                                                                 "bob"})
        self.assertEqual({r["SIS User ID"] for r in rows}, {""})

    def test_moodle_reads_the_gradebooks_numbers(self):
        grades = moodle_import(export.moodle(self.labs, self.possible, self.students, ""))
        self.assertEqual(grades["amélie"], {"lab1": "5", "lab2": "10", "bonus": "3"})
        self.assertEqual(grades["bob"], {"lab1": "0", "lab2": "0", "bonus": "0"})

    def test_one_total_everywhere(self):
        """The plain export's total is the gradebook's, bonus apart."""
        rows = list(csv.DictReader(io.StringIO(export.plain(self.labs, self.possible,
                                                            self.students, ""))))
        self.assertEqual(list(rows[0])[:4], ["id", "lab1 (15)", "lab2 (15)", "total (30)"])
        by_id = {r["id"]: r for r in rows}
        self.assertEqual((by_id["alice"]["total (30)"], by_id["alice"]["bonus"]), ("20", "3"))

    def test_the_command_line(self):
        run = [sys.executable, os.path.join(HERE, "..", "..", "grade-submissions"), "export",
               self.out, "--to", "canvas"]
        done = subprocess.run(run, capture_output=True, text=True)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertTrue(os.path.exists(os.path.join(self.out, "export-canvas.csv")))
        with tempfile.TemporaryDirectory() as empty:
            done = subprocess.run(run[:3] + [empty, "--to", "moodle"], capture_output=True,
                                  text=True)
        self.assertEqual(done.returncode, 2)
        self.assertIn("no gradebook", done.stderr)


class FeedbackTest(unittest.TestCase):
    """The student's page: every test's verdict, points and message, how
    the lab was graded, and nothing of the student's run as HTML."""
    def student(self):
        graded = lab("lab1", "cpu_a")
        graded.tests[1].output = "TODO(1.2) <script>alert(1)</script> wrong & late"
        graded.files_hash, graded.course = "ab12" * 16, "f00d"
        return StudentRecord(id="<b>eve</b>", state="graded", labs={"lab1": graded})

    def test_the_text_page(self):
        page = feedback.text(self.student(), ["lab1", "lab2"], when="2026-11-28 21:00 UTC")
        self.assertIn("== Lab: 5 of 15 (+0 bonus)", page)
        self.assertIn("passed                   5 / 5     cpu_a", page)
        self.assertIn("TODO(1.2) <script>", page)               # text is text
        self.assertIn("files graded: sha256 " + "ab12" * 16, page)

    def test_the_html_page_escapes_everything(self):
        page = feedback.page(self.student(), ["lab1"], when="now")
        self.assertNotIn("<script>", page)
        self.assertNotIn("<b>eve</b>", page)
        self.assertIn("&lt;script&gt;alert(1)&lt;/script&gt; wrong &amp; late", page)
        self.assertIn("&lt;b&gt;eve&lt;/b&gt;", page)
        self.assertNotIn("src=", page)
        self.assertNotIn("href=", page)


class WeightsTest(unittest.TestCase):
    """Per-lab weights from a course file, and one total (bonus apart) in
    the gradebook, every export, results.json, summary.json and the page."""
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.dir = self.tmp.name

    def course_file(self, data):
        path = os.path.join(self.dir, "course.json")
        with open(path, "w") as f:
            json.dump(data, f)
        return path

    def test_a_course_file_is_checked(self):
        names = ["lab1", "lab2"]
        self.assertIsNone(weights.load(None, names))
        self.assertEqual(weights.load(self.course_file({"weights": {"lab1": 10, "lab2": 30}}),
                                      names), {"lab1": 10.0, "lab2": 30.0})
        for bad, why in (({"weights": {"lab1": 10}}, "no weight for lab2"),
                         ({"weights": {"lab1": 1, "lab2": 1, "lab9": 1}}, "lab9 is no lab"),
                         ({"weights": {"lab1": -1, "lab2": 1}}, "not a number"),
                         ({"weights": {"lab1": True, "lab2": 1}}, "not a number"),
                         ({"weights": {"lab1": 0, "lab2": 0}}, "every weight is 0"),
                         ({"lab1": 1}, "no \"weights\"")):
            with self.assertRaisesRegex(weights.WeightsError, why):
                weights.load(self.course_file(bad), names)

    def graded(self, labs_info):
        students = {
            "alice": StudentRecord(id="alice", state="graded",
                                   labs={"lab1": lab("lab1", "cpu_a", "gpu_b", "gpu_extra"),
                                         "lab2": lab("lab2", "cpu_a")}),
            "bob": StudentRecord(id="bob", state="graded",
                                 labs={"lab1": lab("lab1", "cpu_a"),
                                       "lab2": lab("lab2", "gpu_b", "gpu_extra")})}
        outputs.write_class_outputs(self.dir, students, labs_info)
        return students

    def test_every_total_is_the_gradebooks(self):
        """lab1 counts 10, lab2 30: alice's 15/15 and 5/15 are 10 + 10 = 20,
        her 3 bonus points of lab 1 count 2, apart; bob's 5/15 and 10/15
        are 3.33 + 20."""
        labs_info = weights.with_weights(LABS, {"lab1": 10, "lab2": 30})
        students = self.graded(labs_info)
        with open(os.path.join(self.dir, "gradebook.csv"), newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
        head = rows[0]
        self.assertEqual((head["lab1"], head["lab2"], head["total"], head["bonus"]),
                         ("10", "30", "40", "8"))
        self.assertIn("weights (course file): lab1 15 points -> 10, lab2 15 points -> 30",
                      head["grading_status"])
        self.assertIn("bonus: extra credit, never in a lab's score nor in the total",
                      head["grading_status"])
        book = {r["id"]: r for r in rows[1:]}
        self.assertEqual((book["alice"]["lab1"], book["alice"]["lab2"], book["alice"]["total"],
                          book["alice"]["percent"], book["alice"]["bonus"]),
                         ("10", "10", "20", "50", "2"))
        self.assertEqual((book["bob"]["lab1"], book["bob"]["total"], book["bob"]["bonus"]),
                         ("3.33", "23.33", "6"))
        summary = read_json(os.path.join(self.dir, "summary.json"))
        for sid, rec in students.items():
            total = book[sid]["total"]
            results = gradescope.results(list(rec.labs.values()), 1.0, "", labs_info)
            self.assertEqual(outputs.fmt(results["score"]), total, sid)  # bonus not in it
            self.assertEqual(outputs.fmt(results["extra_data"]["bonus"]), book[sid]["bonus"])
            self.assertEqual(outputs.fmt(summary["totals"][sid]), total)
            page = feedback.page(rec, ["lab1", "lab2"], labs_info, when="now")
            self.assertIn(f"Total: {total} of 40 points", page)
            self.assertIn(f"Total: {total} of 40 points", feedback.text(rec, ["lab1", "lab2"],
                                                                        labs_info))
        labs, possible, rows = export.read_gradebook(self.dir)
        points, grades = canvas_import(export.canvas(labs, possible, rows, ""))
        self.assertEqual(points, {"lab1": "10", "lab2": "30", "bonus": "0"})
        self.assertEqual(grades["bob"], {"lab1": "3.33", "lab2": "20", "bonus": "6"})
        plain = list(csv.DictReader(io.StringIO(export.plain(labs, possible, rows, ""))))
        self.assertEqual({r["id"]: r["total (40)"] for r in plain},
                         {"alice": "20", "bob": "23.33"})

    def test_without_weights_the_bonus_is_still_apart(self):
        """The issue's 161 against 174: results.json once added the bonus
        to the score the gradebook kept it out of."""
        students = self.graded(LABS)
        with open(os.path.join(self.dir, "gradebook.csv"), newline="", encoding="utf-8") as f:
            book = {r["id"]: r for r in csv.DictReader(f)}
        self.assertEqual(book["points-possible"]["grading_status"],
                         "each lab counts its own points; bonus: extra credit, never in a "
                         "lab's score nor in the total")
        results = gradescope.results(list(students["alice"].labs.values()), 1.0, "", LABS)
        self.assertEqual((results["score"], results["extra_data"]["bonus"]), (20, 3))
        self.assertEqual(book["alice"]["total"], "20")
        one_lab = gradescope.results([students["alice"].labs["lab1"]], 1.0)
        self.assertEqual(one_lab["score"], 15)


class ReportPageTest(unittest.TestCase):
    """report.html: totals, pass rates of graded runs, review flags and
    build failures linked to the students' pages, everything escaped."""
    def test_the_page(self):
        built = lab("lab1", "cpu_a", "gpu_b")
        broken = score.score_lab("lab1", RUBRIC, {}, state="build_failed", reason="x")
        broken.build_errors = "indexing.cu(3): error: <img src=x onerror=alert(1)>"
        hostile = "<script>alert(1)</script>"
        students = {
            "ann": StudentRecord(id="ann", state="graded", labs={"lab1": built},
                                 review=[ReviewFlag("lab1", 0, "process control",
                                                    "system(\"<b>rm</b>\")")]),
            hostile: StudentRecord(id=hostile, state="graded", labs={"lab1": broken})}
        with tempfile.TemporaryDirectory() as out:
            for sid in students:
                os.makedirs(outputs.student_dir(out, sid))
                with open(os.path.join(outputs.student_dir(out, sid), "feedback.html"), "w"):
                    pass
            written = outputs.write_class_outputs(out, students, LABS[:1])
            summary = read_json(os.path.join(out, "summary.json"))
            links = report.page_links(out, {s: outputs.student_dir(out, s) for s in written})
            page = report.html_page(summary, written, LABS[:1], links,
                                    {"speed_ratios.png": "not drawn: no ratio"}, when="now")
        self.assertNotIn("<script>", page)
        self.assertNotIn("<img src=x", page)
        self.assertNotIn("<b>rm</b>", page)
        self.assertIn("&lt;img src=x onerror=alert(1)&gt;", page)
        self.assertIn('<a href="students/ann/feedback.html">ann</a>', page)
        self.assertIn('<a href="students/%3Cscript%3Ealert%281%29%3C/script%3E/feedback.html">'
                      "&lt;script&gt;alert(1)&lt;/script&gt;</a>", page)
        # gpu_b: passed by ann, not built by the other: 100 %, one "did not build".
        self.assertIn("<td>gpu_b</td><td>" + report._bar(1.0, "100%", "#228833") +
                      "</td><td>1</td><td>0</td><td>0</td><td>0</td><td>1</td>", page)
        self.assertIn("Picture speed_ratios.png (speed ratios against their thresholds): "
                      "not drawn: no ratio.", page)
        self.assertIn("each lab counts its own points", page)


class PassRateTest(unittest.TestCase):
    def test_only_graded_runs_count(self):
        """A lab that did not build is "did not build", never a failure of
        every test in it (the class report once showed lab 3's GPU tests at
        0% for one compile error)."""
        built = lab("lab1", "cpu_a", "gpu_b")
        broken = score.score_lab("lab1", RUBRIC, {}, state="build_failed", reason="x")
        students = {"a": StudentRecord(id="a", state="graded", labs={"lab1": built}),
                    "b": StudentRecord(id="b", state="graded", labs={"lab1": broken})}
        tests = outputs.summary(students, ["a", "b"], LABS[:1])["labs"]["lab1"]["tests"]
        self.assertEqual((tests["gpu_b"]["passed"], tests["gpu_b"]["failed"],
                          tests["gpu_b"]["did_not_build"], tests["gpu_b"]["pass_rate"]),
                         (1, 0, 1, 1.0))


if __name__ == "__main__":
    unittest.main(verbosity=1)
