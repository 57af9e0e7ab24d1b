#!/usr/bin/env python3
"""Under GRADER_SM_COUNT the runner grades none of lab 6's GPU tests (ctest
harness.green_context_not_graded; any machine).

Lab 6's pipelines record their events into the legacy default stream and
return without synchronising; in a green context cudaStreamCreate makes
non-blocking streams, which that stream does not wait for (docs/design.md,
section 3.6). So the runner itself, before any test process starts, records
every GPU test of a suite with orders_by_legacy_stream as skipped, not
gradable, out of the possible total; its CPU tests run as usual. A suite
without the flag (lab 1) is graded as always.

    check_green_context_unordered.py LAB6_GRADER LAB1_GRADER WORKDIR"""
import json
import os
import subprocess
import sys
from pathlib import Path


def run(grader, results, *args):
    env = dict(os.environ, GRADER_SM_COUNT="40")
    p = subprocess.run([grader, *args, "--results", str(results)], env=env,
                       capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout + p.stderr, json.loads(results.read_text())


def expect(cond, what, output=""):
    if not cond:
        print(f"FAILED: {what}\n{output}")
        sys.exit(1)
    print(f"ok: {what}")


def main(lab6, lab1, work):
    work = Path(work)
    work.mkdir(parents=True, exist_ok=True)
    code, out, doc = run(lab6, work / "lab6.json")
    tests = doc["tests"]
    gpu = [t for t in tests if t["group"] != "cpu"]
    cpu = [t for t in tests if t["group"] == "cpu"]
    expect(code == 0, "lab 6 under GRADER_SM_COUNT exits 0", out)
    expect(gpu and all(t["status"] == "skip" and t["skip_reason"] == "not_gradable"
                       and "GRADER_SM_COUNT" in t["message"] and t["started_s"] is None
                       for t in gpu),
           f"all {len(gpu)} GPU tests of lab 6 skipped by the runner as not gradable", out)
    expect(cpu and all(t["status"] == "pass" for t in cpu),
           f"its {len(cpu)} CPU tests run and pass", out)
    score = doc["score"]
    expect(score["not_gradable"] == sum(t["max_points"] for t in gpu if not t["bonus"])
           and score["possible"] == sum(t["max_points"] for t in cpu if not t["bonus"]),
           f"the GPU tests' points are out of the total ({score})", out)
    expect("cannot be graded under GRADER_SM_COUNT" in out, "the report says why", out)

    code, out, doc = run(lab1, work / "lab1.json", "--only", "gpu_rejects_bad_input")
    test = doc["tests"][0]
    expect(test["skip_reason"] != "not_gradable" and doc["score"]["not_gradable"] == 0,
           f"lab 1 is graded as always (gpu_rejects_bad_input: {test['status']}, "
           f"skip_reason {test['skip_reason']})", out)
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
