#!/usr/bin/env python3
"""Summarize grader result files (cuda-labs-results/1 JSON) from repeated runs.

For each test: how often it passed, and min/median/max of every metric across
the runs. This is how the speed thresholds in grader/labN/labN_rubric.h are calibrated:
run a check many times on a GPU, then read the ratio spread here.

    python3 grader/tools/summarize_results.py build/results/run*/lab1*.json
"""
import json
import statistics
import sys
from collections import defaultdict


def load(paths):
    runs = []
    for path in paths:
        try:
            with open(path, encoding="utf-8") as f:
                runs.append(json.load(f))
        except (OSError, json.JSONDecodeError) as err:
            print(f"skipping {path}: {err}", file=sys.stderr)
    return runs


def summarize(runs):
    statuses = defaultdict(lambda: defaultdict(int))
    metrics = defaultdict(lambda: defaultdict(list))
    devices = set()
    for run in runs:
        devices.add(run.get("device", "?"))
        for test in run.get("tests", []):
            key = (run.get("lab", "?"), run.get("implementation", "?"), test["name"])
            statuses[key][test["status"]] += 1
            for name, metric in test.get("metrics", {}).items():
                if metric.get("value") is not None:
                    metrics[key][name].append(metric["value"])
    return devices, statuses, metrics


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    runs = load(argv[1:])
    if not runs:
        print("no readable result files", file=sys.stderr)
        return 1
    devices, statuses, metrics = summarize(runs)
    print(f"{len(runs)} result files; device(s): {'; '.join(sorted(devices))}")
    for key in sorted(statuses):
        lab, impl, name = key
        counts = ", ".join(f"{s} {n}" for s, n in sorted(statuses[key].items()))
        print(f"\n{lab} {impl} {name}: {counts}")
        for metric, values in sorted(metrics[key].items()):
            print(f"    {metric:32s} n={len(values):3d}  min {min(values):12.5g}  "
                  f"median {statistics.median(values):12.5g}  max {max(values):12.5g}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
