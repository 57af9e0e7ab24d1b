"""The generated part of each handout's "Expected results": a table per
problem and the figures, from one committed bench file (handout_numbers.py
puts it between <!-- bench-results: labN --> markers)."""
import glob
import os
import re
import sys

import results_file

# Where the figures are, relative to a handout (handouts/labN-*.md).
FIGURES = "figures"


def figure_stem(kind, lab, slug):
    """'lab2-h100-80gb-hbm3', 'lab7-sizes-h200', 'lab6-timeline-...', 'lab2-compare'."""
    middle = {"lab": "", "sizes": "-sizes", "timeline": "-timeline"}[kind]
    return f"lab{lab}{middle}-{slug}"


def other_gpus(folder, primary):
    """Slugs of the committed bench files other than the primary GPU's."""
    slugs = [re.sub(r"^bench-|\.json$", "", os.path.basename(p))
             for p in sorted(glob.glob(os.path.join(folder, "bench-*.json")))]
    return [s for s in slugs if not s.startswith(primary)]


def rate_text(rate):
    return f"{rate:.0f}" if rate >= 100 else f"{rate:.1f}"


def problem_table(rows):
    """One problem: a row per kernel, a column per size."""
    sizes = list(dict.fromkeys(r["size"] for r in rows))
    order = {"kernel": 0, "baseline": 1, "ceiling": 2}
    kernels = sorted(dict.fromkeys((r["role"], r["kernel"], r["label"]) for r in rows),
                     key=lambda k: order[k[0]])
    cells = {(r["kernel"], r["size"]): r for r in rows}
    ceilings = {r["size"]: r for r in rows if r["role"] == "ceiling"}
    first = rows[0]
    baseline = next((r["label"] for r in rows if r["role"] == "baseline"), first["baseline"])
    ceiling = next((r["label"] for r in rows if r["role"] == "ceiling"), "")
    head = (f"**{first['problem']}**, {first['unit']} (speedup over the baseline, % of the "
            f"ceiling). Baseline: {baseline}. Ceiling: {ceiling}.")
    lines = [head, "", "| kernel | " + " | ".join(sizes) + " |",
             "|---|" + "---|" * len(sizes)]
    daggers = False
    for role, kernel, label in kernels:
        row = [label + (" *(ceiling)*" if role == "ceiling" else "")]
        for size in sizes:
            r = cells.get((kernel, size))
            if r is None:
                row.append("-")
                continue
            extra = []
            if "speedup" in r:
                extra.append(f"{r['speedup']:.2f}x")
            if "pct_of_ceiling" in r:
                extra.append(f"{r['pct_of_ceiling']:.0f}%")
            elif r["role"] != "ceiling" and results_file.beats_soft_ceiling(
                    r, ceilings.get(size)):
                extra.append("†")
                daggers = True
            wrong = " **wrong result**" if r.get("verified") is False else ""
            row.append(rate_text(r["rate"]) + (f" ({', '.join(extra)})" if extra else "")
                       + wrong)
        lines.append("| " + " | ".join(row) + " |")
    if daggers:
        lines += ["", f"† Faster than the ceiling at this size, so no share of it: a ceiling "
                      f"under {results_file.SHORT_MS:g} ms is no hardware limit (its own start is "
                      f"a large part of it, and the data fits in L2), nor is one that crosses "
                      f"the PCIe bus (its rate moves by about a percent from moment to moment)."]
    return "\n".join(lines)


