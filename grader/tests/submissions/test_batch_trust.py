#!/usr/bin/env python3
"""Unit tests of what makes the batch's gradebook trustworthy, none of
which needs a build: the results it accepts (validated, UTF-8, points from
the rubric), the reaper (no process outlives its lab, setsid or not), the
bookkeeping across runs (student.json composed from every lab.json; merge
refuses an incomplete set of shards) and the CSV cells (no formula runs;
ids exact for an LMS import). ctest: batch.trust."""
import concurrent.futures as cf
import csv
import json
import os
import queue
import shutil
import signal
import sys
import tempfile
import threading
import time
import types
import unittest
import unittest.mock
import urllib.parse

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from batch import batch, build, outputs, records, runner, sandbox, score, submissions  # noqa: E402
from batch.labs import Lab  # noqa: E402
from batch.util import read_json, write_json_atomic  # noqa: E402

RUBRIC = {"title": "Lab 9", "tests": [
    {"name": "cpu_a", "group": "cpu", "points": 5, "bonus": False, "gate": None},
    {"name": "gpu_mechanism", "group": "gpu", "points": 4, "bonus": False, "gate": None},
    {"name": "gpu_fast", "group": "gpu", "points": 10, "bonus": False, "gate": "gpu_mechanism"},
    {"name": "gpu_extra", "group": "gpu", "points": 3, "bonus": True, "gate": None},
]}


def results(*tests, **extra):
    body = {"schema": "cuda-labs-results/3", "device": "test", "seed": 1,
            "tests": [dict({"message": "", "notes": "", "output": "", "skip_reason": None,
                            "metrics": {}}, **t)
                      for t in tests]}
    body.update(extra)
    return json.dumps(body).encode()


