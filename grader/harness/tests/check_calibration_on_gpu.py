#!/usr/bin/env python3
"""The runner with a calibration file, end to end on a GPU (ctest
harness.calibration_on_gpu; exit 77, skipped, without one).

Lab 4's solution grader, with a file written here for the GPU it finds:
- a ratio marked not graded is skipped by the runner (skip_reason
  not_gradable), out of the possible total, and the report says so;
- a graded value reaches the test process (the speed test's threshold
  metric is the file's value, not the header's);
- a malformed file and a file for another GPU stop the grader (exit 2);
- a threshold made against another default than the header's now grades
  with the header's default, and the calibration line says so;
- GRADER_CALIBRATION=none grades with the defaults, and says so.

    check_calibration_on_gpu.py build/bin/lab4_check_solution WORKDIR"""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

GRADER_DIR = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(GRADER_DIR / "tools"))
import calibration_rule as rl  # noqa: E402


def run(grader, work, name, only, env_extra):
    results = work / f"{name}.json"
    results.unlink(missing_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("GRADER_CALIBRAT")}
    env.update(env_extra)
    p = subprocess.run([grader, "--only", only, "--results", str(results)], env=env,
                       capture_output=True, text=True, timeout=600)
    doc = json.loads(results.read_text()) if results.exists() else None
    return p.returncode, p.stdout + p.stderr, doc


def expect(cond, what, output=""):
    if not cond:
        print(f"FAILED: {what}\n{output}")
        sys.exit(1)
    print(f"ok: {what}")


def main(grader, work):
    work = Path(work)
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    status, out, doc = run(grader, work, "probe", "gpu_rejects_bad_input",
                           {"GRADER_CALIBRATION": "none"})
    gpu = rl.parse_device(doc["device"]) if doc else None
    if gpu is None:
        print(f"no GPU here ({doc['device'] if doc else 'no results'}): skipped")
        return 77
    folder = work / "calibration"
    folder.mkdir()
    file = rl.calibration_file_name(gpu["name"], gpu["sms"], gpu["memory_gib"])
    defaults = rl.header_defaults(GRADER_DIR)
    smem, padded = defaults["LAB4_SMEM_SPEEDUP_MIN"], defaults["LAB4_PADDED_SPEEDUP_MIN"]
    cal = {"schema": rl.CALIBRATION_SCHEMA, "gpu": gpu, "made": {"command": "a test"},
           "thresholds": {
               "LAB4_SMEM_SPEEDUP_MIN": {"graded": True, "value": 1.25, "default": smem,
                                         "tests": ["gpu_smem_speed_vs_naive"]},
               "LAB4_PADDED_SPEEDUP_MIN": {"graded": False, "value": None, "default": padded,
                                           "tests": ["gpu_padded_speed_vs_unpadded",
                                                     "selftest_unpadded_below_padded_threshold"]}}}
    (folder / file).write_text(json.dumps(cal))
    env = {"GRADER_CALIBRATION_DIR": str(folder)}

    status, out, doc = run(grader, work, "not_gradable", "gpu_padded_speed_vs_unpadded", env)
    t = doc["tests"][0] if doc else {}
    expect(status == 77 and t.get("status") == "skip" and t.get("skip_reason") == "not_gradable",
           "a ratio marked not graded is skipped by the runner as not_gradable", out)
    expect(doc["score"]["possible"] == 0 and doc["score"]["not_gradable"] == 5,
           "its 5 points are out of the possible total", out)
    expect(doc["calibration"] == {"state": "file", "file": file, "line": file},
           "the results name the calibration file", out)
    expect(f"calibration: {file}" in out and "cannot be graded on this GPU" in out,
           "the report's header names the file and the summary says what is not graded", out)

    status, out, doc = run(grader, work, "graded", "gpu_smem_speed_vs_naive", env)
    threshold = doc["tests"][0]["metrics"].get("threshold", {}).get("value") if doc else None
    expect(status == 0 and threshold == 1.25,
           f"the test process grades with the file's threshold (1.25, not the header's {smem:g})",
           out)

    outdated = json.loads(json.dumps(cal))
    outdated["thresholds"]["LAB4_SMEM_SPEEDUP_MIN"]["default"] = smem + 0.25
    (folder / file).write_text(json.dumps(outdated))
    status, out, doc = run(grader, work, "outdated", "gpu_smem_speed_vs_naive", env)
    threshold = doc["tests"][0]["metrics"].get("threshold", {}).get("value") if doc else None
    said = (f"not used for LAB4_SMEM_SPEEDUP_MIN (calibrated against the default {smem + 0.25:g}, "
            f"the header's is now {smem:g}, which grades)")
    expect(status == 0 and threshold == smem and said in out and said in doc["calibration"]["line"],
           f"a threshold made against another default grades with the header's ({smem:g}), "
           "and the calibration line says so", out)

    (folder / file).write_text('{"schema": "cuda-labs-calibration/1", ')
    status, out, _ = run(grader, work, "malformed", "gpu_smem_speed_vs_naive", env)
    expect(status == 2 and "not valid JSON" in out, "a malformed file stops the grader", out)

    other = dict(cal, gpu={"name": "Tesla T4", "sms": 40, "memory_gib": 15})
    (work / "t4.json").write_text(json.dumps(other))
    status, out, _ = run(grader, work, "other_gpu", "gpu_smem_speed_vs_naive",
                         {"GRADER_CALIBRATION": str(work / "t4.json")})
    expect(status == 2 and "made for Tesla T4" in out, "a file for another GPU stops the grader",
           out)

    status, out, doc = run(grader, work, "none", "gpu_rejects_bad_input",
                           dict(env, GRADER_CALIBRATION="none"))
    expect(status == 0 and doc["calibration"]["state"] == "disabled",
           "GRADER_CALIBRATION=none grades with the defaults and says so", out)
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1], sys.argv[2]))
