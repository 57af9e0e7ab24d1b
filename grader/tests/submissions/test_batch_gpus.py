#!/usr/bin/env python3
"""The batch's GPUs on fake machines (grader/batch/gpus.py): which GPU is
which node, what CUDA is told in and out of the sandbox, the refusal to
bind every node, and how a probe's output is judged. No GPU needed."""
import json
import os
import sys
import tempfile
import types
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from batch import batch, gpus, outputs, records, sandbox, score  # noqa: E402

UUIDS = ["GPU-aaaaaaaa-0000-0000-0000-000000000000", "GPU-bbbbbbbb-1111-1111-1111-111111111111",
         "GPU-cccccccc-2222-2222-2222-222222222222", "GPU-dddddddd-3333-3333-3333-333333333333"]
BUSES = ["00000000:19:00.0", "00000000:3B:00.0", "00000000:4C:00.0", "00000000:5D:00.0"]
SMI = "".join(f"{i}, {UUIDS[i]}, NVIDIA H200, {BUSES[i]}\n" for i in range(4))


def fake_machine(root, minors, uuid_lines=True, nodes=None):
    """/proc and /dev of a machine whose GPU i has node minors[i] (the
    driver's numbering need not follow nvidia-smi's)."""
    proc, dev = os.path.join(root, "proc"), os.path.join(root, "dev")
    for i, minor in enumerate(minors):
        folder = os.path.join(proc, "driver/nvidia/gpus", "0000:" + BUSES[i][9:].lower())
        os.makedirs(folder)
        with open(os.path.join(folder, "information"), "w") as f:
            f.write("Model: \t\t NVIDIA H200\n" +
                    (f"GPU UUID: \t {UUIDS[i]}\n" if uuid_lines else "") +
                    f"Device Minor: \t {minor}\nBus Location: \t 0000:{BUSES[i][9:]}\n")
    os.makedirs(dev)
    for name in ["nvidiactl", "nvidia-uvm"] + [f"nvidia{m}" for m in (nodes or minors)]:
        open(os.path.join(dev, name), "w").close()
    return proc, dev


class NodesTest(unittest.TestCase):
    def test_each_gpu_gets_its_own_node_only(self):
        with tempfile.TemporaryDirectory() as root:
            proc, dev = fake_machine(root, [2, 0, 3, 1])
            found = gpus.parse_gpus(SMI, proc)
            self.assertEqual([g.minor for g in found], [2, 0, 3, 1])
            nodes = gpus.device_nodes(found[1], dev)
            own = [n for n in nodes if os.path.basename(n)[6:].isdigit()]
            self.assertEqual(own, [os.path.join(dev, "nvidia0")])
            self.assertIn(os.path.join(dev, "nvidiactl"), nodes)

    def test_matched_by_bus_address_without_uuid_lines(self):
        with tempfile.TemporaryDirectory() as root:
            proc, _ = fake_machine(root, [1, 0, 2, 3], uuid_lines=False)
            self.assertEqual([g.minor for g in gpus.parse_gpus(SMI, proc)], [1, 0, 2, 3])

    def test_unknown_node_is_refused_never_every_node(self):
        with tempfile.TemporaryDirectory() as root:
            proc, dev = fake_machine(root, [0, 1])  # GPUs 2 and 3 have no driver entry
            found = gpus.parse_gpus(SMI, proc)
            self.assertIsNone(found[2].minor)
            with self.assertRaises(gpus.GpuSetupError):
                gpus.device_nodes(found[2], dev)
            box = sandbox.Sandbox(True, bwrap="bwrap")
            with self.assertRaises(gpus.GpuSetupError):
                box.wrap(["grader"], "/w", [], gpu=found[2])

    def test_missing_node_is_refused(self):
        with tempfile.TemporaryDirectory() as root:
            proc, dev = fake_machine(root, [0, 1, 2, 3], nodes=[0, 1])
            with self.assertRaises(gpus.GpuSetupError):
                gpus.device_nodes(gpus.parse_gpus(SMI, proc)[3], dev)

    def test_unreadable_listing_stops(self):
        with self.assertRaises(gpus.GpuSetupError):
            gpus.parse_gpus("No devices were found\n", "/nonexistent")


