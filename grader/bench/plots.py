#!/usr/bin/env python3
"""make plots: the handouts' figures from bench result files.

    plots.py --out handouts/figures handouts/results/bench-*.json
    plots.py --out build/figures build/results/bench-*.json handouts/results/bench-h100*.json

Per file and lab: each kernel's speedup over the lab's baseline and its
share of the ceiling, per size (labN-<gpu>); lab 7's GFLOP/s against size
with cuBLAS (lab7-sizes-<gpu>); lab 6's timeline (lab6-timeline-<gpu>).
With files of several GPUs, also labN-compare and lab7-sizes-compare: the
same charts side by side. Each as PNG and SVG, each captioned with GPU and
date. Your own `make bench` file can go next to ours.
"""
import argparse
import os
import sys
import textwrap

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "lab6"))
import results_file  # noqa: E402
from results_tables import figure_stem  # noqa: E402

# Readable at handout width (about 800 px): 8 inches at 100 dpi, 11 pt text.
WIDTH_IN, DPI = 8.0, 100
# The sizes legend of a lab figure stands right of each GPU's panels.
LEGEND_IN = 1.4


def save(fig, folder, stem):
    """PNG and SVG, without the date matplotlib would stamp into them (so a
    redraw of the same file is byte-identical)."""
    written = []
    for ext, metadata in (("png", {"Software": None}), ("svg", {"Date": None})):
        path = os.path.join(folder, f"{stem}.{ext}")
        fig.savefig(path, dpi=DPI, metadata=metadata)
        written.append(path)
    import matplotlib.pyplot as plt
    plt.close(fig)
    return written


def caption(bench):
    return (f"{bench['gpu']['name']}, {bench.get('date', '?')}, CUDA {bench.get('cuda', '?')} "
            f"(make bench)")


def problems(bench, lab):
    rows = list(results_file.results(bench, lab))
    return {p: [r for r in rows if r["problem"] == p]
            for p in dict.fromkeys(r["problem"] for r in rows)}


def bar_panel(ax, rows, value, xlabel):
    """Grouped horizontal bars: a group per kernel, a bar per size."""
    # Every kernel, in the rows' order, whether or not it has the value at
    # every size (a row faster than a short ceiling has no share of it): the
    # two panels of a problem must list the kernels alike.
    kernels = list(dict.fromkeys(r["label"] for r in rows))
    sizes = list(dict.fromkeys(r["size"] for r in rows))
    height = 0.8 / max(1, len(sizes))
    for i, size in enumerate(sizes):
        by_label = {r["label"]: r.get(value) for r in rows if r["size"] == size}
        ys = [k - 0.4 + height * (i + 0.5) for k in range(len(kernels))]
        ax.barh(ys, [by_label.get(k) or 0 for k in kernels], height, label=size)
    ax.set_yticks(range(len(kernels)))
    ax.set_yticklabels(kernels, fontsize=9)
    ax.invert_yaxis()
    # Wrapped: two panels share a row, and a long label ran into its
    # neighbour's and off the figure.
    ax.set_xlabel(textwrap.fill(xlabel, 28), fontsize=9)
    ax.grid(True, axis="x", alpha=0.3)


def lab_figure(plt, lab, benches):
    """One column pair (speedup, % of ceiling) per GPU, one row per problem."""
    first = problems(benches[0], lab)
    rows_n, cols_n = len(first), 2 * len(benches)
    # Constrained layout: each panel keeps the margins its own labels and
    # legend need (tight_layout gave every column the widest, and the
    # side-by-side figures' panels shrank to slivers).
    fig, axes = plt.subplots(rows_n, cols_n, squeeze=False, layout="constrained",
                             figsize=((WIDTH_IN + LEGEND_IN) * len(benches),
                                      1.2 + 2.6 * rows_n))
    for g, bench in enumerate(benches):
        for p, (problem, _) in enumerate(first.items()):
            rows = problems(bench, lab).get(problem, [])
            baseline = next((r["label"] for r in rows if r["role"] == "baseline"), "baseline")
            ceiling = next((r["label"] for r in rows if r["role"] == "ceiling"), "ceiling")
            left, right = axes[p][2 * g], axes[p][2 * g + 1]
            bar_panel(left, [r for r in rows if r["role"] != "ceiling"], "speedup",
                      f"speedup over {baseline} (x)")
            bar_panel(right, [r for r in rows if r["role"] != "ceiling"], "pct_of_ceiling",
                      f"% of {ceiling}")
            right.set_yticklabels([])
            left.set_title(f"{problem}: {results_file.short_name(bench['gpu']['name'])}",
                           loc="left", fontsize=10)
            # Outside the panels, right of the "% of ceiling" one (the
            # figure is widened for it): inside, it covered the longest
            # bars, the headline kernels'.
            right.legend(title="size", fontsize=8, title_fontsize=8, loc="upper left",
                         bbox_to_anchor=(1.03, 1.0), borderaxespad=0.0)
    fig.suptitle(f"Lab {lab}: " + "; ".join(caption(b) for b in benches), fontsize=10)
    return fig