def lab_block(lab, bench, source, others, primary):
    """The markdown between the markers, ending with a newline."""
    if bench is None:
        return (f"*Not measured yet: this table and its figure are generated from "
                f"`handouts/results/bench-{primary}*.json`, which `make bench` writes on an "
                f"{primary.upper()} (commit it there, then run `make handout-numbers` and "
                f"`make plots`).*\n")
    rows = list(results_file.results(bench, lab))
    if not rows:
        return f"*Lab {lab} is not in `{os.path.basename(source)}`: run `make bench LAB={lab}`.*\n"
    slug = results_file.slug(bench["gpu"]["name"])
    gpu = bench["gpu"]["name"]
    parts = [f"Measured with `make bench` on an **{gpu}** (driver {bench['gpu'].get('driver')}, "
             f"CUDA {bench.get('cuda', '?')}) on {bench.get('date')}: "
             f"{bench.get('implementation', 'the reference solutions')}, each figure the "
             f"median of {bench.get('runs')} runs, every run after an L2 flush and every "
             f"kernel interleaved with its baseline (the graders' timing routine). Source: "
             f"[results/{os.path.basename(source)}](results/{os.path.basename(source)})."]
    for problem in dict.fromkeys(r["problem"] for r in rows):
        parts.append(problem_table([r for r in rows if r["problem"] == problem]))
    short = results_file.short_name(gpu)
    parts.append(f"![Lab {lab} on the {short}: speedup over the baseline and share of the "
                 f"ceiling]({FIGURES}/{figure_stem('lab', lab, slug)}.png)")
    if lab == 7:
        parts.append(f"![GFLOP/s against size on the {short}, with cuBLAS]"
                     f"({FIGURES}/{figure_stem('sizes', lab, slug)}.png)")
    if lab == 6 and bench["labs"].get("6", {}).get("timeline"):
        parts.append(f"![The serial and the streamed pipeline on the {short}, as CUPTI "
                     f"recorded them]({FIGURES}/{figure_stem('timeline', lab, slug)}.png)")
    if others:
        names = ", ".join(results_file.short_name(b["gpu"]["name"]) for b, _ in others)
        parts.append(f"The same on the {short} and the {names}, side by side: "
                     f"[figure]({FIGURES}/{figure_stem('lab', lab, 'compare')}.png).")
    return "\n\n".join(parts) + "\n"


# The README's "what good looks like": per lab, the kernel the lab is about,
# at the size its grader times, and the threshold its grader applies to it:
# the `headline` lines of each lab's grader/labN/lab.ini,
#   headline = PROBLEM SIZE KERNEL THRESHOLD [over=KERNEL]
# (over=: the ratio is against that row of the same problem, as the grader
# times it; else a FRACTION threshold reads the row's share of its ceiling
# and any other its speedup over the bench's baseline).
def read_headlines(root):
    """(lab, problem, size, kernel, threshold, over) of every headline, in lab
    order, as grader/tools/lab_lists.py reads the manifests."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
    import lab_lists
    return [(lab["number"], *h) for lab in lab_lists.labs(root) for h in lab["headlines"]]


def _find(bench, lab, problem, size, kernel):
    return next((r for r in results_file.results(bench, lab) if r["problem"] == problem and
                 r["size"] == size and r["kernel"] == kernel), None)


def grader_ratio(bench, lab, problem, size, kernel, threshold, over=None):
    """The ratio the grader compares with `threshold`, as this bench file
    measured it: against the row `over` where the grader times against that
    kernel, else a fraction of the ceiling (copy, cuBLAS) or the speedup over
    the bench's baseline."""
    r = _find(bench, lab, problem, size, kernel)
    if r is None:
        return None
    if over:
        y = _find(bench, lab, problem, size, over)
        return y["median_ms"] / r["median_ms"] if y else None
    if "FRACTION" in threshold:
        return r.get("pct_of_ceiling", 0) / 100.0
    return r.get("speedup")


def summary_block(bench, source, rubrics, primary, headlines):
    """The README table, ending with a newline."""
    if bench is None:
        return (f"*Not measured yet: generated from `handouts/results/bench-{primary}*.json` "
                f"(`make bench` on an {primary.upper()}, then `make handout-numbers`).*\n")
    lines = [f"The reference solutions with `make bench` on an **{bench['gpu']['name']}** "
             f"(driver {bench['gpu'].get('driver')}, CUDA {bench.get('cuda', '?')}), "
             f"{bench.get('date')}; the whole file: "
             f"[handouts/results/{os.path.basename(source)}]"
             f"(handouts/results/{os.path.basename(source)}), and each handout's "
             f"\"Expected results\" has the full tables and figures.", "",
             "| lab | kernel | size | rate | what the grader checks (its threshold) |",
             "|---|---|---|---|---|"]
    for lab, problem, size, kernel, threshold, over in headlines:
        r = _find(bench, lab, problem, size, kernel)
        if r is None:
            continue
        ratio = grader_ratio(bench, lab, problem, size, kernel, threshold, over)
        what = "fraction of " if "FRACTION" in threshold else "speedup "
        limit = rubrics.get(threshold)
        lines.append(f"| {lab} | {r['label']} | {size} | {rate_text(r['rate'])} {r['unit']} | "
                     f"{what}{ratio:.3g} ({threshold} = {limit:g}) |")
    return "\n".join(lines) + "\n"
