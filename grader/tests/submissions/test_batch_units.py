#!/usr/bin/env python3
"""Unit tests of the batch grader's pieces that need no build: the runner
(process group killed at the limit, output cap), the speed curve, which
tests run, one student's graders on one GPU, the review flags, archive
safety. ctest: batch.units."""
import io
import json
import os
import queue
import sys
import tarfile
import tempfile
import threading
import time
import types
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from batch import batch, outputs, records, review, runner, sandbox, score, slots, submissions, tasks, uids  # noqa: E402,E501
from batch.calibrated_curves import CalibratedCurves, CalibrationUnusable  # noqa: E402

FORK_LOOP = """
import os, time
started = 0
while started < 3000:
    try:
        pid = os.fork()
    except OSError:
        break
    if pid == 0:
        time.sleep(120)
        os._exit(0)
    started += 1
print("started", started)
open(os.path.join(os.getcwd(), "written"), "w").close()  # by absolute path, as graders write
"""


def ran(seconds, gpu_wait_s=None):
    """A test as score.read_results gives it, with only its times."""
    return score.ReportedTest("t", "pass", seconds=seconds, gpu_wait_s=gpu_wait_s)


class RunnerTest(unittest.TestCase):
    def test_group_killed_at_limit(self):
        with tempfile.TemporaryDirectory() as d:
            pidfile = os.path.join(d, "child")
            log = os.path.join(d, "log")
            # A child that would outlive its parent, and a parent that never ends.
            res = runner.run(["bash", "-c",
                              f"sleep 300 & echo $! > {pidfile}; while :; do :; done"],
                             log, timeout=1)
            self.assertTrue(res.timed_out)
            child = int(open(pidfile).read())
            time.sleep(0.2)
            # Gone, or a zombie waiting for a (container's) init to reap it.
            try:
                with open(f"/proc/{child}/stat") as f:
                    self.assertEqual(f.read().split(")")[-1].split()[0], "Z")
            except FileNotFoundError:
                pass

    def test_output_capped(self):
        with tempfile.TemporaryDirectory() as d:
            log = os.path.join(d, "log")
            res = runner.run(["bash", "-c", "yes flood | head -c 5000000"], log, timeout=30, cap=100000)
            self.assertEqual(res.rc, 0)
            self.assertLess(os.path.getsize(log), 100200)
            self.assertGreater(res.dropped, 4000000)

    def test_builds_yield_the_cpu(self):
        """A build step runs at build.BUILD_NICENESS below the batch."""
        from batch import build
        with tempfile.TemporaryDirectory() as d:
            log = os.path.join(d, "log")
            res = runner.run([sys.executable, "-c", "import os; print(os.nice(0))"], log,
                             timeout=30, niceness=build.BUILD_NICENESS)
            self.assertEqual(res.rc, 0)
            self.assertEqual(int(open(log).read()), min(19, os.nice(0) + build.BUILD_NICENESS))


class ProcessLimitTest(unittest.TestCase):
    def test_fork_loop_stops_at_the_limit(self):
        """As a grader is run: in the sandbox, as a pool uid, with
        RLIMIT_NPROC 200 tasks over what that uid runs now."""
        try:
            box = sandbox.probe(True)
            pool = uids.UidPool(uids.DEFAULT_BASE, 1, 1)
            sandbox.enable_pool(box, pool.probe_uid)
        except sandbox.SandboxError as e:
            self.skipTest(f"no sandbox with a uid pool here ({e}): the limit cannot hold")
        uid = pool.pair(0, 0)[0]
        python = "/usr/bin/python3"  # the sandbox shows only the system folders
        if not os.access(python, os.X_OK):
            self.skipTest("no /usr/bin/python3 to run the fork loop with")
        with tempfile.TemporaryDirectory() as d:
            os.chmod(d, 0o777)
            log = os.path.join(d, "log")
            argv = box.wrap([python, "-c", FORK_LOOP], d, [], uid=uid)
            res = runner.run(argv, log, cwd=d, timeout=60, confine=box.confinement,
                             max_tasks=tasks.process_limit(uid, 200))
            out = open(log).read()
            self.assertEqual(res.rc, 0, out)
            started = int(out.split("started")[1].split()[0])
            self.assertLessEqual(started, 200, out)
            self.assertGreater(started, 10, out)
            self.assertTrue(os.path.exists(os.path.join(d, "written")), out)


