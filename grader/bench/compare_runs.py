"""Two `make bench` result files of one GPU, held against each other: is
the bench repeatable, and did any row come out faster than its ceiling?

    python3 grader/bench/compare_runs.py FIRST.json SECOND.json

Run `make bench` twice in a row, copying the first file away. The check:

  - no row above its ceiling (pct_of_ceiling > 100: faster than cudaMemcpy
    or cuBLAS on the same work); a ceiling that is no hard limit
    (results_file.is_limit) holds no row;
  - rows of 0.1 ms or more agree within 3% (median). Shorter rows carry the
    launch's jitter, and PCIe rows (PCIE_BOUND_LABS) depend on the host:
    both are left out of this rule;
  - both files have the same rows, from the same GPU.

Exit status 0 when everything holds, 1 when something does not (each
listed), 2 when a file cannot be read.
"""
import argparse
import sys

import results_file

AGREEMENT = 0.03        # the largest relative difference of two medians
SHORTEST_MS = results_file.SHORT_MS  # rows shorter than this are not held to AGREEMENT
# Lab 6 times host<->device pipelines: every row, its ceiling included,
# moves its data over PCIe.
PCIE_BOUND_LABS = {6}


def row_key(r):
    return (int(r["lab"]), r["problem"], r["size"], r["kernel"], r["role"])


def key_text(key):
    lab, problem, size, kernel, role = key
    return f"lab {lab} {problem} {size} {kernel} ({role})"


def rows_above_ceiling(bench):
    """(key, pct_of_ceiling) of every row measured faster than a ceiling it
    is held to."""
    return [(row_key(r), r["pct_of_ceiling"]) for r, c in results_file.with_ceilings(bench)
            if c and results_file.is_limit(c) and r.get("pct_of_ceiling", 0.0) > 100.0]


def compare(first, second):
    """A report: what was compared and every rule that does not hold."""
    a = {row_key(r): r for r in results_file.results(first)}
    b = {row_key(r): r for r in results_file.results(second)}
    problems = []
    if first["gpu"]["name"] != second["gpu"]["name"]:
        problems.append(f"different GPUs: {first['gpu']['name']} and {second['gpu']['name']}")
    for name, bench in (("first", first), ("second", second)):
        for key, pct in rows_above_ceiling(bench):
            problems.append(f"{name} run: {key_text(key)} at {pct:.1f}% of its ceiling")
    for key in sorted(set(a) ^ set(b)):
        problems.append(f"{key_text(key)} only in the {'first' if key in a else 'second'} run")
    held, skipped, largest = 0, 0, (0.0, None)
    for key in sorted(set(a) & set(b)):
        ms_a, ms_b = a[key]["median_ms"], b[key]["median_ms"]
        if key[0] in PCIE_BOUND_LABS or min(ms_a, ms_b) < SHORTEST_MS:
            skipped += 1
            continue
        held += 1
        difference = abs(ms_a / ms_b - 1.0)  # both at least SHORTEST_MS
        if difference > largest[0]:
            largest = (difference, key)
        if difference > AGREEMENT:
            problems.append(f"{key_text(key)}: {ms_a:.4g} ms and {ms_b:.4g} ms, "
                            f"{100 * difference:.1f}% apart (at most {100 * AGREEMENT:g}%)")
    return {"held": held, "skipped": skipped, "largest": largest, "problems": problems}


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("first")
    p.add_argument("second")
    args = p.parse_args(argv)
    try:
        first, second = results_file.load(args.first), results_file.load(args.second)
    except (OSError, ValueError) as e:
        print(f"compare_runs: {e}", file=sys.stderr)
        return 2
    report = compare(first, second)
    difference, key = report["largest"]
    print(f"{first['gpu']['name']}: {report['held']} rows of {SHORTEST_MS:g} ms or more "
          f"compared ({report['skipped']} shorter or PCIe-bound left out); the largest "
          f"difference {100 * difference:.2f}%" + (f", {key_text(key)}" if key else ""))
    for line in report["problems"]:
        print(f"  {line}")
    print("the two runs agree and no row is above its ceiling" if not report["problems"]
          else f"{len(report['problems'])} problem(s)")
    return 1 if report["problems"] else 0


if __name__ == "__main__":
    sys.exit(main())
