#!/usr/bin/env python3
"""make calibrate: thresholds for this GPU, by the rule of grader/calibration/rules.json.

    calibrate.py --repeat 20                 run every lab's solution grader 20 times on
                                             this GPU (the speed tests and self-tests the
                                             rules name), then write
                                             grader/calibration/<gpu>.json
    calibrate.py --from-results DIR          the same from results files already saved
                                             (DIR/*.json, e.g. a copy of a --keep-runs folder)
    calibrate.py --from-summary FILE...      the same from summarize_results.py reports
                                             (handouts/results/*.txt: the course's sessions)
    calibrate.py --margins FILE...           each threshold's margin in one run's results
                                             (what make check-solutions prints)
    calibrate.py --verify --repeat 20        20 rounds of every solution grader (gpu and
                                             selftest groups) with the calibration the
                                             runner finds for this GPU: each lab's count
                                             of rounds passed, and the tests that failed
                                             (make verify-calibration)
    --append                                 --repeat or --verify: add these rounds to those
                                             already in --runs-dir (a long run in sittings)
    --together                               a round runs its labs at once, sharing the GPU
                                             as the batch grader does (measurements still
                                             alone): shorter rounds, for --repeat and
                                             --verify alike

The graders run with GRADER_CALIBRATION=none, so that what is measured is
graded by the headers' defaults, never by an older calibration of this GPU.
For each rule it prints the reference's and the baseline's min/median/max,
the interval the rule allows, the header's default and the proposed value,
and lists every difference from the defaults with its reason. A ratio whose
interval is empty is written as not graded ("cannot be graded on this GPU"):
the graders then skip its tests and leave their points out of the total.
Exit status: 0 written (or margins printed), 1 no usable measurements, 2 usage."""
import argparse
import datetime
import glob
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import calibration_rule as rule_lib  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "grader" / "calibration" / "rules.json"


def tests_of(rules, lab):
    """The tests that measure lab's rules, reference and baseline sides, in
    a stable order: a round runs only these (--only each), not the lab's
    correctness tests, so that 20 rounds fit in a session."""
    names = []
    for r in rules:
        if r["lab"] == lab:
            for side in ("reference", "baseline"):
                if r[side]["test"] not in names:
                    names.append(r[side]["test"])
    return names


def run_round(commands, together):
    """One round: `commands` is a list of (argv, log path, env), one per
    lab. Alone (the default) they run one after another, as make
    check-solutions does. `together`: all at once, sharing the GPU as the
    batch grader shares it between a student's labs (GRADER_GPU_SHARE,
    grader/harness/runner/gpu_share.h): every test that measures still holds
    the GPU alone, so only the labs' CPU work and their tests that do not
    measure overlap, and a round takes about as long as its measurements.
    Returns the exit statuses, in the order of `commands`."""
    if not together:
        statuses = []
        for argv, log, env in commands:
            with open(log, "w", encoding="utf-8") as f:
                statuses.append(subprocess.call(argv, stdout=f, stderr=subprocess.STDOUT,
                                                env=env))
        return statuses
    with tempfile.TemporaryDirectory(prefix="calibrate-gpu-share-") as share:
        for lock in ("gate", "gpu"):
            Path(share, lock).touch()
        running = []
        try:
            for argv, log, env in commands:
                f = open(log, "w", encoding="utf-8")
                running.append((subprocess.Popen(argv, stdout=f, stderr=subprocess.STDOUT,
                                                 env=dict(env, GRADER_GPU_SHARE=share)), f))
            return [proc.wait() for proc, _ in running]
        finally:
            for proc, f in running:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
                f.close()


def round_numbers(runs_dir, append):
    """The first round's number in runs_dir: after the rounds already there
    (`append`: a long calibration in several sittings), else 1, the earlier
    rounds' files removed so that they cannot mix with these."""
    earlier = list(runs_dir.glob("lab*_run*.json")) + list(runs_dir.glob("lab*_run*.log"))
    if append:
        numbers = [int(p.stem.rsplit("_run", 1)[1]) for p in earlier
                   if p.stem.rsplit("_run", 1)[1].isdigit()]
        return max(numbers, default=0) + 1
    for old in earlier:
        old.unlink()
    return 1