class CurveTest(unittest.TestCase):
    def test_linear_between_floor_and_threshold(self):
        t = {"name": "s", "status": "fail",
             "metrics": {"ratio": {"value": 1.1}, "threshold": {"value": 1.2}}}
        curve = {"s": score.SpeedCurve("ratio", 1.0)}
        t = score.ReportedTest.from_json(t)
        self.assertEqual(score.speed_partial(t, 8, curve)[0], 4.0)
        t.metrics["ratio"].value = 0.9
        self.assertEqual(score.speed_partial(t, 8, curve)[0], 0.0)
        t.metrics["ratio"].value = 1.15  # gated (by the rubric's gate): nothing
        self.assertEqual(score.speed_partial(t, 8, curve, gated=True)[0], 0.0)

    def test_no_gpu_is_never_passed(self):
        rubric = {"tests": [{"name": "g", "group": "gpu", "points": 5, "bonus": False, "gate": None}]}
        res = {"tests": [{"name": "g", "status": "skip", "points": 0, "skip_reason": "no_gpu",
                          "message": "skipped: no CUDA device on this machine (GPU checks need one)"}]}
        rec = score.score_lab("lab9", rubric, {}, score.Results.from_json(res))
        t = rec.tests[0]
        self.assertEqual((t.status, t.score, t.no_gpu, t.output),
                         ("failed", 0.0, True, score.NO_GPU))
        self.assertEqual(rec.no_gpu_points, 5)

    def test_not_gradable_is_out_of_the_total_and_calibration_recorded(self):
        """A ratio the grading GPU's calibration cannot grade earns nothing
        and leaves the lab's possible points; the calibration is recorded."""
        rubric = {"tests": [
            {"name": "g", "group": "gpu", "points": 5, "bonus": False, "gate": None},
            {"name": "s", "group": "gpu", "points": 3, "bonus": False, "gate": None}]}
        raw = (b'{"schema": "cuda-labs-results/4", "device": "d", "seed": 1, '
               b'"calibration": {"state": "file", "file": "tesla-t4_40sm_15gib.json", '
               b'"line": "tesla-t4_40sm_15gib.json"}, "tests": ['
               b'{"name": "g", "status": "pass", "metrics": {}},'
               b'{"name": "s", "status": "skip", "skip_reason": "not_gradable", '
               b'"message": "not graded: LAB4_X_MIN cannot be graded on this GPU"}]}')
        rec = score.score_lab("lab9", rubric, {}, score.read_results(raw))
        self.assertEqual((rec.score, rec.possible, rec.not_gradable_points), (5.0, 5, 3))
        self.assertTrue(rec.tests[1].not_gradable)
        self.assertIn(score.NOT_GRADABLE, rec.tests[1].output)
        self.assertEqual(rec.calibration, {"state": "file", "file": "tesla-t4_40sm_15gib.json"})
        # A calibration that is not one of the runner's is dropped, not trusted.
        bad = raw.replace(b'"file": "tesla', b'"file": "../tesla')
        self.assertIsNone(score.read_results(bad).calibration)
        from batch import outputs
        student = records.StudentRecord(id="s", state="graded", labs={"lab9": rec})
        self.assertIn("3 points not graded on this GPU (calibration tesla-t4_40sm_15gib.json)",
                      outputs.status_text(student, ["lab9"]))

    def test_no_gpu_is_the_reason_not_the_message(self):
        """The results' skip_reason decides, never the words of the message."""
        rubric = {"tests": [{"name": "g", "group": "gpu", "points": 5, "bonus": False, "gate": None}]}
        for reason, message, no_gpu in (
                ("by_test", "no CUDA device? skipped by the test", False),
                ("no_tool", "not graded: compute-sanitizer was not found", False),
                (None, "skipped: no CUDA device on this machine", False),
                ("no_gpu", "not graded: the race runner saw no GPU", True)):
            res = {"tests": [{"name": "g", "status": "skip", "skip_reason": reason,
                              "message": message}]}
            t = score.score_lab("lab9", rubric, {}, score.Results.from_json(res)).tests[0]
            self.assertEqual(t.no_gpu, no_gpu, reason)
            self.assertEqual(t.output, score.NO_GPU if no_gpu else "not graded: " + message)