def sizes_figure(plt, benches):
    """Lab 7: GFLOP/s against M = N = K, one panel per GPU, cuBLAS dashed."""
    fig, axes = plt.subplots(1, len(benches), squeeze=False, sharey=True,
                             figsize=(WIDTH_IN * len(benches), 5))
    for ax, bench in zip(axes[0], benches):
        rows = problems(bench, 7).get("matmul", [])
        for label in dict.fromkeys(r["label"] for r in rows):
            points = sorted((r["x"], r["rate"]) for r in rows if r["label"] == label)
            ceiling = any(r["role"] == "ceiling" for r in rows if r["label"] == label)
            style = dict(linestyle="--", color="black", linewidth=2) if ceiling else {}
            ax.plot([x for x, _ in points], [g for _, g in points], marker="o", label=label,
                    **style)
        ax.set_xscale("log", base=2)
        sizes = sorted({r["x"] for r in rows})
        ax.set_xticks(sizes)
        ax.set_xticklabels([str(int(s)) for s in sizes])
        ax.set_xlabel("M = N = K")
        ax.set_ylabel("GFLOP/s")
        ax.set_title(caption(bench), fontsize=10)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle("Lab 7: SGEMM, FP32, against matrix size")
    fig.tight_layout()
    return fig


def timeline_figure(bench):
    import plot_timeline
    runs = {"serial": [], "streamed": []}
    for row in bench["labs"]["6"]["timeline"]:
        runs[row["run"]].append(row)
    return plot_timeline.draw(runs, title=f"Lab 6 timeline: {caption(bench)}")


def draw_all(benches, folder):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    plt.rcParams.update({"font.size": 11, "svg.hashsalt": "cuda-labs"})
    os.makedirs(folder, exist_ok=True)
    written = []
    for bench in benches:
        slug = results_file.slug(bench["gpu"]["name"])
        for lab in sorted(int(k) for k in bench.get("labs", {})):
            if problems(bench, lab):
                written += save(lab_figure(plt, lab, [bench]), folder,
                                figure_stem("lab", lab, slug))
        if problems(bench, 7):
            written += save(sizes_figure(plt, [bench]), folder, figure_stem("sizes", 7, slug))
        if bench.get("labs", {}).get("6", {}).get("timeline"):
            written += save(timeline_figure(bench), folder, figure_stem("timeline", 6, slug))
    if len(benches) > 1:
        labs = sorted({int(k) for b in benches for k in b.get("labs", {})})
        for lab in labs:
            having = [b for b in benches if problems(b, lab)]
            if len(having) > 1:
                written += save(lab_figure(plt, lab, having), folder,
                                figure_stem("lab", lab, "compare"))
        having = [b for b in benches if problems(b, 7)]
        if len(having) > 1:
            written += save(sizes_figure(plt, having), folder, figure_stem("sizes", 7, "compare"))
    return written


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True, help="folder for the PNG and SVG files")
    parser.add_argument("files", nargs="*", help="bench result files (results/bench-*.json)")
    args = parser.parse_args(argv)
    if not args.files:
        print("plots: no bench result files given (none committed in handouts/results/ yet? "
              "`make bench` on a GPU writes build/results/bench-<gpu>.json)", file=sys.stderr)
        return 0
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tools"))
        from need_matplotlib import not_installed  # the install command for this system
        print(not_installed("plots"), file=sys.stderr)
        return 1
    benches = [results_file.load(path) for path in args.files]
    written = draw_all(benches, args.out)
    print(f"plots: {len(written)} files in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