def round_command(bin_dir, lab, args, runs_dir, i, env):
    """Lab's solution grader in round i with `args`: (argv, log, env), its
    results in runs_dir/labL_runNNN.json (round_results)."""
    return ([str(Path(bin_dir) / f"lab{lab}_check_solution")] + args +
            ["--results", str(round_results(runs_dir, lab, i))],
            round_log(runs_dir, lab, i), env)


def round_results(runs_dir, lab, i):
    return runs_dir / f"lab{lab}_run{i:03d}.json"


def round_log(runs_dir, lab, i):
    return runs_dir / f"lab{lab}_run{i:03d}.log"


def run_graders(bin_dir, labs, repeat, runs_dir, rules, append=False, together=False):
    """REPEAT rounds of every lab's solution grader, one results file each;
    `append`: after the rounds already in runs_dir, else instead of them."""
    env = dict(os.environ, GRADER_CALIBRATION="none")
    runs_dir.mkdir(parents=True, exist_ok=True)
    first = round_numbers(runs_dir, append)
    for i in range(first, first + repeat):
        commands = [round_command(bin_dir, lab, [a for t in tests_of(rules, lab)
                                                 for a in ("--only", t)], runs_dir, i, env)
                    for lab in labs]
        for lab, status, (_, log, _) in zip(labs, run_round(commands, together), commands):
            print(f"  round {i - first + 1}/{repeat} lab {lab}: "
                  f"{'passed' if status == 0 else f'exit status {status} (see {log})'}",
                  flush=True)


def failed_tests(runs_dir, lab, i, status):
    """The tests of lab's grader that did not pass in round i (its results
    file), or the reason it reported none; status: its exit status, or None
    for a round of an earlier sitting, judged by its results alone."""
    path = round_results(runs_dir, lab, i)
    runs = load_runs([path]) if path.exists() else []
    failed = [t.get("name", "?") for run in runs for t in run.get("tests", [])
              if t.get("status") not in ("pass", "skip")]
    if failed:
        return failed, runs
    if status not in (None, 0) or not runs:  # it crashed, or wrote no results
        how = f"exit status {status}" if status is not None else "no results"
        return [f"({how}, no failing test reported: see "
                f"{round_log(runs_dir, lab, i)})"], runs
    return [], runs


def verify(bin_dir, labs, repeat, runs_dir, together=False, append=False):
    """--verify: REPEAT rounds of every lab's solution grader as the course
    grades (the gpu and selftest groups), with whatever calibration the
    runner finds for this GPU: the reference must pass every round, and the
    self-tests hold the baselines below every threshold. Each round's line
    names the tests that failed in it, so a sitting cut short still says
    which; `append`: after the rounds already in runs_dir (a long
    verification in several sittings), which the summary counts too.
    Prints per lab how many rounds passed and which tests failed; 0 when
    every round passed."""
    runs_dir.mkdir(parents=True, exist_ok=True)
    first = round_numbers(runs_dir, append)
    last = first + repeat - 1
    passed = {lab: 0 for lab in labs}
    failures, calibrations = {}, set()

    def count(lab, i, status):
        failed, runs = failed_tests(runs_dir, lab, i, status)
        passed[lab] += not failed
        for run in runs:
            calibrations.add((run.get("calibration") or {}).get("line", "?"))
        for name in failed:
            failures.setdefault(lab, {}).setdefault(name, []).append(i)
        return failed

    for i in range(1, first):
        for lab in labs:
            count(lab, i, None)
    groups = ["--group", "gpu", "--group", "selftest"]
    for i in range(first, last + 1):
        commands = [round_command(bin_dir, lab, groups, runs_dir, i, dict(os.environ))
                    for lab in labs]
        failed_now = []
        for lab, status in zip(labs, run_round(commands, together)):
            failed_now += [f"lab {lab} {name}" for name in count(lab, i, status)]
        print(f"  round {i}/{last}: " + ", ".join(
            f"lab {lab} {passed[lab]}/{i}" for lab in labs) +
            (f"; failed: {', '.join(failed_now)}" if failed_now else ""), flush=True)
    print(f"\nverify: {last} rounds of the solution graders (gpu and selftest groups)"
          f"{f', {first - 1} of them from an earlier sitting' if first > 1 else ''}"
          f"{', the labs together under one GPU share' if together else ''}; calibration: "
          f"{'; '.join(sorted(calibrations)) or 'none reported'}")
    for lab in labs:
        print(f"  lab {lab}: {passed[lab]}/{last} rounds passed")
        for name, rounds in sorted(failures.get(lab, {}).items()):
            print(f"    {name} failed in round(s) {' '.join(map(str, rounds))}")
    return 0 if all(n == last for n in passed.values()) else 1