class SelectTest(unittest.TestCase):
    def setUp(self):
        self.all = gpus.parse_gpus(SMI, "/nonexistent")

    def test_unset_is_every_gpu(self):
        self.assertEqual(gpus.select(self.all, None), self.all)

    def test_indices_and_uuids(self):
        self.assertEqual([g.index for g in gpus.select(self.all, "3,1")], ["3", "1"])
        self.assertEqual([g.index for g in gpus.select(self.all, "GPU-cccc, 0")], ["2", "0"])

    def test_a_name_that_matches_nothing_stops(self):
        for wanted in ("7", "GPU-ffff", "GPU-"):
            with self.assertRaises(gpus.GpuSetupError, msg=wanted):
                gpus.select(self.all, wanted)

    def test_a_slurm_job_gets_only_its_allocation(self):
        self.assertEqual(gpus.machine_gpus({"SLURM_JOB_ID": "7"}), [])

    def test_minus_one_ends_the_list(self):
        self.assertEqual(gpus.select(self.all, "-1"), [])
        self.assertEqual([g.index for g in gpus.select(self.all, "2,-1,3")], ["2"])


class RenumberTest(unittest.TestCase):
    """In the sandbox the worker's GPU is CUDA's device 0 (its node is the
    only one there); outside, its UUID, whatever CUDA's order."""
    def test_sandboxed_is_zero_for_every_worker(self):
        for g in gpus.parse_gpus(SMI, "/nonexistent"):
            self.assertEqual(gpus.cuda_visible(g, sandboxed=True), "0")
            self.assertEqual(gpus.cuda_visible(g, sandboxed=False), g.uuid)

    def test_grader_env_selects_the_worker(self):
        b = batch.Batch.__new__(batch.Batch)
        b.sandbox = sandbox.Sandbox(True)
        g = gpus.parse_gpus(SMI, "/nonexistent")[3]
        self.assertEqual(b.grader_env(g, "/w")["CUDA_VISIBLE_DEVICES"], "0")
        b.sandbox = sandbox.Sandbox(False)
        self.assertEqual(b.grader_env(g, "/w")["CUDA_VISIBLE_DEVICES"], UUIDS[3])
        self.assertEqual(b.grader_env(None, "/w")["CUDA_VISIBLE_DEVICES"], "")  # --no-gpu


class ProbeTest(unittest.TestCase):
    def setUp(self):
        self.gpu = gpus.parse_gpus(SMI, "/nonexistent")[1]

    def test_its_own_gpu_and_only_it(self):
        ok = f"cuInit: 0\ndevices: 1\ndevice 0: NVIDIA H200 ({UUIDS[1]})\n"
        self.assertTrue(gpus.judge_probe(self.gpu, 0, ok))
        self.assertFalse(gpus.judge_probe(self.gpu, 1, ok))
        other = ok.replace(UUIDS[1], UUIDS[0])
        self.assertFalse(gpus.judge_probe(self.gpu, 0, other))
        two = f"cuInit: 0\ndevices: 2\ndevice 0: NVIDIA H200 ({UUIDS[1]})\n" \
              f"device 1: NVIDIA H200 ({UUIDS[2]})\n"
        self.assertFalse(gpus.judge_probe(self.gpu, 0, two))
        self.assertFalse(gpus.judge_probe(self.gpu, 1, "cuInit: 100 CUDA_ERROR_NO_DEVICE\n"))

    def test_the_probe_compiles_and_says_why_without_a_driver(self):
        with tempfile.TemporaryDirectory() as folder:
            exe = gpus.build_probe(folder)
            result = gpus.run_probe(self.gpu, [exe], {"PATH": "/usr/bin:/bin",
                                                      "LD_LIBRARY_PATH": folder})
        if "cuInit: 0" in result.output:
            self.skipTest("this machine has a CUDA driver")
        self.assertFalse(result.ok)
        self.assertIn("FAILED", result.line())

    def test_a_worker_that_fails_stops_the_batch(self):
        b = batch.Batch.__new__(batch.Batch)
        b.gpus = gpus.parse_gpus(SMI, "/nonexistent")[:2]
        b.probe_worker = lambda g: gpus.ProbeResult(g, g.index == "0", "cuInit: 100")
        with tempfile.TemporaryDirectory() as work:
            with self.assertRaises(SystemExit) as stop:
                b.prove_workers(work)
        self.assertIn("1 of 2 workers", str(stop.exception))
        self.assertIn(UUIDS[1], str(stop.exception))