class ResultsTest(unittest.TestCase):
    def test_points_come_from_the_rubric(self):
        raw = results({"name": "cpu_a", "status": "pass", "points": 19000000},
                      {"name": "gpu_mechanism", "status": "pass", "points": 4},
                      {"name": "gpu_fast", "status": "pass", "points": 10},
                      {"name": "gpu_extra", "status": "fail", "points": 3})
        rec = score.score_lab("lab9", RUBRIC, {}, results=score.read_results(raw))
        self.assertEqual(rec.score, 19)
        self.assertEqual(rec.bonus, 0)

    def test_a_failed_gate_costs_what_it_gates_whatever_the_file_says(self):
        raw = results({"name": "cpu_a", "status": "pass"},
                      {"name": "gpu_mechanism", "status": "fail"},
                      {"name": "gpu_fast", "status": "pass", "gated_by": None, "points": 10})
        rec = score.score_lab("lab9", RUBRIC, {}, results=score.read_results(raw))
        fast = [t for t in rec.tests if t.name == "gpu_fast"][0]
        self.assertEqual(fast.score, 0)
        self.assertIn("gpu_mechanism failed", fast.output)

    def test_a_missing_gate_credits_nothing(self):
        raw = results({"name": "gpu_fast", "status": "pass"})
        rec = score.score_lab("lab9", RUBRIC, {}, results=score.read_results(raw))
        self.assertEqual(rec.score, 0)

    def test_numbers_must_be_finite(self):
        for bad in (b'{"tests": [{"name": "cpu_a", "status": "pass", "points": 1e999}]}',
                    b'{"tests": [{"name": "cpu_a", "status": "pass", "points": NaN}]}',
                    b'{"tests": [{"name": "cpu_a", "status": "fail", "metrics": '
                    b'{"ratio": {"value": Infinity, "unit": "x"}}}]}'):
            with self.assertRaises(score.Unreadable):
                score.read_results(bad)

    def test_a_test_time_is_a_float_or_nothing(self):
        # Only slots.py reads it, to share tests out between a student's
        # graders: a number it cannot divide by must not reach it.
        for value, want in ((2.5, 2.5), (3, 3.0), (10 ** 400, None), (-1, None), (True, None),
                            ("4", None), (1e12, None)):
            for key in ("seconds", "gpu_wait_s"):
                raw = results({"name": "cpu_a", "status": "pass", key: value})
                self.assertEqual(getattr(score.read_results(raw).tests[0], key), want, value)

    def test_the_timeline_is_read_and_never_scored(self):
        # Schema 5's moments: read for timeline.py (finite numbers or null),
        # never points, and absent from older results without harm.
        moments = {"started_s": 0.25, "ended_s": 1.5, "alone_from_s": None}
        raw = results({"name": "cpu_a", "status": "pass", **moments},
                      {"name": "gpu_mechanism", "status": "pass", "started_s": "soon",
                       "ended_s": -2, "alone_from_s": 10 ** 400},
                      schema="cuda-labs-results/5", started_at=1790000000.125)
        got = score.read_results(raw)
        self.assertEqual(got.started_at, 1790000000.125)
        self.assertEqual([(t.started_s, t.ended_s, t.alone_from_s) for t in got.tests],
                         [(0.25, 1.5, None), (None, None, None)])
        plain = score.read_results(results({"name": "cpu_a", "status": "pass"},
                                           {"name": "gpu_mechanism", "status": "pass"}))
        self.assertIsNone(plain.started_at)
        self.assertIsNone(plain.tests[0].started_s)
        self.assertEqual(score.score_lab("lab9", RUBRIC, {}, results=got).score,
                         score.score_lab("lab9", RUBRIC, {}, results=plain).score)
        with self.assertRaises(score.Unreadable):
            score.read_results(raw.replace(b'"ended_s": 1.5', b'"ended_s": 1e999'))

    def test_schema_is_checked(self):
        for bad in (b"", b"[]", b'{"tests": {}}', b'{"tests": [{"status": "pass"}]}',
                    b'{"tests": [{"name": "cpu_a"}]}',
                    b'{"tests": [{"name": "cpu_a", "status": "passed"}]}',
                    b'{"tests": [{"name": "cpu_a", "status": "pass", "message": 3}]}',
                    b'{"tests": [{"name": "cpu_a", "status": "skip", "skip_reason": "gpu"}]}',
                    b'{"tests": [{"name": "cpu_a", "status": "skip", "skip_reason": 2}]}',
                    b'{"tests": [{"name": "a", "status": "pass"}, {"name": "a", "status": "pass"}]}',
                    b'{"tests": [' * 5000):
            with self.assertRaises(score.Unreadable, msg=bad[:60]):
                score.read_results(bad)

    def test_the_skip_reason_is_read(self):
        raw = results({"name": "gpu_mechanism", "status": "skip", "skip_reason": "no_gpu",
                       "message": "skipped: no CUDA device on this machine (GPU checks need one)"})
        rec = score.score_lab("lab9", RUBRIC, {}, results=score.read_results(raw))
        self.assertEqual(rec.no_gpu_points, 4)
        # Results of schema 2 have none: readable, and a skip that is only a skip.
        raw = json.dumps({"schema": "cuda-labs-results/2", "tests": [
            {"name": "gpu_mechanism", "status": "skip",
             "message": "skipped: no CUDA device on this machine (GPU checks need one)"}]})
        got = score.read_results(raw.encode())
        self.assertIsNone(got.tests[0].skip_reason)
        self.assertEqual(score.score_lab("lab9", RUBRIC, {}, results=got).no_gpu_points, 0)

    def test_invalid_utf8_is_replaced_not_fatal(self):
        raw = results({"name": "cpu_a", "status": "fail"}).replace(b'"output": ""',
                                                                      b'"output": "caf\xe9 \xe4\xb8"')
        got = score.read_results(raw)
        self.assertIn("\ufffd", got.tests[0].output)

    def test_unreadable_lab_is_said_in_the_gradebook(self):
        rec = score.score_lab("lab9", RUBRIC, {}, results=None, reason="error: x")
        rec.problem = "results unreadable"
        student = records.StudentRecord(id="s", state="graded", labs={"lab9": rec})
        self.assertIn("results unreadable: lab9", outputs.status_text(student, ["lab9"]))
        rec.problem = "time limit"
        self.assertIn("time limit: lab9", outputs.status_text(student, ["lab9"]))


class StepOutputTest(unittest.TestCase):
    """build.read_step_output: what a sandboxed step left in the build
    folder, which the sandbox could have made a link, a FIFO or a folder."""
    def test_only_a_regular_file_is_read_and_every_kind_removed(self):
        with tempfile.TemporaryDirectory() as d:
            secret = os.path.join(d, "secret")
            with open(secret, "wb") as f:
                f.write(b"instructor's")
            cases = {"file": lambda p: open(p, "wb").write(b"# report\n"),
                     "link": lambda p: os.symlink(secret, p),
                     "fifo": os.mkfifo, "folder": os.mkdir, "missing": lambda p: None}
            got = {}
            for name, make in cases.items():
                path = os.path.join(d, name + ".step")
                make(path)
                got[name] = build.read_step_output(path)
                self.assertFalse(os.path.lexists(path), name)
            self.assertEqual(got, {"file": b"# report\n", "link": None, "fifo": None,
                                   "folder": None, "missing": None})
            with open(secret, "rb") as f:
                self.assertEqual(f.read(), b"instructor's")