def load_runs(paths):
    runs = []
    for path in paths:
        try:
            with open(path, encoding="utf-8") as f:
                doc = json.load(f)
        except (OSError, ValueError) as err:
            print(f"calibrate: skipping {path}: {err}", file=sys.stderr)
            continue
        if isinstance(doc, dict) and str(doc.get("schema", "")).startswith("cuda-labs-results/"):
            runs.append(doc)
    return runs


def gpu_of(runs):
    """The one GPU every run was measured on, or an error naming the others."""
    gpus = {}
    for run in runs:
        gpu = rule_lib.parse_device(run.get("device", ""))
        if gpu:
            gpus[(gpu["name"], gpu["sms"], gpu["memory_gib"])] = (gpu, run.get("device"))
    if len(gpus) != 1:
        raise SystemExit(f"calibrate: the results come from {len(gpus)} GPUs "
                         f"({'; '.join(d for _, d in gpus.values()) or 'none named'}); "
                         f"calibrate one GPU at a time")
    return next(iter(gpus.values()))


def build_calibration(rules, defaults, samples, gpu, description, made):
    thresholds, floors, references, problems = {}, {}, {}, []
    for rule in rules:
        name, lab = rule["threshold"], rule["lab"]
        if name not in defaults:
            raise SystemExit(f"calibrate: {name} (rules.json) is not in lab {lab}'s rubric header")
        ref = rule_lib.band_of(samples, lab, rule["reference"])
        base = rule_lib.band_of(samples, lab, rule["baseline"])
        missing = [f"{side['test']}/{side['metric']}" for side, band in
                   ((rule["reference"], ref), (rule["baseline"], base)) if band is None]
        if missing:
            problems.append(f"{name}: no measurement of {', '.join(missing)}")
            continue
        p = rule_lib.propose(rule, defaults[name], ref, base)
        tests = [rule["reference"]["test"]]
        if rule["baseline"]["test"].startswith("selftest_"):
            tests.append(rule["baseline"]["test"])
        entry = {"lab": lab, "graded": p.graded, "value": p.value if p.graded else None,
                 "default": p.default, "better": rule["better"], "margin": rule["margin"],
                 "allowed": p.allowed, "reason": p.reason, "tests": tests,
                 "reference": ref.as_json(rule["reference"]["test"], rule["reference"]["metric"]),
                 "baseline": base.as_json(rule["baseline"]["test"], rule["baseline"]["metric"])}
        thresholds[name] = entry
        floor_name = rule.get("floor")
        if floor_name and floor_name in defaults and floor_name not in floors and p.graded:
            floor = defaults[floor_name]
            reason = "the default is below the threshold"
            if floor >= p.value:
                floor = rule_lib.round_toward(min(base.median, p.value / rule["margin"]), up=False)
                reason = (f"lowered under the threshold {p.value:g}: the baseline's median "
                          f"{base.median:.4g}, or the threshold / {rule['margin']:g}")
            floors[floor_name] = {"value": floor, "default": defaults[floor_name],
                                  "reason": reason, "measured": entry["baseline"]}
        ref_name = rule.get("reference_ratio")
        if ref_name and ref_name in defaults:
            references[ref_name] = {"value": round(ref.median, 4), "default": defaults[ref_name],
                                    "reason": "the reference's median on this GPU",
                                    "measured": entry["reference"]}
    doc = {"schema": rule_lib.CALIBRATION_SCHEMA,
           "gpu": dict(gpu, description=description),
           "made": made, "thresholds": thresholds, "floors": floors, "references": references}
    return doc, problems


