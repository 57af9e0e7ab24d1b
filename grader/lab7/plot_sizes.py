#!/usr/bin/env python3
"""make plot-lab7: GFLOP/s against matrix size, one line per kernel.

    plot_sizes.py build/results/lab7_sizes.txt build/results/lab7_sizes.png

Reads the file lab7_bench_sizes writes (lines `kernel size ms gflops
pct_of_cublas`, `#` comments, the device among them) and draws one line per
kernel, cuBLAS dashed, with the sizes on a log-2 axis.
"""
import os
import sys

ORDER = ["naive", "shared_tiles", "block_tile_1d", "block_tile_2d", "vectorised", "warp_tile",
         "sized", "cublas"]
LABELS = {
    "naive": "naive (lab 2)",
    "shared_tiles": "shared tiles (lab 3)",
    "block_tile_1d": "1D block tile",
    "block_tile_2d": "2D block tile",
    "vectorised": "vectorised",
    "warp_tile": "warp tile",
    "sized": "tile per size (final stage)",
    "cublas": "cuBLAS FP32",
}


def read_results(path):
    """({kernel: [(size, gflops)]}, device or '')."""
    series, device = {}, ""
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line.startswith("# device:"):
                device = line[len("# device:"):].strip()
            if not line or line.startswith("#"):
                continue
            kernel, size, _ms, gflops, _pct = line.split()
            series.setdefault(kernel, []).append((int(size), float(gflops)))
    for points in series.values():
        points.sort()
    return series, device


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    series, device = read_results(argv[1])
    if not series:
        print(f"plot_sizes: no results in {argv[1]}", file=sys.stderr)
        return 1
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                        "tools"))
        from need_matplotlib import not_installed  # the install command for this system
        print(f"{not_installed('plot_sizes')}; the table is in {argv[1]}", file=sys.stderr)
        return 1
    fig, ax = plt.subplots(figsize=(8, 5))
    names = [k for k in ORDER if k in series] + sorted(k for k in series if k not in ORDER)
    for kernel in names:
        sizes = [s for s, _ in series[kernel]]
        gflops = [g for _, g in series[kernel]]
        style = dict(linestyle="--", color="black", linewidth=2) if kernel == "cublas" else {}
        ax.plot(sizes, gflops, marker="o", label=LABELS.get(kernel, kernel), **style)
    ax.set_xscale("log", base=2)
    all_sizes = sorted({s for points in series.values() for s, _ in points})
    ax.set_xticks(all_sizes)
    ax.set_xticklabels([str(s) for s in all_sizes])
    ax.set_xlabel("M = N = K")
    ax.set_ylabel("GFLOP/s")
    ax.set_title("SGEMM, FP32" + (f": {device.split(',')[0]}" if device else ""))
    ax.grid(True, alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(argv[2], dpi=120)
    print(f"written: {argv[2]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