class CalibratedCurveTest(unittest.TestCase):
    """The curve of the GPU that graded the run: its calibration file's
    floor and reference, mapped to tests by rules.json."""
    RULES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                         "calibration", "rules.json")
    FILE = "tesla-t4_40sm_15gib.json"

    def course(self, floors, references=None):
        src = tempfile.mkdtemp()
        folder = os.path.join(src, "grader", "calibration")
        os.makedirs(folder)
        with open(self.RULES) as f, open(os.path.join(folder, "rules.json"), "w") as out:
            out.write(f.read())
        with open(os.path.join(folder, self.FILE), "w") as f:
            json.dump({"floors": floors, "references": references or {}}, f)
        return CalibratedCurves(src)

    def test_file_floor_and_reference_replace_the_defaults(self):
        cal = self.course({"LAB1_IMAGE_COPY_FRACTION_FLOOR": {"value": 0.2, "default": 0.3}},
                          {"LAB1_IMAGE_COPY_FRACTION_REFERENCE": {"value": 0.7, "default": 0.9}})
        self.assertEqual(cal.check_all(), [self.FILE])
        rubric = {"gpu_image_bandwidth": score.SpeedCurve("fraction_of_copy_bandwidth", 0.3, 0.9),
                  "other": score.SpeedCurve("x", 0.5)}
        got = cal.curves(rubric, {"state": "file", "file": self.FILE})
        self.assertEqual(got["gpu_image_bandwidth"],
                         score.SpeedCurve("fraction_of_copy_bandwidth", 0.2, 0.7))
        self.assertEqual(got["other"], rubric["other"])
        # The defaults, or no calibration at all: the rubric's curve as it is.
        for state in (None, {"state": "defaults", "file": None}, {"state": "disabled", "file": None}):
            self.assertIs(cal.curves(rubric, state), rubric)
        # The partial credit follows: halfway from the calibrated floor 0.2 to 0.6.
        t = score.ReportedTest.from_json({"name": "gpu_image_bandwidth", "status": "fail", "metrics": {
            "fraction_of_copy_bandwidth": {"value": 0.4}, "threshold": {"value": 0.6}}})
        self.assertEqual(score.speed_partial(t, 6, got)[0], 3.0)
        # Made against the test table's defaults: nothing to say.
        self.assertEqual(cal.outdated({"lab1": rubric}), [])

    def test_a_floor_made_against_another_default_is_not_used(self):
        """The header's floor moved from 0.3 to 0.35 since the file was made:
        the test table's 0.35 grades, the reference (still current) is the
        file's, and the batch's line names the macro and both defaults."""
        cal = self.course({"LAB1_IMAGE_COPY_FRACTION_FLOOR": {"value": 0.2, "default": 0.3}},
                          {"LAB1_IMAGE_COPY_FRACTION_REFERENCE": {"value": 0.7, "default": 0.9}})
        rubric = {"gpu_image_bandwidth": score.SpeedCurve("fraction_of_copy_bandwidth", 0.35, 0.9)}
        got = cal.curves(rubric, {"state": "file", "file": self.FILE})
        self.assertEqual(got["gpu_image_bandwidth"],
                         score.SpeedCurve("fraction_of_copy_bandwidth", 0.35, 0.7))
        self.assertEqual(cal.outdated({"lab1": rubric}), [
            f"calibration {self.FILE}: not used for LAB1_IMAGE_COPY_FRACTION_FLOOR (calibrated "
            "against the default 0.3, the test table's is now 0.35, which grades); run make "
            "calibrate again on that GPU"])
        # Both moved: neither is the file's, and the line names both.
        rubric = {"gpu_image_bandwidth": score.SpeedCurve("fraction_of_copy_bandwidth", 0.35, 0.95)}
        self.assertEqual(cal.curves(rubric, {"state": "file", "file": self.FILE}), rubric)
        line, = cal.outdated({"lab1": rubric})
        self.assertIn("LAB1_IMAGE_COPY_FRACTION_REFERENCE (calibrated against the default 0.9, "
                      "the test table's is now 0.95, which grades)", line)

    def test_the_committed_calibrations_record_numbers_as_defaults(self):
        """Every floor and reference of the course's own files says what it
        was calibrated against (the batch refuses a file that does not)."""
        repo = os.path.abspath(os.path.join(os.path.dirname(self.RULES), "..", ".."))
        self.assertTrue(CalibratedCurves(repo).check_all())

    def test_a_file_that_cannot_give_its_curves_is_refused(self):
        for value in ("0.2", -1, float("nan"), True):
            cal = self.course({"LAB1_IMAGE_COPY_FRACTION_FLOOR": {"value": value, "default": 0.3}})
            with self.assertRaises(CalibrationUnusable, msg=repr(value)):
                cal.check_all()
        for default in (None, "0.3", True):  # no default recorded: cannot be compared
            cal = self.course({"LAB1_IMAGE_COPY_FRACTION_FLOOR": {"value": 0.2, "default": default}})
            with self.assertRaises(CalibrationUnusable, msg=repr(default)):
                cal.check_all()
        cal = self.course({})
        with self.assertRaises(CalibrationUnusable):
            cal.curves({"t": score.SpeedCurve("x", 0.1)}, {"state": "file", "file": "../x.json"})
        with self.assertRaises(CalibrationUnusable):
            cal.curves({"t": score.SpeedCurve("x", 0.1)},
                       {"state": "file", "file": "nvidia-a100_108sm.json"})  # not there