def print_report(doc, problems):
    print(f"\ncalibration for {doc['gpu']['description']}")
    print(f"{'threshold':40s} {'reference min/med/max':>26s} {'baseline min/med/max':>26s} "
          f"{'default':>8s} {'proposed':>9s}")
    for name, e in doc["thresholds"].items():
        r, b = e["reference"], e["baseline"]
        value = f"{e['value']:g}" if e["graded"] else "NOT GRADED"
        print(f"{name:40s} {r['min']:8.4g} {r['median']:8.4g} {r['max']:8.4g} "
              f"{b['min']:8.4g} {b['median']:8.4g} {b['max']:8.4g} {e['default']:8g} {value:>9s}")
    diffs = [(n, e) for n, e in doc["thresholds"].items()
             if not e["graded"] or e["value"] != e["default"]]
    print("\ndifferences from the headers' defaults:" if diffs else
          "\nno threshold differs from the headers' defaults")
    for name, e in diffs:
        now = f"{e['value']:g}" if e["graded"] else "not graded"
        print(f"  {name}: {e['default']:g} -> {now}: {e['reason']}")
    for name, e in doc["floors"].items():
        if e["value"] != e["default"]:
            print(f"  {name} (partial-credit floor): {e['default']:g} -> {e['value']:g}: {e['reason']}")
    for p in problems:
        print(f"  not calibrated: {p}")


def print_margins(runs, rules, defaults):
    """Per threshold in one grading run: how far the reference is above it
    and the baseline below it, as factors (the rule asks for >= margin)."""
    samples = rule_lib.collect(runs)
    measured = [r for r in rules if rule_lib.band_of(samples, r["lab"], r["reference"])]
    if not measured:
        print("threshold margins: no speed test measured (no GPU, or no speed test ran)")
        return
    calibrations = sorted({(run.get("calibration") or {}).get("line", "?") for run in runs})
    print(f"threshold margins on this GPU (calibration: {'; '.join(calibrations)}): the "
          f"reference over the threshold, the threshold over the baseline")
    print(f"{'threshold':40s} {'value':>7s} {'reference':>10s} {'margin':>7s} "
          f"{'baseline':>9s} {'margin':>7s}  rule")
    for rule in measured:
        ref = rule_lib.band_of(samples, rule["lab"], rule["reference"])
        base = rule_lib.band_of(samples, rule["lab"], rule["baseline"])
        # The threshold the run graded with: the reference test's metric.
        used = rule_lib.band_of(samples, rule["lab"],
                                {"test": rule["reference"]["test"], "metric": "threshold"})
        t = used.low if used else defaults.get(rule["threshold"])
        higher = rule["better"] == "higher"
        ref_margin = ref.low / t if higher else t / ref.high
        base_text, base_margin = "", ""
        if base is not None and base.high > 0:
            base_margin = f"{(t / base.high if higher else base.low / t):7.3f}"
            base_text = f"{base.high:9.4g}"
        short = "  BELOW THE RULE'S MARGIN" if ref_margin < rule["margin"] or (
            base_margin and float(base_margin) < rule["margin"]) else ""
        print(f"{rule['threshold']:40s} {t:7.4g} {ref.low:10.4g} {ref_margin:7.3f} "
              f"{base_text:>9s} {base_margin:>7s}  >= {rule['margin']:g}{short}")


def write_calibration(doc, problems, gpu, out_arg):
    out = Path(out_arg) if out_arg else ROOT / "grader" / "calibration" / \
        rule_lib.calibration_file_name(gpu["name"], gpu["sms"], gpu["memory_gib"])
    print_report(doc, problems)
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    tmp.replace(out)
    print(f"\nwritten: {out}\n(commit it; the graders read it on this GPU from now on)")
    return 0


