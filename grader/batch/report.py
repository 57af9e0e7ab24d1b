"""OUT/report/*.png from summary.json: the score distribution per lab, the
pass rate per test, and the speed ratios across the class. matplotlib is
imported here only, so the batch runs without it (one line says so)."""
import os
import sys

from .util import say


def draw(out, summary):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        tools = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tools")
        sys.path.insert(0, tools)
        from need_matplotlib import not_installed  # the install command for this system
        say(f"{not_installed('report')}; the gradebook is complete, only the pictures are "
            "missing")
        return []
    folder = os.path.join(out, "report")
    os.makedirs(folder, exist_ok=True)
    labs = summary["labs"]
    written = []

    def save(fig, name):
        path = os.path.join(folder, name)
        tmp = path + ".tmp.png"
        fig.tight_layout()
        fig.savefig(tmp, dpi=100)
        plt.close(fig)
        os.replace(tmp, path)
        written.append(path)

    fig, axes = plt.subplots(1, len(labs), figsize=(3 * max(1, len(labs)), 3), squeeze=False)
    for ax, (name, lab) in zip(axes[0], labs.items()):
        ax.hist(lab["scores"] or [0], bins=10, range=(0, max(1, lab["possible"])), color="#4477aa")
        ax.set_title(f"{name} (of {int(lab['possible'])})")
        ax.set_xlabel("score")
    axes[0][0].set_ylabel("students")
    save(fig, "score_distribution.png")

    rows = [(f"{name} {t}", e["pass_rate"]) for name, lab in labs.items()
            for t, e in lab["tests"].items() if e["pass_rate"] is not None]
    if rows:
        fig, ax = plt.subplots(figsize=(8, max(2, 0.22 * len(rows))))
        ax.barh([r[0] for r in rows][::-1], [r[1] for r in rows][::-1], color="#228833")
        ax.set_xlim(0, 1)
        ax.set_xlabel("pass rate (tests graded; no-GPU tests left out)")
        ax.tick_params(axis="y", labelsize=6)
        save(fig, "pass_rate_per_test.png")

    ratios = [(f"{name} {t}", e["ratios"]) for name, lab in labs.items()
              for t, e in lab["tests"].items() if e.get("ratios")]
    if ratios:
        fig, ax = plt.subplots(figsize=(8, max(2, 0.4 * len(ratios))))
        ax.boxplot([r[1] for r in ratios], vert=False)
        # Set apart from boxplot(): its keyword for them changed name in
        # matplotlib 3.9 (labels -> tick_labels).
        ax.set_yticks(range(1, len(ratios) + 1), [r[0] for r in ratios])
        ax.set_xlabel("speed ratio (student vs baseline)")
        ax.tick_params(axis="y", labelsize=7)
        save(fig, "speed_ratios.png")
    return written