class RecordsTest(unittest.TestCase):
    """records.py: lab.json as the dicts wrote it, key for key and in order
    (instructors' scripts and a resumed batch read it), and read back."""
    RUBRIC = {"title": "Lab 9", "tests": [
        {"name": "s", "group": "gpu", "points": 8, "bonus": False, "gate": None,
         "speed": {"metric": "ratio", "floor": 1.0, "reference": 2.5}},
        {"name": "b", "group": "cpu", "points": 2, "bonus": True, "gate": None}]}

    def test_a_graded_lab_keeps_its_keys_and_their_order(self):
        res = score.Results.from_json({
            "tests": [{"name": "s", "status": "fail", "message": "slow",
                       "metrics": {"ratio": {"value": 1.5}, "threshold": {"value": 2.0}}},
                      {"name": "b", "status": "pass", "notes": ""}],
            "device": "d", "seed": 7, "calibration": None})
        rec = score.score_lab("lab9", self.RUBRIC, score.curve_from_rubric(self.RUBRIC), res)
        rec.problem = None
        rec.symbol_findings = []
        rec.run = records.RunInfo("exit status 0", 1.0, 0, True, False)
        rec.seconds = 2.0
        data = rec.to_json()
        self.assertEqual(list(data), [
            "lab", "title", "state", "reason", "score", "possible", "bonus", "bonus_possible",
            "no_gpu_points", "not_gradable_points", "device", "calibration", "seed", "tests",
            "problem", "symbol_findings", "run", "seconds"])
        self.assertEqual(list(data["tests"][0]), [
            "name", "group", "max_score", "bonus", "score", "status", "no_gpu", "not_gradable",
            "outcome", "output", "ratio", "threshold", "partial"])
        self.assertEqual((data["tests"][0]["score"], data["tests"][0]["partial"]), (4.0, True))
        self.assertNotIn("ratio", data["tests"][1])
        self.assertEqual(records.LabRecord.from_json(data).to_json(), data)

    def test_a_lab_that_did_not_build_and_an_older_file(self):
        rec = score.score_lab("lab9", self.RUBRIC, {}, state="build_failed", reason="x")
        rec.build_errors = "e"
        rec.symbol_findings = []
        self.assertEqual(list(rec.to_json())[-2:], ["build_errors", "symbol_findings"])
        # A file of another version: a missing key takes its default, an
        # unknown one is kept.
        old = {"lab": "lab9", "title": "Lab 9", "state": "graded", "reason": "", "score": 1,
               "possible": 2, "bonus": 0, "bonus_possible": 0, "no_gpu_points": 0,
               "tests": [{"name": "s", "group": "gpu", "max_score": 2, "bonus": False,
                          "score": 1, "gated_by": None}], "future": 1}
        back = records.LabRecord.from_json(old)
        self.assertEqual((back.not_gradable_points, back.calibration), (0, None))
        self.assertEqual(back.tests[0].extra, {"gated_by": None})
        self.assertEqual(back.to_json()["future"], 1)
        with self.assertRaises(ValueError):
            records.LabRecord.from_json(None)

    def test_student_json_of_a_graded_student_and_of_an_error_row(self):
        lab = score.score_lab("lab9", self.RUBRIC, {}, state="not_submitted", reason="x")
        graded = records.StudentRecord(id="s", entry="s.zip", state="graded", submission="zip",
                                       course="f", sandbox=True, taken=[], ignored=[],
                                       labs={"lab9": lab}, seconds=1.0)
        self.assertEqual(list(graded.to_json()), [
            "id", "entry", "state", "submission", "course", "sandbox", "taken", "ignored",
            "labs", "review", "seconds"])
        error = records.StudentRecord(id="s", entry="s.rar", state="error", error="why",
                                      submission=None, course="f", labs={"lab9": lab})
        self.assertEqual(list(error.to_json()), [
            "id", "entry", "state", "error", "submission", "course", "labs", "review"])
        batch_json = {"shard": [0, 2], "submissions": "h", "ids": ["a"], "labs": ["lab9"]}
        self.assertEqual(records.BatchRecord.from_json(batch_json).to_json(), batch_json)