def from_summary(args, rules, defaults):
    """Proposals from recorded sessions (summarize_results.py reports)."""
    samples, devices = {}, set()
    for path in args.from_summary:
        with open(path, encoding="utf-8") as f:
            got, seen = rule_lib.parse_summary(f.read())
        devices |= seen
        for test, metrics in got.items():
            for metric, values in metrics.items():
                samples.setdefault(test, {}).setdefault(metric, []).extend(values)
    gpus = {d: rule_lib.parse_device(d) for d in devices}
    named = {(g["name"], g["sms"], g["memory_gib"]) for g in gpus.values() if g}
    if len(named) != 1:
        print(f"calibrate: the reports name {len(named)} GPUs; give one GPU's reports",
              file=sys.stderr)
        return 1
    description, gpu = next((d, g) for d, g in gpus.items() if g)
    labs = {int(t.split("/")[0][3:]) for t in samples}
    rules = [r for r in rules if r["lab"] in labs]
    made = {"date": datetime.date.today().isoformat(), "runs": None,
            "command": "calibrate.py --from-summary " + " ".join(args.from_summary)}
    doc, problems = build_calibration(rules, defaults, samples, gpu, description, made)
    if not doc["thresholds"]:
        print_report(doc, problems)
        print("calibrate: no rule had both of its measurements; nothing written", file=sys.stderr)
        return 1
    return write_calibration(doc, problems, gpu, args.out)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--bin", default=str(ROOT / "build" / "bin"))
    ap.add_argument("--labs", nargs="*", type=int)
    ap.add_argument("--runs-dir", help="keep each run's results and log here")
    ap.add_argument("--append", action="store_true",
                    help="add these rounds to those already in --runs-dir (same GPU)")
    ap.add_argument("--together", action="store_true",
                    help="run a round's labs at once under the batch's GPU share")
    ap.add_argument("--verify", action="store_true",
                    help="--repeat rounds of the solution graders with this GPU's calibration")
    ap.add_argument("--from-results", metavar="DIR")
    ap.add_argument("--from-summary", nargs="+", metavar="REPORT")
    ap.add_argument("--margins", nargs="+", metavar="RESULTS")
    ap.add_argument("--rules", default=str(RULES))
    ap.add_argument("--grader-dir", default=str(ROOT / "grader"))
    ap.add_argument("--out", help="the calibration file (default: grader/calibration/<gpu>.json)")
    args = ap.parse_args(argv)
    try:
        rules = rule_lib.load_rules(args.rules)
    except (OSError, ValueError) as err:
        print(f"calibrate: {err}", file=sys.stderr)
        return 2
    defaults = rule_lib.header_defaults(args.grader_dir)
    if args.labs:
        rules = [r for r in rules if r["lab"] in args.labs]

    if args.margins:
        print_margins(load_runs(args.margins), rules, defaults)
        return 0
    if args.from_summary:
        return from_summary(args, rules, defaults)
    if args.repeat < 1:
        print("calibrate: --repeat must be at least 1", file=sys.stderr)
        return 2
    if args.verify:
        labs = args.labs or sorted({r["lab"] for r in rules})
        return verify(args.bin, labs, args.repeat,
                      Path(args.runs_dir or ROOT / "build" / "calibration-verify"), args.together,
                      args.append)
    if args.from_results:
        paths = sorted(glob.glob(os.path.join(args.from_results, "*.json")))
        command = f"calibrate.py --from-results {args.from_results}"
    else:
        labs = args.labs or sorted({r["lab"] for r in rules})
        runs_dir = Path(args.runs_dir or ROOT / "build" / "calibration-runs")
        print(f"calibrate: {args.repeat} rounds of labs {' '.join(map(str, labs))} "
              f"(results in {runs_dir})")
        run_graders(args.bin, labs, args.repeat, runs_dir, rules, args.append, args.together)
        paths = sorted(str(p) for p in runs_dir.glob("lab*_run*.json"))
        command = f"make calibrate REPEAT={args.repeat}" + (" (appended)" if args.append else "")
    runs = load_runs(paths)
    if not runs:
        print("calibrate: no readable results files", file=sys.stderr)
        return 1
    gpu, description = gpu_of(runs)
    made = {"date": datetime.date.today().isoformat(), "runs": len(runs), "command": command}
    doc, problems = build_calibration(rules, defaults, rule_lib.collect(runs), gpu, description,
                                      made)
    if not doc["thresholds"]:
        print_report(doc, problems)
        print("calibrate: no rule had both of its measurements; nothing written", file=sys.stderr)
        return 1
    return write_calibration(doc, problems, gpu, args.out)


if __name__ == "__main__":
    sys.exit(main())
