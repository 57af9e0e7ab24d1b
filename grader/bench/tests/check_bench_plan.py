#!/usr/bin/env python3
"""What make bench would time, held against committed result files, with
no GPU: each lab's kernel driver prints its plan (`labN_kernels_solution
bench --dry-run`: problem, size, key, label, role, work per result, from
the lab's kernel table) and every committed result must be the planned one
at its place, the same in every key that needs no measurement. A planned
row the file lacks must be an optional final stage (measured after the
file was); a lab the file does not have is not compared.

    check_bench_plan.py BIN RESULTS.json ...
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import bench  # noqa: E402

KEYS = ("problem", "size", "x", "work", "unit", "kernel", "role", "baseline", "ceiling")


def planned(program):
    out = subprocess.run([program, "bench", "--dry-run"], capture_output=True, text=True,
                         timeout=60)
    if out.returncode != 0:
        raise SystemExit(f"{program} bench --dry-run exited {out.returncode}: {out.stderr}")
    return [json.loads(line) for line in out.stdout.splitlines()]


def differences(lab, plan, committed):
    """One message per committed row that is not the plan's, and per
    planned row (not optional) the file lacks."""
    messages, j = [], 0
    where = lambda r: f"lab {lab} {r['problem']} {r['size']} {r['kernel']} ({r['role']})"
    for p in plan:
        c = committed[j] if j < len(committed) else None
        if c is None or any(c.get(k) != p[k] for k in ("problem", "size", "kernel", "role")):
            if not p["optional"]:
                messages.append(f"{where(p)}: planned, not in the file at its place")
            continue
        j += 1
        for key in KEYS:
            if c.get(key) != p[key]:
                messages.append(f"{where(p)}: {key} {c.get(key)!r} in the file, {p[key]!r} planned")
        # Lab 6's setup names the longest stage it measured after the row's label.
        if not c.get("label", "").startswith(p["label"]):
            messages.append(f"{where(p)}: label {c.get('label')!r} in the file, "
                            f"{p['label']!r} planned")
    messages += [f"{where(c)}: in the file, not planned" for c in committed[j:]]
    return messages


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    programs = bench.bench_programs(argv[0])
    if not programs:
        print(f"check_bench_plan: no labN_kernels programs in {argv[0]} (build bench_programs)",
              file=sys.stderr)
        return 1
    failed = False
    for path in argv[1:]:
        with open(path, encoding="utf-8") as f:
            results = json.load(f)
        for lab, program in sorted(programs.items()):
            entry = results.get("labs", {}).get(str(lab))
            if entry is None:
                print(f"{os.path.basename(path)}: lab {lab} not measured there, not compared")
                continue
            messages = differences(lab, planned(program), entry.get("results", []))
            for m in messages:
                print(f"{os.path.basename(path)}: {m}")
            failed |= bool(messages)
            if not messages:
                print(f"{os.path.basename(path)}: lab {lab}: every result as planned")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