class RosterSummaryTest(unittest.TestCase):
    def test_said_before_grading(self):
        lines = outputs.roster_summary(["alice", "bob", "Ame\u0301lie"],
                                     ["alice", "bob_12345_67890_submission", "Am\u00e9lie"])
        self.assertEqual(lines, ["roster: 1 rostered ids have no submission: bob",
                                 "roster: 1 submissions are on no roster line: "
                                 "bob_12345_67890_submission"])
        self.assertEqual(outputs.roster_summary(None, ["alice"]), [])
        many = outputs.roster_summary([], [f"s{i:02d}" for i in range(25)], shown=3)
        self.assertEqual(many[1], "roster: 25 submissions are on no roster line: s00 s01 s02 "
                                  "and 22 more")


class GradedTestsTest(unittest.TestCase):
    def test_only_tests_worth_points(self):
        rubric = {"tests": [{"name": "a", "group": "cpu", "points": 5, "bonus": False},
                            {"name": "table", "group": "gpu", "points": 0, "bonus": False},
                            {"name": "self", "group": "selftest", "points": 0, "bonus": False},
                            {"name": "b", "group": "gpu", "points": 2, "bonus": True}]}
        self.assertEqual([t["name"] for t in score.graded_tests(rubric)], ["a", "b"])


class StudentOnOneGpuTest(unittest.TestCase):
    """run_labs: one GPU slot for a student's labs, their graders together
    with a fresh pair of lock files, or in turn without them."""
    def fake_batch(self, in_turn):
        b = batch.Batch.__new__(batch.Batch)
        b.args = types.SimpleNamespace(labs_in_turn=in_turn)
        b.run_slots = queue.Queue()
        b.run_slots.put("0")
        b.test_slots = slots.TestSlots(3)
        return b

    @staticmethod
    def built(*names):
        return [types.SimpleNamespace(lab=types.SimpleNamespace(name=n)) for n in names]

    def test_together_with_locks(self):
        b = self.fake_batch(False)
        labs = self.built("lab1", "lab2", "lab3")
        together = threading.Barrier(len(labs), timeout=10)  # broken unless all run at once
        seen = []

        def run_lab(built, gpu, lock, at_once):
            together.wait()
            modes = [oct(os.stat(os.path.join(lock, n)).st_mode & 0o777) for n in ("gate", "gpu")]
            seen.append((built.lab.name, gpu, lock, modes, at_once))
            return built.lab.name + " graded"
        b.run_lab = run_lab
        with tempfile.TemporaryDirectory() as scratch:
            self.assertEqual(b.run_labs(labs, scratch), ["lab1 graded", "lab2 graded",
                                                         "lab3 graded"])
            self.assertEqual({s[2] for s in seen}, {os.path.join(scratch, "gpu-share")})
        self.assertTrue(all(s[1] == "0" and s[3] == ["0o644", "0o644"] for s in seen), seen)
        self.assertEqual({s[4] for s in seen}, {3})  # nothing measured yet: 3 each
        self.assertEqual(b.run_slots.get_nowait(), "0")  # the slot came back

    def test_slots_follow_the_labs_work(self):
        b = self.fake_batch(False)
        for lab, seconds in (("lab1", 10.0), ("lab2", 20.0), ("lab3", 30.0)):
            b.test_slots.record(lab, [ran(seconds / 2), ran(seconds / 2)])
        seen = {}

        def run_lab(built, gpu, lock, at_once):
            seen[built.lab.name] = at_once
            return built.lab.name
        b.run_lab = run_lab
        with tempfile.TemporaryDirectory() as scratch:
            b.run_labs(self.built("lab1", "lab2", "lab3"), scratch)
        self.assertEqual(seen, {"lab1": 2, "lab2": 3, "lab3": 4})

    def test_tests_at_once_only_under_the_locks(self):
        b = self.fake_batch(False)
        b.args.test_timeout, b.args.tests_at_once = 0, 3
        # The course's runner executes the submission's test program.
        b.course = types.SimpleNamespace(recipes={"lab1": {"runner": "/c/lab1_check"}})
        built = types.SimpleNamespace(lab=types.SimpleNamespace(name="lab1"), exe="/w/tests",
                                      test_uid=None)
        runs = ["/c/lab1_check", "--tests", "/w/tests", "--scored-only", "--results-fd", "5"]
        self.assertEqual(b.grader_argv(built, 5, "/s/gpu-share", 3), runs + ["--jobs", "3"])
        self.assertEqual(b.grader_argv(built, 5, "/s/gpu-share", 1), runs)
        self.assertEqual(b.grader_argv(built, 5, None, 3), runs)
        # With the pool, the test programs run as the pair's second uid.
        built.test_uid = 2000000001
        self.assertEqual(b.grader_argv(built, 5, None, 1), runs + ["--test-uid", "2000000001"])

    def test_in_turn_without_locks(self):
        b = self.fake_batch(True)
        running = []

        def run_lab(built, gpu, lock):
            running.append(built)
            self.assertEqual((len(running), lock), (1, None))
            running.remove(built)
            return built
        b.run_lab = run_lab
        labs = self.built("lab1", "lab2")
        with tempfile.TemporaryDirectory() as scratch:
            self.assertEqual(b.run_labs(labs, scratch), labs)
            self.assertFalse(os.path.exists(os.path.join(scratch, "gpu-share")))


