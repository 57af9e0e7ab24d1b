#!/usr/bin/env python3
"""make bench: every lab's reference and baselines, and the ceilings, timed
on this GPU into one result file.

    bench.py --bin build/bin --out build/results [--lab 4 ...] [--runs 11] [--seed 2024]
    bench.py --check-gpu        (exit 1, with one line, where there is no GPU)

Runs each lab's kernel driver whose program is in BIN in its bench mode,
`BIN/labN_kernels_solution bench` (kernel_bench.h: the graders' timing over
the lab's kernel table, JSON lines; labN_kernels where a copy has no
solutions/), merges their lines into OUT/bench-<gpu>.json (results_file.py)
and prints a summary. With --lab, the other labs' results are kept. Lab 6's
timeline comes from lab6_timeline(_solution).
"""
import argparse
import datetime
import json
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import results_file  # noqa: E402



def bench_programs(bin_dir):
    """{lab: path} of the kernel drivers built in bin_dir, the reference's
    (labN_kernels_solution) where there is one, else the student's."""
    found = {}
    names = os.listdir(bin_dir) if os.path.isdir(bin_dir) else []
    for name in sorted(names, key=lambda n: n.endswith("_solution")):
        match = re.fullmatch(r"lab(\d+)_kernels(_solution)?", name)
        if match:
            found[int(match.group(1))] = os.path.join(bin_dir, name)
    return found


def query_gpu():
    """nvidia-smi's view of GPU 0 as a dict, or None when there is no GPU."""
    fields = ["name", "driver_version", "clocks.max.sm", "clocks.max.mem", "clocks.sm",
              "clocks.mem"]
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=" + ",".join(fields),
                              "--format=csv,noheader,nounits", "-i", "0"],
                             capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if out.returncode != 0 or not out.stdout.strip():
        return None
    values = [v.strip() for v in out.stdout.strip().splitlines()[0].split(",")]
    gpu = dict(zip(fields, values))

    def mhz(key):
        try:
            return int(float(gpu.get(key, "")))
        except ValueError:  # "[N/A]" on some GPUs
            return None
    return {"name": gpu.get("name", "?"), "driver": gpu.get("driver_version", "?"),
            "clocks_mhz": {"sm_max": mhz("clocks.max.sm"), "memory_max": mhz("clocks.max.mem"),
                           "sm_at_start": mhz("clocks.sm"), "memory_at_start": mhz("clocks.mem")}}


class Progress:
    """One line on stderr, redrawn: bar, points done of planned, lab, time."""

    def __init__(self, labs):
        self.labs, self.started = labs, time.monotonic()
        self.lab, self.done, self.planned = None, 0, 0

    def draw(self):
        if not sys.stderr.isatty():
            return
        fraction = self.done / self.planned if self.planned else 0.0
        bar = "#" * int(30 * fraction) + "." * (30 - int(30 * fraction))
        elapsed = int(time.monotonic() - self.started)
        sys.stderr.write(f"\r[{bar}] lab {self.lab} ({self.labs.index(self.lab) + 1} of "
                         f"{len(self.labs)}): {self.done}/{self.planned} points, "
                         f"{elapsed // 60}:{elapsed % 60:02d} ")
        sys.stderr.flush()

    def lab_finished(self, lab, points, seconds):
        line = f"lab {lab}: {points} points in {seconds:.0f} s"
        if sys.stderr.isatty():
            sys.stderr.write("\r" + line.ljust(78) + "\n")
        else:
            sys.stderr.write(line + "\n")


def run_runner(binary, args, lab, progress, log):
    """Runs one runner; returns (device, results, notes, status)."""
    device, results, notes = None, [], []
    progress.lab, progress.done, progress.planned = lab, 0, 0
    progress.draw()
    proc = subprocess.Popen([binary] + args, stdout=subprocess.PIPE, stderr=log, text=True)
    for line in proc.stdout:
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            notes.append(line.strip())
            continue
        kind = record.pop("type", "")
        if kind == "device":
            device = record
        elif kind == "plan":
            progress.planned = record["points"]
        elif kind == "result":
            results.append(record)
            progress.done += 1
        elif kind == "note":
            notes.append(record["text"])
        progress.draw()
    return device, results, notes, proc.wait()


def run_timeline(bin_dir, log):
    """Lab 6's serial and streamed runs as CUPTI saw them: a list of rows."""
    for name in ("lab6_timeline_solution", "lab6_timeline"):
        binary = os.path.join(bin_dir, name)
        if not os.path.exists(binary):
            continue
        with tempfile.TemporaryDirectory() as tmp:
            csv_path = os.path.join(tmp, "timeline.csv")
            status = subprocess.run([binary, csv_path], stdout=log, stderr=log).returncode
            if status != 0:
                return None
            return results_file.read_timeline_csv(csv_path)
    return None


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default="build/bin")
    parser.add_argument("--out", default="build/results")
    parser.add_argument("--lab", action="append", type=int)
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--check-gpu", action="store_true")
    args = parser.parse_args(argv)

    gpu = query_gpu()
    if gpu is None:
        print("make bench needs an NVIDIA GPU, and nvidia-smi finds none on this machine "
              "(make plots and the handout checks work without one).", file=sys.stderr)
        return 1
    if args.check_gpu:
        return 0

    programs = bench_programs(args.bin)
    unknown = sorted(set(args.lab or []) - set(programs))
    if not programs or unknown:
        print(f"bench: no kernel driver (labN_kernels_solution or labN_kernels) for "
              f"{'lab ' + ', '.join(map(str, unknown)) if unknown else 'any lab'} in "
              f"{args.bin}: build them first (make bench builds bench_programs)", file=sys.stderr)
        return 1
    labs = sorted(set(args.lab or programs))
    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, f"bench-{results_file.slug(gpu['name'])}.json")
    log_path = os.path.join(args.out, "bench.log")
    bench = results_file.load(path) if args.lab and os.path.exists(path) else None
    if bench is None or bench.get("gpu", {}).get("name") != gpu["name"]:
        bench = results_file.empty()
    progress, status = Progress(labs), 0
    started = time.monotonic()
    with open(log_path, "w", encoding="utf-8") as log:
        for lab in labs:
            binary = programs[lab]
            lab_started = time.monotonic()
            device, results, notes, code = run_runner(
                binary, ["bench", "--runs", str(args.runs), "--seed", str(args.seed)], lab,
                progress, log)
            progress.lab_finished(lab, len(results), time.monotonic() - lab_started)
            if code != 0:
                notes.append(f"{os.path.basename(binary)} bench exited with status {code} "
                             f"(see {log_path})")
                status = 1
            entry = {"results": results, "notes": notes}
            if lab == 6:
                entry["timeline"] = run_timeline(args.bin, log)
            bench["labs"][str(lab)] = entry
            if device:
                bench["device"] = device
    bench["gpu"] = gpu
    bench["date"] = datetime.date.today().isoformat()
    bench["seed"], bench["runs"] = args.seed, args.runs
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    bench["implementation"] = ("the reference solutions (solutions/)"
                               if os.path.isdir(os.path.join(repo, "solutions"))
                               else "your code (labs/)")
    bench["bench_seconds"] = round(time.monotonic() - started, 1)
    results_file.finish(bench)
    results_file.save(bench, path)
    print(results_file.summary_table(bench))
    print(f"\nwritten: {path} ({bench['bench_seconds']:.0f} s; the runners' own output: "
          f"{log_path})")
    for lab, entry in sorted(bench["labs"].items()):
        for note in entry.get("notes", []):
            print(f"note, lab {lab}: {note}")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