class ReaperTest(unittest.TestCase):
    ORPHAN = ("import os, sys, time\n"
              "if os.fork() == 0:\n"
              "    os.setsid()\n"
              "    if os.fork() == 0:\n"
              "        open(sys.argv[1], 'w').write(str(os.getpid()))\n"
              "        time.sleep(300)\n"
              "    os._exit(0)\n"
              "time.sleep(float(sys.argv[2]))\n")

    def _orphan_pid(self, pidfile):
        for _ in range(200):
            if os.path.exists(pidfile) and open(pidfile).read():
                return int(open(pidfile).read())
            time.sleep(0.02)
        self.fail("the orphan never started")

    def _gone(self, pid):
        for _ in range(200):
            try:
                with open(f"/proc/{pid}/stat") as f:
                    if f.read().split(") ")[1].startswith("Z"):
                        return True
            except OSError:
                return True
            time.sleep(0.02)
        return False

    def _run(self, linger, timeout):
        with tempfile.TemporaryDirectory() as d:
            pidfile = os.path.join(d, "pid")
            script = os.path.join(d, "orphan.py")
            with open(script, "w") as f:
                f.write(self.ORPHAN)
            res = runner.run([sys.executable, script, pidfile, str(linger)],
                             os.path.join(d, "log"), timeout=timeout, reap=True)
            pid = self._orphan_pid(pidfile)
            self.assertTrue(self._gone(pid), f"the setsid orphan {pid} outlived its command")
            return res

    def test_setsid_orphan_dies_when_the_command_ends(self):
        res = self._run(linger=0.5, timeout=60)
        self.assertEqual(res.rc, 0)
        self.assertFalse(res.timed_out)

    def test_setsid_orphan_dies_at_the_time_limit(self):
        res = self._run(linger=300, timeout=2)
        self.assertTrue(res.timed_out)
        self.assertLess(res.seconds, 2 + runner.REAPER_GRACE_S + 5)

    def test_results_descriptor_is_inherited(self):
        with tempfile.TemporaryDirectory() as d, tempfile.TemporaryFile() as channel:
            fd = channel.fileno()
            res = runner.run(["sh", "-c", f"echo hello >&{fd}"], os.path.join(d, "log"),
                             pass_fds=(fd,), reap=True)
            self.assertEqual(res.rc, 0)
            self.assertEqual(os.pread(fd, 100, 0), b"hello\n")

    def test_a_signal_death_is_reported_as_one(self):
        with tempfile.TemporaryDirectory() as d:
            res = runner.run(["sh", "-c", "kill -SEGV $$"], os.path.join(d, "log"), reap=True)
            self.assertEqual(res.rc, -signal.SIGSEGV)


class CsvTest(unittest.TestCase):
    IDS = ["alice", "=HYPERLINK(\"http://x\")", "+1", "-2", "@SUM(A1)", "\tx", "\rx",
           "caf\u00e9", "a,b\"c", "%41"]

    def test_no_cell_starts_a_formula_and_ids_come_back_exact(self):
        with tempfile.TemporaryDirectory() as out:
            students = {sid: records.StudentRecord(
                id=sid, state="graded",
                review=[records.ReviewFlag("f.cu", 1, "x", "=cmd|' /C calc'!A0")])
                for sid in self.IDS}
            outputs.write_class_outputs(out, students, [records.LabInfo("lab1", "Lab 1", 5, 0)])
            for name in ("gradebook.csv", "review.csv"):
                with open(os.path.join(out, name), newline="", encoding="utf-8") as f:
                    for row in csv.reader(f):
                        for cell in row:
                            self.assertFalse(cell.startswith(outputs.FORMULA_STARTS),
                                             f"{name} cell {cell!r}")
            # An LMS import: csv, then the id column made for it, decoded.
            with open(os.path.join(out, "gradebook.csv"), newline="", encoding="utf-8") as f:
                got = [urllib.parse.unquote(r["id_percent_encoded"]) for r in csv.DictReader(f)
                       if r["id"] != "points-possible"]
            self.assertEqual(sorted(got), sorted(self.IDS))


def fake_batch(out, lab_names):
    """A Batch with just what composing a student needs."""
    b = batch.Batch.__new__(batch.Batch)
    b.out = out
    b.course = types.SimpleNamespace(labs=[types.SimpleNamespace(name=n) for n in lab_names],
                                     curves={}, fingerprint="f")
    b.labs = b.course.labs
    b.sandbox = types.SimpleNamespace(enabled=False)
    b.graders_as = "pool"
    b.calibrated = types.SimpleNamespace(curves=lambda curve, calibration: curve)
    return b