class TestSlotsShareTest(unittest.TestCase):
    """slots.py: how a student's graders share the tests they run at once."""
    def test_share_in_proportion(self):
        # The seven labs' summed test times on an H200 (2026-11-26).
        work = {"lab1": 18.5, "lab2": 19.2, "lab3": 17.7, "lab4": 22.5, "lab5": 35.3,
                "lab6": 30.8, "lab7": 41.3}
        self.assertEqual(slots.share(work, 21), {"lab1": 2, "lab2": 2, "lab3": 2, "lab4": 3,
                                                 "lab5": 4, "lab6": 3, "lab7": 5})

    def test_share_bounds(self):
        # b stops at the harness's 8; a gets at least 1, and one of what b left over.
        self.assertEqual(slots.share({"a": 1.0, "b": 1000.0}, 20), {"a": 2, "b": 8})
        self.assertEqual(slots.share({"a": 1.0, "b": 1.0}, 3), {"a": 2, "b": 1})

    def test_uniform_until_every_lab_is_measured(self):
        t = slots.TestSlots(3)
        t.record("lab1", [ran(5.0)])
        self.assertEqual(t.allot(["lab1", "lab2"]), {"lab1": 3, "lab2": 3})
        t.record("lab2", [ran(None)])  # no time: no measurement
        self.assertEqual(t.allot(["lab1", "lab2"]), {"lab1": 3, "lab2": 3})
        self.assertEqual(t.allot(["lab1"]), {"lab1": 3})

    def test_median_of_recent_runs(self):
        t = slots.TestSlots(3)
        for seconds in (10.0, 10.0, 1000.0):  # one student's hung test moves nothing
            t.record("lab1", [ran(seconds)])
        t.record("lab2", [ran(20.0)])
        self.assertEqual(t.allot(["lab1", "lab2"]), {"lab1": 2, "lab2": 4})

    def test_waits_for_the_gpu_are_not_work(self):
        t = slots.TestSlots(3)
        t.record("lab1", [ran(10.0, None)])
        # 30 s of test time, 20 of them waiting to measure alone: 10 s of work
        t.record("lab2", [ran(20.0, 15.0),
                          ran(10.0, 5.0)])
        self.assertEqual(t.allot(["lab1", "lab2"]), {"lab1": 3, "lab2": 3})
        t.record("lab3", [ran(1.0, 9.0)])  # never below nothing
        self.assertEqual(t.allot(["lab1", "lab3"]), {"lab1": 3, "lab3": 3})