class NoDeviceOnAGpuWorkerTest(unittest.TestCase):
    """A lab that reports "no CUDA device" on a GPU worker runs again; then
    the worker's probe decides: a lost GPU stops the batch, a working one
    means the submission hid it, and those tests fail."""
    def fake(self, probe_ok, reports):
        b = batch.Batch.__new__(batch.Batch)
        b.args = types.SimpleNamespace(lab_timeout=900)
        b.sandbox = sandbox.Sandbox(False)
        b.calibrated = types.SimpleNamespace(curves=lambda curve, cal: curve)
        b.course = types.SimpleNamespace(curves={}, rubrics={"lab1": {
            "title": "t", "tests": [{"name": "gpu_t", "group": "gpu", "points": 5,
                                     "bonus": False}]}})
        runs = []

        def run_grader(built, gpu, share_lock, at_once):
            runs.append(gpu)
            status = reports[min(len(runs), len(reports)) - 1]
            test = {"name": "gpu_t", "status": {"no_gpu": "skip", "runner_failed": "crash"}.get(
                        status, status), "skip_reason": "no_gpu" if status == "no_gpu" else None,
                    "runner_failed": status == "runner_failed"}
            raw = ('{"tests": [%s]}' % json.dumps(test)).encode()
            return types.SimpleNamespace(timed_out=False, seconds=1.0, dropped=0,
                                         describe=lambda: "exit status 0"), raw, "log\n"
        b._run_grader = run_grader
        b.probe_worker = lambda g: gpus.ProbeResult(g, probe_ok, "cuInit: 0")
        b._finish_lab = lambda lab_out, record, start: record
        b.pool = None
        return b, runs

    def run_lab(self, b, gpu):
        """b.run_lab on a built lab1 whose output folder is a fresh one."""
        with tempfile.TemporaryDirectory() as folder:
            built = types.SimpleNamespace(lab=types.SimpleNamespace(name="lab1"), lab_out=folder,
                                          symbol_findings=[], start=0.0, files_hash=None)
            return b.run_lab(built, gpu, None)

    def test_rerun_passes(self):
        b, runs = self.fake(True, ["no_gpu", "pass"])
        gpu = gpus.parse_gpus(SMI, "/nonexistent")[2]
        record = self.run_lab(b, gpu)
        self.assertEqual(len(runs), 2)
        self.assertEqual(record.score, 5)
        self.assertEqual(record.no_gpu_points, 0)
        self.assertEqual(record.run.gpu, "NVIDIA H200")

    def test_hidden_gpu_fails_never_no_gpu(self):
        b, runs = self.fake(True, ["no_gpu"])
        gpu = gpus.parse_gpus(SMI, "/nonexistent")[2]
        record = self.run_lab(b, gpu)
        self.assertEqual(len(runs), 2)
        self.assertEqual((record.score, record.no_gpu_points), (0, 0))
        self.assertIn("hid the GPU", record.tests[0].output)

    def test_lost_gpu_stops_the_batch(self):
        b, _ = self.fake(False, ["no_gpu"])
        gpu = gpus.parse_gpus(SMI, "/nonexistent")[2]
        with self.assertRaises(batch.build.InfraError):
            self.run_lab(b, gpu)

    def test_a_test_the_runner_could_not_start_is_run_again(self):
        b, runs = self.fake(True, ["runner_failed", "pass"])
        b.pool = object()  # the runner's uid runs no student code
        record = self.run_lab(b, None)
        self.assertEqual((len(runs), record.score), (2, 5))
        b, runs = self.fake(True, ["runner_failed"])
        b.pool = object()
        with self.assertRaises(batch.build.InfraError):
            self.run_lab(b, None)

    def test_status_names_the_gpu_model(self):
        lab = score.score_lab("lab1", {"title": "t", "tests": []}, {}, state="graded")
        lab.run = records.RunInfo("exit status 0", 1.0, 0, True, False, "NVIDIA H200", UUIDS[0])
        rec = records.StudentRecord(id="s", entry="s", state="graded", submission="folder",
                                    course="f", labs={"lab1": lab})
        self.assertEqual(outputs.status_text(rec, ["lab1"]), "ok (graded on NVIDIA H200)")


if __name__ == "__main__":
    unittest.main(verbosity=1)
