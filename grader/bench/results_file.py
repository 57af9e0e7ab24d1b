"""The bench result file (results/bench-<gpu>.json): its shape, and the
names handouts use to quote from it.

    {"schema": "cuda-labs-bench/1",
     "gpu": {"name", "driver", "clocks_mhz": {...}},   nvidia-smi's view
     "device": {...},                                  the runners' (CUDA) view
     "cuda": "13.0", "date": "YYYY-MM-DD", "seed", "runs", "implementation",
     "labs": {"N": {"results": [result, ...], "notes": [...], "timeline": [...]}},
     "ceilings": {"memcpy_d2d": {"size", "GB/s"}, "cublas_fp32": {"size", "GFLOP/s"}}}

A result: lab, problem, size, x, work, unit ("GB/s" or "GFLOP/s"), kernel,
label, role (baseline, kernel, ceiling), baseline, ceiling, median_ms,
min_ms, max_ms, runs, rate (in unit), speedup (over the baseline,
interleaved: the graders' ratio), pct_of_ceiling (none where a row beats
a ceiling that is no limit: is_limit), verified; on a ceiling row, limit
(whether it is a hard limit; newer files only); and in files written under
the clock rules (bench_rules.h): spread (max_ms / min_ms), steady, tries
and settle_runs.

A quantity name (handouts): labN.PROBLEM.SIZE.KERNEL.FIELD, e.g.
lab2.matmul.2048.naive.tflops, where FIELD is median_ms, min_ms, max_ms,
rate, gflops, tflops, gbps, speedup or pct_of_ceiling; SIZE with "^"
written "p" and "+" written "plus" (lab5.sum.2p27..., lab1.grid_stride.2p22plus3...);
and gpu (the short name, "H100"), gpu.name, date, cuda, driver,
ceiling.memcpy_gbps, ceiling.cublas_tflops.
"""
import csv
import json
import os
import re

SCHEMA = "cuda-labs-bench/1"
FIELDS = ("median_ms", "min_ms", "max_ms", "rate", "gflops", "tflops", "gbps", "speedup",
          "pct_of_ceiling")


def slug(gpu_name):
    """'NVIDIA H100 80GB HBM3' -> 'h100-80gb-hbm3' (the file's name)."""
    words = re.sub(r"^nvidia\s+", "", gpu_name.strip(), flags=re.I).lower()
    return re.sub(r"[^a-z0-9]+", "-", words).strip("-") or "gpu"


def short_name(gpu_name):
    """'NVIDIA H100 80GB HBM3' -> 'H100' (as prose names it)."""
    words = re.sub(r"^nvidia\s+", "", gpu_name.strip(), flags=re.I).split()
    return words[0] if words else gpu_name


def empty():
    return {"schema": SCHEMA, "labs": {}}


def load(path):
    with open(path, encoding="utf-8") as f:
        bench = json.load(f)
    if bench.get("schema") != SCHEMA:
        raise ValueError(f"{path}: not a bench result file (schema {bench.get('schema')!r}, "
                         f"expected {SCHEMA!r})")
    return bench