class ReviewTest(unittest.TestCase):
    def test_flags_and_skeleton_calls(self):
        code = '// exit(1) in a comment\nint f() { exit(1); }\nconst char *s = "PASS    x";\n'
        flags = {f.flag for f in review.flags_for_file("a.cu", code, "")}
        self.assertIn("process control", flags)
        env = 'void f() { setenv("GRADER_CALIBRATED_VALUES", "X=0.1", 1); }\n'
        self.assertIn("environment change",
                      {f.flag for f in review.flags_for_file("a.cu", env, "")})
        self.assertIn("text imitating the grader's result lines", flags)
        self.assertEqual(review.flags_for_file("a.cu", "void g() { exit(1); }", "exit(1);"), [])

    def test_score_lines_of_every_kind_are_imitations(self):
        # The harness's score line, all graded and with a part not graded
        # (harness_report.c, print_score); prose about scores is not.
        imitation = "text imitating the grader's result lines"
        for line in ("lab4: Score 45/50", "Score CPU 18/18, GPU not graded (32 points)",
                     "Score GPU not graded (8 points)", "Score CPU 0/18"):
            flags = {f.flag for f in review.flags_for_file("a.cu", f'puts("{line}");', "")}
            self.assertIn(imitation, flags, line)
        flags = {f.flag for f in review.flags_for_file("a.cu", "// Score the CPU part", "")}
        self.assertNotIn(imitation, flags)


    def test_reading_the_own_process_is_flagged(self):
        # The way to the harness's record (design.md, "Residual risk").
        own = "the process's own memory or descriptors"
        for code in ('FILE *m = fopen("/proc/self/maps", "r");', 'sprintf(p, "/proc/%d/mem", pid);',
                     'if (strstr(line, "grader-record"))', "extern void *harness_shared;"):
            flags = {f.flag for f in review.flags_for_file("a.cu", code, "")}
            self.assertIn(own, flags, code)
        flags = {f.flag for f in review.flags_for_file("a.cu", "int procs = 3; /* proc */", "")}
        self.assertNotIn(own, flags)


class ArchiveTest(unittest.TestCase):
    def test_tar_with_dotdot_is_rejected(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "evil.tar.gz")
            with tarfile.open(path, "w:gz") as t:
                info = tarfile.TarInfo("../../escape.cu")
                info.size = 1
                t.addfile(info, io.BytesIO(b"x"))
            sub = submissions.Submission("evil", path, "tar.gz")
            with self.assertRaises(submissions.Rejected):
                submissions.unpack(sub, os.path.join(d, "out"))


if __name__ == "__main__":
    unittest.main()
