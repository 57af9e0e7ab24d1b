#!/usr/bin/env python3
"""Lab 7 under Nsight Compute, per stage: shared-memory loads per FFMA and bank conflicts.

    lab7_ncu_profile.py build/bin/lab7_kernels_solution profile [size] > h100-lab7-profile.txt

Runs lab 7's profiling runner (lab 3's tiled kernel, the four stages of
lab7_sgemm and cuBLAS FP32, each once, at size^3, default 4096: the lab's
default) under `ncu` and prints two tables: the raw counts per kernel, and
the ratios the handout quotes (loads per FFMA, bytes per load, wavefronts and
conflicts per instruction), followed by what each metric counts.

Only metrics that this ncu lists for this GPU (`ncu --query-metrics`) are
asked for, so a renamed optional metric costs a column, not the run; the
core ones (FFMA count, shared loads, conflicts) are required. Exit status 0
when every kernel was profiled, 1 otherwise (no ncu, no permission to read
the counters, no kernel profiled), with one line that says why.
"""
import csv
import datetime
import os
import re
import shutil
import subprocess
import sys
import tempfile

# make profile-labN's ncu helpers (the CSV parser, kernel names).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "grader",
                                "tools"))
import ncu_profile  # noqa: E402

# (metric, short column name, required). Counts are summed over the kernel.
METRICS = [
    ("gpu__time_duration.sum", "time", False),
    ("sm__sass_thread_inst_executed_op_ffma_pred_on.sum", "FFMA thr", True),
    ("smsp__inst_executed_op_shared_ld.sum", "LDS", True),
    ("smsp__sass_inst_executed_op_shared_ld.sum", "LDS sass", False),
    ("smsp__inst_executed_op_shared_st.sum", "STS", False),
    ("sm__sass_data_bytes_mem_shared_op_ld.sum", "LDS bytes", False),
    ("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "LDS wavefr", False),
    ("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "STS wavefr", False),
    ("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "ld confl", True),
    ("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", "st confl", True),
]

# Kernel names of the runner's calls, in its order (the profile rows of
# grader/lab7/lab7_kernels.c, run by grader/driver/kernel_driver.c),
# without template arguments: ncu prints tiled_matmul_kernel<32>, warp_tile_kernel<0>.
# Anything else is cuBLAS's.
LABELS = {
    "tiled_matmul_kernel": "lab 3 tiled (baseline)",
    "block_tile_1d_kernel": "stage 1 block tile 1D",
    "block_tile_2d_kernel": "stage 2 block tile 2D",
    "vectorised_kernel": "stage 3 vectorised",
    "warp_tile_kernel": "stage 4 warp tile",
}


def label(kernel):
    return LABELS.get(kernel.split("<")[0].strip(), "cuBLAS: " + kernel[:40])


EXPLANATION = """\
What the columns count (Nsight Compute metric names; all summed over the kernel):
  FFMA thr   sm__sass_thread_inst_executed_op_ffma_pred_on.sum: FP32 fused multiply-adds,
             counted per thread (a warp-wide FFMA with all 32 lanes on counts 32).
  LDS        smsp__inst_executed_op_shared_ld.sum: shared-memory load instructions, counted
             per warp (one LDS, LDS.64 or LDS.128 of a warp counts 1, whatever its width).
  LDS sass   smsp__sass_inst_executed_op_shared_ld.sum: the same from the SASS counters, a
             cross-check of LDS.
  STS        smsp__inst_executed_op_shared_st.sum: shared-memory store instructions, per warp.
  LDS bytes  sm__sass_data_bytes_mem_shared_op_ld.sum: bytes the LDS instructions delivered.
  wavefr     l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld/_st.sum: passes the shared-memory
             pipe needed; one per conflict-free 32-bit warp access, four for an LDS.128 of 32
             distinct float4s (512 bytes at 128 bytes per pass), more with bank conflicts.
  confl      l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld/_st.sum: bank conflicts, in
             extra cycles of the pipe. The counter can include other traffic on the same pipe:
             compare orders of magnitude, and check against the wavefronts.
Ratios:
  LDS/FFMA   LDS / (FFMA thr / 32): warp-level shared loads per warp-level FFMA, the figure the
             handout's "loads per FMA" compares (lab 3's tile 1.25, stage 1 0.375 and stages
             2-4 about 0.0625 as compiled for sm_90, by the SASS count in lab7_profile.metrics).
  B/LDS      LDS bytes / LDS: 128 for 32-bit loads by full warps, 512 for LDS.128 (float4):
             how wide the kernel's shared loads are.
  wf/LDS     LDS wavefronts per LDS instruction; wf/STS the same for stores.
  cf/LDS     load bank conflicts per LDS instruction; cf/STS the same for stores (a 2-way
             conflict on every store shows as about 1 per store).
ncu replays each kernel to collect the counters, with its clocks locked to the base clock:
the times are ncu's, for orientation only; the counts do not depend on clocks."""


def find_ncu():
    """$NCU, then PATH, then next to nvcc (the toolkit ships ncu in its bin/)."""
    nvcc = shutil.which("nvcc")
    beside_nvcc = os.path.join(os.path.dirname(nvcc), "ncu") if nvcc else None
    for candidate in (os.environ.get("NCU"), shutil.which("ncu"), beside_nvcc,
                      "/usr/local/cuda/bin/ncu"):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


def run(command):
    """(status, stdout+stderr) of a command, never raising."""
    try:
        done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True, check=False)
        return done.returncode, done.stdout
    except OSError as error:
        return 127, str(error)


def available_metrics(ncu):
    """Base names ncu lists for this GPU; empty when the query fails (then ask for all)."""
    status, text = run([ncu, "--query-metrics"])
    if status != 0:
        return set()
    return {m.group(1) for m in re.finditer(r"^\s*([a-z0-9]+__[a-z0-9_]+)", text, re.M)}


def parse_csv(text, names):
    """[(kernel, {metric: (value, unit)})] in launch order, the values as numbers:
    make profile-labN's parser (grader/tools/ncu_profile.py)."""
    return [(kernel, {m: (ncu_profile.parse_number(v), unit) for m, (v, unit) in values.items()})
            for kernel, values in ncu_profile.parse_ncu_csv(text, names)]


def profile(ncu, metrics, command):
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "ncu.csv")
        status, output = run([ncu, "--csv", "--page", "raw", "--log-file", log,
                              "--metrics", ",".join(metrics)] + command)
        text = open(log, encoding="utf-8", errors="replace").read() if os.path.exists(log) else ""
    return status, text, output


def millions(value):
    return "-" if value is None else f"{value / 1e6:,.2f}"


def ratio(top, bottom, scale=1.0, digits=3):
    if top is None or not bottom:
        return "-"
    return f"{top / (bottom * scale):.{digits}f}"


def gpu_line():
    status, text = run(["nvidia-smi", "--query-gpu=name,driver_version,clocks.max.sm",
                        "--format=csv,noheader"])
    return text.strip().splitlines()[0] if status == 0 and text.strip() else "unknown"


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 2
    command = argv
    ncu = find_ncu()
    if ncu is None:
        print("lab7_ncu_profile: Nsight Compute (ncu) not found ($NCU, PATH, beside nvcc, "
              "/usr/local/cuda/bin)")
        return 1
    listed = available_metrics(ncu)
    if not all(m.split(".")[0] in listed for m, _, required in METRICS if required):
        listed = set()  # a listing we cannot read: ask for everything, retry below if refused
    wanted = [m for m, _, required in METRICS
              if required or not listed or m.split(".")[0] in listed]
    skipped = [m for m, _, _ in METRICS if m not in wanted]
    status, text, output = profile(ncu, wanted, command)
    kernels = parse_csv(text, wanted)
    if not kernels and "ERR_NVGPUCTRPERM" not in text + output and len(wanted) > 4:
        # A metric this ncu does not know fails the whole run: retry with the core ones.
        core = [m for m, _, required in METRICS if required]
        skipped += [m for m in wanted if m not in core]
        wanted = core
        status, text, output = profile(ncu, wanted, command)
        kernels = parse_csv(text, wanted)
    if "ERR_NVGPUCTRPERM" in text + output:
        print("lab7_ncu_profile: the driver does not let this user read the GPU's performance "
              "counters (ERR_NVGPUCTRPERM); run as root")
        return 1
    if not kernels:
        print("lab7_ncu_profile: Nsight Compute profiled no kernel. Its output:")
        print((output + text).strip()[-4000:] or "(none)")
        return 1

    ncu_version = run([ncu, "--version"])[1].strip().splitlines()
    print("Lab 7 under Nsight Compute: shared-memory loads per FFMA and bank conflicts, per stage")
    print(f"command: {sys.argv[0]} {' '.join(command)}")
    print(f"date:    {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC")
    print(f"gpu:     {gpu_line()}")
    print(f"ncu:     {ncu_version[-1] if ncu_version else 'unknown'}")
    # command: the kernel driver, its mode (profile), then the size if given
    size = command[2] if len(command) > 2 else "4096 (the runner's default)"
    print(f"size:    M = N = K = {size}; one launch of each kernel, inputs zero (counts do not "
          "depend on values)")
    if skipped:
        print(f"not collected (this ncu does not know them): {', '.join(skipped)}")
    for line in output.splitlines():  # the runner's own complaints, not ncu's notes
        if line.strip() and not line.startswith("==") and "lab7_profile" in line:
            print(f"runner:  {line.strip()}")

    def value(values, metric):
        return values.get(metric, (None, ""))[0]

    names = [label(k) for k, _ in kernels]
    width = max(len(n) for n in names)
    print("\nCounts, in millions (time in ms):")
    columns = [(m, short) for m, short, _ in METRICS if m in wanted]
    print(f"{'kernel':<{width}}  " + " ".join(f"{short:>11}" for _, short in columns))
    for name, (_, values) in zip(names, kernels):
        cells = []
        for metric, short in columns:
            v = value(values, metric)
            if metric.startswith("gpu__time_duration"):
                unit = values.get(metric, (None, ""))[1]
                scale = {"nsecond": 1e6, "usecond": 1e3, "msecond": 1.0}.get(unit, 1e6)
                cells.append("-" if v is None else f"{v / scale:.3f}")
            else:
                cells.append(millions(v))
        print(f"{name:<{width}}  " + " ".join(f"{c:>11}" for c in cells))

    print("\nRatios:")
    heads = ["LDS/FFMA", "B/LDS", "wf/LDS", "cf/LDS", "wf/STS", "cf/STS"]
    print(f"{'kernel':<{width}}  " + " ".join(f"{h:>9}" for h in heads))
    for name, (_, values) in zip(names, kernels):
        lds = value(values, "smsp__inst_executed_op_shared_ld.sum")
        sts = value(values, "smsp__inst_executed_op_shared_st.sum")
        ffma = value(values, "sm__sass_thread_inst_executed_op_ffma_pred_on.sum")
        cells = [
            ratio(lds, ffma, 1 / 32.0, 4),
            ratio(value(values, "sm__sass_data_bytes_mem_shared_op_ld.sum"), lds, 1.0, 0),
            ratio(value(values, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"), lds),
            ratio(value(values, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"), lds),
            ratio(value(values, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"), sts),
            ratio(value(values, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"), sts),
        ]
        print(f"{name:<{width}}  " + " ".join(f"{c:>9}" for c in cells))
    print("\n" + EXPLANATION)
    return 0 if status == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