class BookkeepingTest(unittest.TestCase):
    def test_a_student_is_composed_from_every_lab_on_disk(self):
        with tempfile.TemporaryDirectory() as out:
            b = fake_batch(out, ["lab1", "lab2"])
            sub = types.SimpleNamespace(id="s1", name="s1", kind="folder")
            lab1 = score.score_lab("lab1", RUBRIC, {}, results=score.read_results(
                results({"name": "cpu_a", "status": "pass"})))
            write_json_atomic(os.path.join(outputs.student_dir(out, "s1"), "lab1", "lab.json"), lab1.to_json())
            b.labs = b.course.labs[1:]  # a run with --labs 2 only: lab 1 must stay
            lab2 = score.score_lab("lab2", RUBRIC, {}, state="not_submitted", reason="x")
            write_json_atomic(os.path.join(outputs.student_dir(out, "s1"), "lab2", "lab.json"), lab2.to_json())
            rec = b.compose_student(sub, {"state": "graded"}, 1.0)
            self.assertEqual(sorted(rec.labs), ["lab1", "lab2"])
            self.assertEqual(rec.labs["lab1"].score, 5)
            self.assertTrue(b.is_graded(sub))
            b.labs = b.course.labs + [types.SimpleNamespace(name="lab3")]
            self.assertFalse(b.is_graded(sub), "a lab never graded makes the student not done")

    def test_merge_wants_the_shard_count_and_one_gpu_model(self):
        with tempfile.TemporaryDirectory() as root:
            ids = ["a", "b", "c", "d"]
            outs = [self._shard(root, i, 2, ids) for i in range(2)]
            outputs.merge(outs, os.path.join(root, "all"), shards_expected=2)
            with self.assertRaises(SystemExit) as e:
                outputs.merge(outs, os.path.join(root, "all"), shards_expected=3)
            self.assertIn("--shards 3", str(e.exception))
            # shard 1 graded on another GPU model
            path = os.path.join(outputs.student_dir(outs[1], "b"), "student.json")
            rec = read_json(path)
            rec["labs"]["lab1"]["run"] = records.RunInfo("exit status 0", 1.0, 0, True, False,
                                                         "NVIDIA T4", "GPU-1").to_json()
            write_json_atomic(path, rec)
            path = os.path.join(outputs.student_dir(outs[0], "a"), "student.json")
            rec = read_json(path)
            rec["labs"]["lab1"]["run"] = records.RunInfo("exit status 0", 1.0, 0, True, False,
                                                         "NVIDIA H200", "GPU-2").to_json()
            write_json_atomic(path, rec)
            with self.assertRaises(SystemExit) as e:
                outputs.merge(outs, os.path.join(root, "all"))
            self.assertIn("2 GPU models", str(e.exception))
            outputs.merge(outs, os.path.join(root, "all"), mixed_gpus=True)

    def _shard(self, root, index, count, ids, graded=None, name=None, points=0):
        """A shard's OUT as the batch leaves it: `graded` (default: all of
        its students) with their lab.json and student.json, and the
        completion marker when that is every one."""
        out = os.path.join(root, name or f"shard{index}")
        b = fake_batch(out, ["lab1"])
        b.args = types.SimpleNamespace(shard=(index, count))
        write_json_atomic(outputs.labs_info_path(out), [{"name": "lab1", "possible": 5,
                                                         "bonus_possible": 0}])
        b.record_batch(ids)
        lab1 = score.score_lab("lab1", RUBRIC, {}, state="not_submitted", reason="x")
        lab1.state, lab1.score = "graded", points
        mine = ids[index::count]
        for sid in mine if graded is None else graded:
            folder = outputs.student_dir(out, sid)
            write_json_atomic(os.path.join(folder, "lab1", "lab.json"), lab1.to_json())
            write_json_atomic(os.path.join(folder, "student.json"),
                              {"id": sid, "state": "graded", "labs": {"lab1": lab1.to_json()}})
        with unittest.mock.patch.object(batch, "say"):  # "not complete": the test's point
            b.mark_complete([types.SimpleNamespace(id=sid) for sid in mine])
        return out

    @staticmethod
    def _rows(folder):
        with open(os.path.join(folder, "gradebook.csv"), encoding="utf-8") as f:
            return {r["id"]: (r["lab1"], r["grading_status"]) for r in csv.DictReader(f)
                    if r["id"] != "points-possible"}

    def _refused(self, *args, **kw):
        with self.assertRaises(SystemExit) as e:
            outputs.merge(*args, **kw)
        return str(e.exception)

    def test_merge_refuses_an_incomplete_set_of_shards(self):
        with tempfile.TemporaryDirectory() as root:
            ids = ["a", "b", "c", "d"]
            outs = [self._shard(root, i, 2, ids) for i in range(2)]
            students, _ = outputs.merge(outs, os.path.join(root, "all"))
            self.assertEqual(sorted(students), ids)
            self.assertIn("1/2", self._refused(outs[:1], os.path.join(root, "part")))
            students, _ = outputs.merge(outs[:1], os.path.join(root, "part"),
                                        roster=["a", "b", "c", "d", "e"], accept_incomplete=True)
            rows = self._rows(os.path.join(root, "part"))
            self.assertEqual(rows["b"][1], "not graded: its shard's output was not merged")
            self.assertEqual(rows["e"][1], "not submitted")
            self.assertEqual(rows["a"][1], "ok")
            self.assertEqual(sorted(students), ["a", "b", "c", "d", "e"])

    def test_the_marker_is_written_only_when_the_shard_is_graded(self):
        with tempfile.TemporaryDirectory() as root:
            ids = ["a", "b", "c", "d"]
            done = self._shard(root, 0, 2, ids)
            marker = read_json(outputs.complete_path(done))
            self.assertEqual(marker["shard"], [0, 2])
            self.assertEqual(marker["submissions"], read_json(os.path.join(done, "batch.json"))
                             ["submissions"])
            part = self._shard(root, 1, 2, ids, graded=["b"])  # killed before d
            self.assertFalse(os.path.exists(outputs.complete_path(part)))
            # A run starting removes it: in progress, it is not complete.
            b = fake_batch(done, ["lab1"])
            b.args = types.SimpleNamespace(cuda_arch="80", course=None, course_cache=None)
            b.jobs = 1
            with unittest.mock.patch.object(batch.course_mod, "prepare",
                                            side_effect=RuntimeError("killed")):
                with self.assertRaises(RuntimeError):
                    b.prepare()
            b.lock.close()
            self.assertFalse(os.path.exists(outputs.complete_path(done)))

    def test_merge_refuses_a_shard_that_did_not_finish(self):
        with tempfile.TemporaryDirectory() as root:
            ids = ["a", "b", "c", "d"]
            outs = [self._shard(root, 0, 2, ids), self._shard(root, 1, 2, ids, graded=["b"])]
            message = self._refused(outs, os.path.join(root, "all"))
            self.assertIn("shard 1/2 (%s) did not finish" % outs[1], message)
            self.assertIn("--accept-incomplete", message)
            outputs.merge(outs, os.path.join(root, "all"), accept_incomplete=True)
            rows = self._rows(os.path.join(root, "all"))
            self.assertEqual(rows["d"], ("0", "not graded: its shard's grading did not finish"))
            self.assertEqual(rows["b"][1], "ok")
            # A marker of another submission list counts for nothing.
            write_json_atomic(outputs.complete_path(outs[1]),
                              {"shard": [1, 2], "submissions": "other"})
            self.assertIn("did not finish", self._refused(outs, os.path.join(root, "x")))

    def test_merge_checks_each_output(self):
        with tempfile.TemporaryDirectory() as root:
            ids = ["a", "b", "c", "d"]
            outs = [self._shard(root, i, 2, ids) for i in range(2)]
            dest = os.path.join(root, "all")
            batch_json = os.path.join(outs[1], "batch.json")
            good = read_json(batch_json)
            for damaged in ("{not json", json.dumps({"shard": [0, 2]}),
                            json.dumps(dict(good, shard=[3, 2])), json.dumps([1])):
                with open(batch_json, "w") as f:
                    f.write(damaged)
                self.assertIn(outs[1], self._refused(outs, dest))
            os.unlink(batch_json)
            self.assertIn(outs[1] + " has no batch.json", self._refused(outs, dest))
            write_json_atomic(batch_json, good)
            student = os.path.join(outputs.student_dir(outs[1], "b"), "student.json")
            with open(student, "w") as f:
                f.write('{"id": "b", "state": "gra')
            self.assertIn("%s: students/b/student.json" % outs[1], self._refused(outs, dest))
            write_json_atomic(student, {"id": "x", "state": "graded"})
            self.assertIn("students/b/student.json", self._refused(outs, dest))
            write_json_atomic(student, {"id": "b", "state": "graded"})
            os.unlink(outputs.labs_info_path(outs[0]))
            self.assertIn(outs[0] + " has no usable labs.json", self._refused(outs, dest))

    def test_a_student_in_two_outputs_needs_replace(self):
        with tempfile.TemporaryDirectory() as root:
            ids = ["a", "b", "c", "d"]
            outs = [self._shard(root, i, 2, ids) for i in range(2)]
            again = self._shard(root, 1, 2, ids, name="shard1-again", points=5)
            dest = os.path.join(root, "all")
            message = self._refused(outs + [again], dest)
            self.assertIn("2 students are in two outputs", message)
            self.assertIn("b in %s and %s" % (outs[1], again), message)
            self.assertIn("--replace", message)
            outputs.merge(outs + [again], dest, replace=[again])
            rows = self._rows(dest)
            self.assertEqual((rows["a"][0], rows["b"][0], rows["d"][0]), ("0", "5", "5"))
            outputs.merge([again] + outs, dest, replace=[os.path.join(root, ".", "shard1")])
            self.assertEqual(self._rows(dest)["b"][0], "0")
            self.assertIn("not one of the outputs",
                          self._refused(outs, dest, replace=[os.path.join(root, "elsewhere")]))

    def test_merge_from_the_command_line(self):
        from batch import cli
        with tempfile.TemporaryDirectory() as root:
            ids = ["a", "b"]
            out = self._shard(root, 0, 1, ids)
            roster = os.path.join(root, "roster.csv")
            with open(roster, "w") as f:
                f.write("Name,SID\nAnn,a\nCid,c\n")
            dest = os.path.join(root, "all")
            with unittest.mock.patch("builtins.print"):
                cli.main(["merge", out, "-o", dest, "--roster", roster, "--roster-column", "sid",
                          "--no-report"])
            self.assertEqual(self._rows(dest)["c"][1], "not submitted")
            self.assertEqual(self._rows(dest)["b"][1], "not on the roster")
            with self.assertRaises(SystemExit) as e:
                cli.main(["merge", out, "-o", dest, "--roster", roster, "--no-report"])
            self.assertIn("merge: roster %s line 1: no column 'id'" % roster, str(e.exception))

    def test_students_no_longer_submitted_leave_the_gradebook(self):
        with tempfile.TemporaryDirectory() as root:
            out = self._shard(root, 0, 1, ["Alice", "bob"])
            b = fake_batch(out, ["lab1"])
            b.args = types.SimpleNamespace(shard=None)
            b.record_batch(["alice", "bob"])  # "Alice.zip" renamed "alice.zip"
            b.roster, b.labs_info = None, [records.LabInfo("lab1", "Lab 1", 5, 0)]
            with unittest.mock.patch.object(batch, "say_once") as said:
                b.write_outputs(final=False)
            self.assertEqual(sorted(self._rows(out)), ["bob"])
            self.assertIn("Alice", said.call_args[0][1])


