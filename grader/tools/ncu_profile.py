#!/usr/bin/env python3
"""make profile-labN: a lab's kernels under Nsight Compute, in plain words.

    ncu_profile.py --metrics grader/lab4/lab4_profile.metrics -- build/bin/lab4_kernels profile [args]

Runs the lab's kernel driver in profile mode (each kernel of the lab's table
once) under `ncu` and prints one block per kernel: each metric of the
metrics file with its plain-words label. Lines of the metrics file:

    metric_name<TAB>plain-words label
    # text printed after the table ("what to look for")

When Nsight Compute is missing, or the driver does not let this user read the
GPU's performance counters (ERR_NVGPUCTRPERM), one line says so and how to
fix it, and the exit status is 0: nothing is wrong with the student's code.
"""
import argparse
import csv
import os
import shutil
import subprocess
import sys
import tempfile

PERMISSION_HELP = (
    "the driver does not let this user read the GPU's performance counters "
    "(ERR_NVGPUCTRPERM). Run as root, or ask an administrator to load the driver with "
    "NVreg_RestrictProfilingToAdminUsers=0 (a file in /etc/modprobe.d, then reboot).")


def read_metrics(path):
    """[(metric, label)], [explanation lines] from a metrics file."""
    metrics, notes = [], []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("#"):
                notes.append(line[2:] if line.startswith("# ") else line[1:])
            elif line.strip():
                name, _, label = line.partition("\t")
                metrics.append((name.strip(), label.strip() or name.strip()))
    return metrics, notes


def find_ncu():
    for candidate in (os.environ.get("NCU"), shutil.which("ncu"), "/usr/local/cuda/bin/ncu"):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


def short_kernel_name(name):
    """'void transpose_tile_kernel<32>(const float *, ...)' -> 'transpose_tile_kernel<32>'."""
    name = name.strip()
    if name.startswith("void "):
        name = name[5:]
    depth = 0
    for i, ch in enumerate(name):
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        elif ch == "(" and depth == 0:
            return name[:i]
    return name


def parse_number(text):
    """ncu prints numbers with thousands separators ("1,048,576"); None if not a number."""
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return None


def parse_ncu_csv(text, metric_names):
    """Kernels in launch order: [(kernel name, {metric: (value text, unit)})].

    `ncu --csv --page raw` prints a header row (starting with "ID"), a row of
    units, then one row per profiled kernel launch; other lines (the
    program's own output, ==PROF== notes) are skipped."""
    lines = text.splitlines()
    start = next((i for i, l in enumerate(lines) if l.startswith('"ID"')), None)
    if start is None:
        return []
    rows = list(csv.reader(lines[start:]))
    header, units = rows[0], rows[1] if len(rows) > 1 else []
    column = {name: i for i, name in enumerate(header)}
    kernels = []
    for row in rows[2:]:
        if len(row) != len(header):
            continue
        values = {}
        for metric in metric_names:
            i = column.get(metric)
            if i is not None:
                values[metric] = (row[i], units[i] if i < len(units) else "")
        kernels.append((short_kernel_name(row[column.get("Kernel Name", 0)]), values))
    return kernels


def format_value(text, unit):
    number = parse_number(text)
    if number is None:
        return f"{text} {unit}".strip()
    scaled, prefix = number, ""
    if unit in ("byte/second", "byte/s"):
        return f"{number / 1e9:,.1f} GB/s"
    if unit == "byte":
        return f"{number / 2**20:,.1f} MiB"
    if unit in ("", "inst", "warp", "thread"):
        for factor, p in ((1e9, " billion"), (1e6, " million")):
            if abs(number) >= factor:
                scaled, prefix = number / factor, p
                break
        shown = f"{scaled:,.2f}{prefix}" if prefix else f"{number:,.6g}"
        return f"{shown} {unit}".strip()
    return f"{number:,.6g} {unit}".strip()


def render(kernels, metrics, notes):
    out = []
    for name, values in kernels:
        out.append(name)
        width = max(len(label) for _, label in metrics)
        for metric, label in metrics:
            if metric in values:
                text, unit = values[metric]
                out.append(f"  {label:<{width}}  {format_value(text, unit)}")
            else:
                out.append(f"  {label:<{width}}  (not reported for this kernel)")
    if notes:
        out.append("")
        out.extend(notes)
    return "\n".join(out)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--metrics", required=True, help="the lab's .metrics file")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- runner [args]")
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("give the runner after --")
    if not os.path.exists(args.metrics):
        print(f"profile: {args.metrics} does not exist: this lab has no profile yet")
        return 2
    metrics, notes = read_metrics(args.metrics)

    ncu = find_ncu()
    if ncu is None:
        print("profile: Nsight Compute (ncu) is not installed here (looked at $NCU, PATH and "
              "/usr/local/cuda/bin); it comes with the CUDA toolkit.")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "ncu.csv")
        run = subprocess.run(
            [ncu, "--csv", "--page", "raw", "--log-file", log,
             "--metrics", ",".join(m for m, _ in metrics)] + command,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, check=False)
        text = open(log, encoding="utf-8", errors="replace").read() if os.path.exists(log) else ""
    everything = text + run.stdout
    if "ERR_NVGPUCTRPERM" in everything:
        print("profile: " + PERMISSION_HELP)
        return 0
    kernels = parse_ncu_csv(text, [m for m, _ in metrics])
    if not kernels:
        print("profile: Nsight Compute profiled no kernel. Its output:")
        print(everything.strip() or "(none)")
        return 1
    # The runner's own lines (a stage it skipped, say), without ncu's notes.
    for line in run.stdout.splitlines():
        if line.strip() and not line.startswith("=="):
            print(line)
    print(f"Nsight Compute on {' '.join(command)} ({len(kernels)} kernels):\n")
    print(render(kernels, metrics, notes))
    return 0 if run.returncode == 0 else run.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