def save(bench, path):
    """Written whole to a temporary file, then renamed: never half a file."""
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(bench, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(tmp, path)


def read_timeline_csv(path):
    with open(path, newline="", encoding="utf-8") as f:
        return [{"run": r["run"], "stream": int(r["stream"]), "stage": r["stage"],
                 "start_us": float(r["start_us"]), "end_us": float(r["end_us"])}
                for r in csv.DictReader(f)]


def results(bench, lab=None):
    for key, entry in sorted(bench.get("labs", {}).items(), key=lambda kv: int(kv[0])):
        if lab is None or int(key) == lab:
            yield from entry.get("results", [])


# A ceiling (cudaMemcpy, cuBLAS) is a hardware limit only from this time up
# (BENCH_SHORT_MS, grader/support/bench_rules.h). Below it its own start is a
# large share of it and the small problem's data fits in L2, so a kernel may
# edge past it (lab 1's copy kernel at 103-105% of a 0.018 ms cudaMemcpy).
# Nor is a ceiling that moves data over PCIe a limit (lab 6's longest
# stage): the bus's rate moves by about a percent from moment to moment. A
# row faster than a ceiling that is no limit gets no share of it, and is no
# error.
SHORT_MS = 0.1


def with_ceilings(bench):
    """(row, its ceiling or None) for every row that is not a ceiling."""
    for lab_entry in bench.get("labs", {}).values():
        rows = lab_entry.get("results", [])
        ceilings = {(r["problem"], r["size"]): r for r in rows if r["role"] == "ceiling"}
        for r in rows:
            if r["role"] != "ceiling":
                yield r, ceilings.get((r["problem"], r["size"]))


def is_limit(ceiling):
    """Whether a ceiling row is a hard limit: as the runner says
    (bench_ceiling_is_limit), or, in files written before it said, by its
    time alone (SHORT_MS)."""
    if "limit" in ceiling:
        return bool(ceiling["limit"])
    return ceiling["median_ms"] >= SHORT_MS


def beats_soft_ceiling(row, ceiling):
    """A row faster than a ceiling that is no limit: it gets no share of it."""
    return (ceiling is not None and not is_limit(ceiling)
            and 0 < row["median_ms"] < ceiling["median_ms"])


def finish(bench):
    """Adds what follows from the runners' lines: each result's share of its
    ceiling (none where it beats a ceiling that is no limit), the ceilings, the
    CUDA version."""
    for r, c in with_ceilings(bench):
        if c and r["median_ms"] > 0 and not beats_soft_ceiling(r, c):
            r["pct_of_ceiling"] = 100.0 * c["median_ms"] / r["median_ms"]
        else:
            r.pop("pct_of_ceiling", None)
    ceilings = {}
    for r in results(bench):
        if r["role"] != "ceiling":
            continue
        name = r["kernel"] if r["kernel"] != "memcpy" else "memcpy_d2d"
        name = "cublas_fp32" if r["kernel"] == "cublas" else name
        if name in ("memcpy_d2d", "cublas_fp32"):
            best = ceilings.get(name)
            # The largest problem is the one least disturbed by launch costs.
            if best is None or r["work"] > best["work"]:
                ceilings[name] = {"lab": r["lab"], "size": r["size"], "work": r["work"],
                                  "unit": r["unit"], "rate": r["rate"]}
    bench["ceilings"] = ceilings
    runtime = bench.get("device", {}).get("cuda_runtime")
    if runtime:
        bench["cuda"] = f"{runtime // 1000}.{runtime % 1000 // 10}"


def size_key(size):
    """A size as a quantity name writes it: '2^22+3' -> '2p22plus3'."""
    return size.replace("^", "p").replace("+", "plus")


def field(result, name):
    if name in ("rate", "gflops", "gbps"):
        return result["rate"]
    if name == "tflops":
        return result["rate"] / 1000.0
    if name not in result:
        raise KeyError(name)
    return result[name]


def quantity(bench, name):
    """The value a handout quotes as `name` (see the module's doc)."""
    top = {"gpu": lambda: short_name(bench["gpu"]["name"]),
           "gpu.name": lambda: bench["gpu"]["name"],
           "date": lambda: bench["date"], "cuda": lambda: bench["cuda"],
           "driver": lambda: bench["gpu"]["driver"],
           "ceiling.memcpy_gbps": lambda: bench["ceilings"]["memcpy_d2d"]["rate"],
           "ceiling.cublas_tflops": lambda: bench["ceilings"]["cublas_fp32"]["rate"] / 1000.0}
    if name in top:
        try:
            return top[name]()
        except KeyError:
            raise KeyError(f"{name}: not in this result file") from None
    parts = name.split(".")
    m = re.fullmatch(r"lab(\d+)", parts[0]) if len(parts) == 5 else None
    if not m:
        raise KeyError(f"{name}: not a quantity (labN.problem.size.kernel.field, or one of "
                       f"{', '.join(sorted(top))})")
    lab, problem, size, kernel, what = int(m.group(1)), parts[1], parts[2], parts[3], parts[4]
    if what not in FIELDS:
        raise KeyError(f"{name}: unknown field {what!r} (one of {', '.join(FIELDS)})")
    r = next((r for r in results(bench, lab) if r["problem"] == problem and
              size_key(r["size"]) == size and r["kernel"] == kernel), None)
    if r is None:
        raise KeyError(f"{name}: no result for lab {lab}, {problem}, size {size}, {kernel}")
    try:
        return field(r, what)
    except KeyError:
        raise KeyError(f"{name}: the result has no {what}") from None


def summary_table(bench):
    """The end-of-run table: one line per result."""
    lines = [f"{bench['gpu']['name']}, driver {bench['gpu'].get('driver', '?')}, "
             f"CUDA {bench.get('cuda', '?')}, {bench.get('date', '?')}",
             f"{'lab':>3} {'problem':<12} {'size':<10} {'kernel':<24} {'median ms':>10} "
             f"{'rate':>16} {'speedup':>8} {'% ceil':>7} ok"]
    for r in results(bench):
        speedup = f"{r['speedup']:.2f}x" if "speedup" in r else ""
        pct = f"{r['pct_of_ceiling']:.1f}" if "pct_of_ceiling" in r else ""
        ok = {True: "yes", False: "NO", None: "-"}[r.get("verified")]
        lines.append(f"{r['lab']:>3} {r['problem']:<12} {r['size']:<10} {r['kernel']:<24} "
                     f"{r['median_ms']:>10.4f} {r['rate']:>8.1f} {r['unit']:<7} {speedup:>8} "
                     f"{pct:>7} {ok}")
    return "\n".join(lines)
