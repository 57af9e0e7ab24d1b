#!/usr/bin/env python3
"""ctest handouts.figures_redraw: `make plots` redraws every committed
figure (handouts/figures/*.png, *.svg) from the committed result files.

    check_figures_redraw.py REPO SCRATCH
"""
import glob
import os
import subprocess
import sys


def main(repo, scratch):
    files = sorted(glob.glob(os.path.join(repo, "handouts", "results", "bench-*.json")))
    committed = sorted(os.path.basename(p) for p in
                       glob.glob(os.path.join(repo, "handouts", "figures", "*.png")) +
                       glob.glob(os.path.join(repo, "handouts", "figures", "*.svg")))
    if not files:
        if committed:
            print(f"{len(committed)} figures in handouts/figures but no bench file in "
                  f"handouts/results to draw them from")
            return 1
        print("no bench result file committed yet: nothing to redraw")
        return 0
    os.makedirs(scratch, exist_ok=True)
    status = subprocess.run([sys.executable, os.path.join(repo, "grader", "bench", "plots.py"),
                             "--out", scratch] + files).returncode
    if status != 0:
        return status
    drawn = set(os.listdir(scratch))
    missing = [name for name in committed if name not in drawn]
    for name in missing:
        print(f"handouts/figures/{name} is not drawn from the committed result files "
              f"(a stale figure, or its result file was removed)")
    print(f"{len(committed)} committed figures, {len(drawn)} redrawn, {len(missing)} missing")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