LAB1 = "labs/lab1_indexing/indexing.cu"
LAB2 = "labs/lab2_matmul/matmul.cu"


class RegradeTest(unittest.TestCase):
    """A rerun grades again what changed (the student's lab files, or the
    course), says so, and keeps the rest as it is; a lab file too large to
    unpack is "too large". The build is faked: every build "fails", so a
    lab's record says what it graded without a compiler."""
    def setUp(self):
        self.root = tempfile.mkdtemp()
        self.subs = os.path.join(self.root, "subs")
        self.course = os.path.join(self.root, "course")
        for rel in (LAB1, LAB2):  # the skeleton
            self.write(os.path.join(self.course, rel), b"// skeleton\n")
        self.builds = []
        self.said = []
        fake_build = unittest.mock.patch.object(batch.build, "build_lab", self.fake_build)
        fake_say = unittest.mock.patch.object(batch, "say", self.said.append)
        for p in (fake_build, fake_say):
            p.start()
            self.addCleanup(p.stop)

    def tearDown(self):
        shutil.rmtree(self.root)

    @staticmethod
    def write(path, data):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)

    def fake_build(self, recipe, staged, work, box, readonly, log_path, limits):
        self.builds.append(recipe["lab"])
        with open(log_path, "w") as f:
            f.write("error: nothing builds here\n")
        return types.SimpleNamespace(exe=None, message="exit status 1", symbol_findings=[])

    def batch(self, out="out", fingerprint="f1", force=False):
        b = batch.Batch.__new__(batch.Batch)
        b.out = os.path.join(self.root, out)
        b.args = types.SimpleNamespace(force=force)
        labs = [Lab(1, "lab1_indexing", [LAB1]), Lab(2, "lab2_matmul", [LAB2])]
        b.course = types.SimpleNamespace(
            labs=labs, src=self.course, curves={}, fingerprint=fingerprint, cache=self.course,
            rubrics={l.name: RUBRIC for l in labs}, recipes={l.name: {"lab": l.name} for l in labs})
        b.labs = labs
        b.sandbox = sandbox.Sandbox(False)
        b.pool, b.graders_as = None, "batch user"
        b.student_slots = queue.Queue()
        b.student_slots.put(0)
        b.calibrated = types.SimpleNamespace(curves=lambda curve, calibration: curve)
        b.build_slots = threading.Semaphore(1)
        b.pid = os.getpid()
        b.private = os.path.join(b.out, ".work", "private")
        os.makedirs(b.private, exist_ok=True)
        return b

    def hand_in(self, sid, files):
        folder = os.path.join(self.subs, sid)
        shutil.rmtree(folder, ignore_errors=True)
        for rel, data in files.items():
            if data == "big":
                self.write(os.path.join(folder, rel), b"")
                os.truncate(os.path.join(folder, rel), submissions.MAX_FILE_BYTES + 1)
            else:
                self.write(os.path.join(folder, rel), data)
        return submissions.Submission(sid, folder, "folder")

    def grade(self, b, sub):
        with cf.ThreadPoolExecutor(2) as pool:
            return b.grade_student(sub, pool)

    def record(self, b, sid, lab=None):
        folder = outputs.student_dir(b.out, sid)
        return read_json(os.path.join(folder, lab, "lab.json") if lab else
                         os.path.join(folder, "student.json"))

    def test_an_unchanged_submission_is_kept_as_it_is(self):
        b = self.batch()
        sub = self.hand_in("s1", {LAB1: b"int a;\n"})
        first = self.grade(b, sub)
        self.assertEqual(first.labs["lab1"].state, "build_failed")
        self.assertEqual(first.labs["lab2"].state, "not_submitted")
        self.assertEqual(self.builds, ["lab1"])
        lab1 = self.record(b, "s1", "lab1")
        self.assertEqual((lab1["course"], len(lab1["files_hash"])), ("f1", 64))
        student = self.record(b, "s1")
        again = self.grade(self.batch(), self.hand_in("s1", {LAB1: b"int a;\n"}))
        self.assertEqual(self.builds, ["lab1"], "nothing built again")
        self.assertEqual(self.record(b, "s1"), student, "student.json as it was")
        self.assertEqual(again.to_json(), student)
        self.assertEqual(self.said, [])

    def test_a_changed_file_is_graded_again_and_said(self):
        b = self.batch()
        self.grade(b, self.hand_in("s1", {LAB1: b"int a;\n"}))
        self.grade(b, self.hand_in("s1", {LAB1: b"int b;\n"}))
        self.assertEqual(self.builds, ["lab1", "lab1"])
        self.assertEqual(self.said, ["s1: grading again: lab1 (the submission changed)"])
        # The first result is kept beside the new one, named by its files' hash.
        first = self.record(b, "s1")["labs"]["lab1"]["files_hash"]
        history = os.path.join(outputs.student_dir(b.out, "s1"), "lab1", "history")
        kept = os.listdir(history)
        self.assertEqual(len(kept), 1)
        self.assertNotEqual(kept[0].split("-", 1)[1][:16], first[:16])  # the old files' hash
        self.assertEqual(read_json(os.path.join(history, kept[0]))["lab"], "lab1")
        # The student's page names it beside the new result.
        with open(os.path.join(outputs.student_dir(b.out, "s1"), "feedback.txt")) as f:
            self.assertIn("graded before (lab1/history/, kept for disputes): " +
                          kept[0][:-len(".json")], f.read())
        # A lab handed in late: not submitted before, now its file is there.
        self.grade(b, self.hand_in("s1", {LAB1: b"int b;\n", LAB2: b"int c;\n"}))
        self.assertEqual(self.builds, ["lab1", "lab1", "lab2"])
        self.assertEqual(self.said[-1], "s1: grading again: lab2 (the submission changed)")
        self.assertEqual(self.record(b, "s1")["labs"]["lab2"]["state"], "build_failed")
        # A file renamed or removed changes the hash too.
        self.grade(b, self.hand_in("s1", {LAB2: b"int c;\n"}))
        self.assertEqual(self.record(b, "s1")["labs"]["lab1"]["state"], "not_submitted")

    def test_a_changed_course_grades_every_lab_again(self):
        self.grade(self.batch(), self.hand_in("s1", {LAB1: b"int a;\n"}))
        b = self.batch(fingerprint="f2")
        rec = self.grade(b, self.hand_in("s1", {LAB1: b"int a;\n"}))
        self.assertEqual(self.builds, ["lab1", "lab1"])
        self.assertEqual(self.said, ["s1: grading again: lab1 (the course changed), "
                                     "lab2 (the course changed)"])
        self.assertEqual({r.course for r in rec.labs.values()}, {"f2"})

    def test_a_record_without_a_hash_is_graded_again(self):
        b = self.batch()
        self.grade(b, self.hand_in("s1", {LAB1: b"int a;\n"}))
        path = os.path.join(outputs.student_dir(b.out, "s1"), "lab1", "lab.json")
        old = read_json(path)
        del old["files_hash"], old["course"]  # as an older batch wrote it
        write_json_atomic(path, old)
        self.grade(b, self.hand_in("s1", {LAB1: b"int a;\n"}))
        self.assertEqual(self.builds, ["lab1", "lab1"])
        self.assertIn("lab1 (its record does not say which files it graded)", self.said[0])

    def test_killed_and_resumed_is_the_uninterrupted_run(self):
        files = {LAB1: b"int a;\n", LAB2: b"int c;\n"}
        whole = self.batch("whole")
        self.grade(whole, self.hand_in("s1", files))
        killed = self.batch("killed")
        sub = self.hand_in("s1", files)
        killed.build_lab(sub, killed.labs[0], {LAB1: os.path.join(sub.path, LAB1)},
                         os.path.join(killed.out, ".work", "x"))  # then killed: no student.json
        self.builds.clear()
        resumed = self.grade(killed, sub)
        self.assertEqual(self.builds, ["lab2"], "only the lab not done")
        self.assertEqual(self.said, [])
        strip = lambda rec: {k: v for k, v in rec.items() if k != "seconds"}  # noqa: E731
        self.assertEqual({n: strip(r.to_json()) for n, r in resumed.labs.items()},
                         {n: strip(r) for n, r in self.record(whole, "s1")["labs"].items()})

    def test_force_grades_again_without_a_line(self):
        self.grade(self.batch(), self.hand_in("s1", {LAB1: b"int a;\n"}))
        self.grade(self.batch(force=True), self.hand_in("s1", {LAB1: b"int a;\n"}))
        self.assertEqual(self.builds, ["lab1", "lab1"])
        self.assertEqual(self.said, [])

    def test_a_file_too_large_is_said_not_missing(self):
        b = self.batch()
        rec = self.grade(b, self.hand_in("s1", {LAB1: "big", LAB2: b"int c;\n"}))
        lab1 = rec.labs["lab1"]
        self.assertEqual((lab1.state, lab1.score), ("too_large", 0))
        self.assertIn(LAB1 + " is over 1024 KiB", lab1.reason)
        self.assertEqual(self.builds, ["lab2"], "a lab too large is not built")
        status = outputs.status_text(rec, ["lab1", "lab2"])
        self.assertIn("too large: lab1", status)
        self.assertNotIn("not submitted", status)
        with open(os.path.join(outputs.student_dir(b.out, "s1"), "lab1", "results.json")) as f:
            self.assertIn("is over 1024 KiB", json.load(f)["output"])
        # Made small again: graded again.
        self.grade(b, self.hand_in("s1", {LAB1: b"int a;\n", LAB2: b"int c;\n"}))
        self.assertEqual(self.said, ["s1: grading again: lab1 (the submission changed)"])

    def test_an_error_row_is_not_written_again_unchanged(self):
        b = self.batch()
        sub = self.hand_in("s1", {LAB1: b"int a;\n"})
        sub.error = "its id looks like that of S1.zip"
        first = self.grade(b, sub)
        self.assertEqual(first.state, "error")
        path = os.path.join(outputs.student_dir(b.out, "s1"), "student.json")
        os.utime(path, (1, 1))
        self.grade(b, sub)
        self.assertEqual(os.stat(path).st_mtime, 1)
        sub.error = None  # the other entry renamed: graded now
        self.assertEqual(self.grade(b, sub).state, "graded")


class SandboxArgsTest(unittest.TestCase):
    def test_a_grader_sees_its_lab_read_only_and_a_capped_tmp(self):
        box = sandbox.Sandbox(True, bwrap="bwrap")
        box.sized_tmp = True
        argv = box.wrap(["grader"], "/w/lab1", ["/course"], writable=False, tmp_bytes=1 << 30)
        i = argv.index("/w/lab1")
        self.assertEqual(argv[i - 1], "--ro-bind")
        self.assertEqual(argv[argv.index("--chdir") + 1], "/tmp")
        self.assertEqual(argv[argv.index("--size") + 1:argv.index("--size") + 4],
                         [str(1 << 30), "--tmpfs", "/tmp"])


if __name__ == "__main__":
    unittest.main(verbosity=1)
