#!/usr/bin/env python3
"""make plot-lab6: draws lab6_timeline's CSV as a PNG.

One row per stream, H2D / kernel / D2H in three colours, the serial run
above the streamed one, on the same time axis.

    plot_timeline.py IN.csv OUT.png
"""
import csv
import os
import sys

COLOURS = {"H2D": "#4e79a7", "kernel": "#59a14f", "D2H": "#e15759"}


def read_csv(path):
    """{'serial': [row, ...], 'streamed': [...]}, rows as lab6_timeline writes them."""
    runs = {"serial": [], "streamed": []}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            runs[row["run"]].append(row)
    return runs


def draw(runs, title=None):
    """The two runs on one time axis; returns the matplotlib figure (make
    bench's plots call this too, with the rows of a bench file)."""
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch
    end = max(float(r["end_us"]) for rows in runs.values() for r in rows) / 1e3
    heights = [max(1, 1 + max((int(r["stream"]) for r in rows), default=0))
               for rows in runs.values()]
    fig, axes = plt.subplots(2, 1, figsize=(12, 2 + 0.35 * sum(heights)), sharex=True,
                             gridspec_kw={"height_ratios": heights})
    for ax, (name, rows) in zip(axes, runs.items()):
        for r in rows:
            start, stop = float(r["start_us"]) / 1e3, float(r["end_us"]) / 1e3
            ax.broken_barh([(start, stop - start)], (int(r["stream"]) - 0.4, 0.8),
                           color=COLOURS[r["stage"]])
        total = max((float(r["end_us"]) for r in rows), default=0) / 1e3
        ax.set_title(f"{name}: {total:.2f} ms", loc="left")
        ax.set_ylabel("stream")
        ax.set_yticks(sorted({int(r["stream"]) for r in rows}) or [0])
        ax.invert_yaxis()
        ax.set_xlim(0, end * 1.02)
    axes[-1].set_xlabel("time (ms)")
    # Beside the serial row, not over it.
    axes[0].legend(handles=[Patch(color=c, label=s) for s, c in COLOURS.items()],
                   loc="upper left", bbox_to_anchor=(1.01, 1.0))
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    return fig


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: plot_timeline.py IN.csv OUT.png")
    try:
        import matplotlib
        matplotlib.use("Agg")
    except ImportError:
        sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                        "tools"))
        from need_matplotlib import not_installed  # the install command for this system
        sys.exit(not_installed("plot_timeline.py"))
    fig = draw(read_csv(sys.argv[1]))
    fig.savefig(sys.argv[2], dpi=120)
    print(f"wrote {sys.argv[2]}")


if __name__ == "__main__":
    main()
