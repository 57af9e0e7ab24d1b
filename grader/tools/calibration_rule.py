"""The margin rule of grader/calibration/rules.json, applied to measured bands.

Pure logic, no I/O beyond reading the rubric headers and the rules file, so
that the unit tests (grader/tools/tests/test_calibrate.py) can drive it with
synthetic samples. calibrate.py runs the graders and writes the file.

The rule, for a ratio where higher is better: the threshold T must satisfy
    baseline_max * margin <= T <= reference_min / margin
(for lower is better: reference_max * margin <= T <= baseline_min / margin).
A header default inside that interval stays; one outside it moves to the
nearer end; an empty interval means the reference and the baseline cannot
be told apart on this GPU with the margin the rule asks for."""
import ast
import math
import operator
import re
import statistics
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional

RULES_SCHEMA = "cuda-labs-calibration-rules/1"
CALIBRATION_SCHEMA = "cuda-labs-calibration/1"


class RuleError(ValueError):
    """rules.json or a header does not say what the rule needs."""


@dataclass
class Band:
    """min / median / max of one metric over repeated runs."""
    values: List[float]

    @property
    def low(self):
        return min(self.values)

    @property
    def median(self):
        return statistics.median(self.values)

    @property
    def high(self):
        return max(self.values)

    def as_json(self, test, metric):
        return {"test": test, "metric": metric, "n": len(self.values),
                "min": round(self.low, 6), "median": round(self.median, 6),
                "max": round(self.high, 6)}


def load_rules(path):
    import json
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    if doc.get("schema") != RULES_SCHEMA:
        raise RuleError(f"{path}: schema is {doc.get('schema')!r}, not {RULES_SCHEMA}")
    rules = doc.get("rules")
    if not isinstance(rules, list) or not rules:
        raise RuleError(f"{path}: no rules")
    seen = set()
    for rule in rules:
        name = rule.get("threshold")
        if not isinstance(name, str) or not re.fullmatch(r"LAB\d+_[A-Z0-9_]+", name):
            raise RuleError(f"{path}: a rule without a threshold macro name: {rule!r:.80}")
        if name in seen:
            raise RuleError(f"{path}: {name} has two rules")
        seen.add(name)
        if rule.get("better") not in ("higher", "lower"):
            raise RuleError(f"{path}: {name}: better must be 'higher' or 'lower'")
        margin = rule.get("margin")
        if not isinstance(margin, (int, float)) or not 1.0 <= margin <= 3.0:
            raise RuleError(f"{path}: {name}: margin must be a number from 1 to 3")
        for side in ("reference", "baseline"):
            s = rule.get(side)
            if not isinstance(s, dict) or not s.get("test") or not s.get("metric"):
                raise RuleError(f"{path}: {name}: {side} needs a test and a metric")
    return rules


_DEFINE = re.compile(r"^\s*#\s*define\s+(LAB\d+_[A-Z0-9_]+)\s+(.+?)\s*(?:/\*.*)?$")


def header_defaults(grader_dir):
    """{macro: value} of every numeric #define in grader/labN/labN_rubric.h,
    reading a threshold written as CALIBRATED(NAME, value) as its value and
    a floor written as (OTHER / 2) through OTHER."""
    raw = {}
    for header in sorted(Path(grader_dir).glob("lab*/lab*_rubric.h")):
        for line in header.read_text(encoding="utf-8").splitlines():
            m = _DEFINE.match(line)
            if m:
                raw[m.group(1)] = m.group(2)
    values = {}

    def evaluate(name, depth=0):
        text = raw[name]
        m = re.fullmatch(r"CALIBRATED\(\s*\w+\s*,\s*(.+?)\s*\)", text)
        if m:
            text = m.group(1)
        text = re.sub(r"\b(LAB\d+_[A-Z0-9_]+)\b",
                      lambda t: repr(evaluate(t.group(1), depth + 1)) if depth < 4
                      and t.group(1) in raw else t.group(1), text)
        return arithmetic(ast.parse(text, mode="eval").body)

    for name in raw:
        try:
            values[name] = evaluate(name)
        except (ValueError, SyntaxError, ZeroDivisionError, KeyError):
            pass  # not a number (a size written as a shift, a string): not a ratio
    return values


_OPERATORS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
              ast.Div: operator.truediv}


def arithmetic(node):
    """A number, or + - * / of numbers: all a rubric header's ratio macro holds."""
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
        return float(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -arithmetic(node.operand)
    if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
        return _OPERATORS[type(node.op)](arithmetic(node.left), arithmetic(node.right))
    raise ValueError("not arithmetic")


def round_toward(value, up):
    """Three significant digits, rounded so that the rounded value still
    satisfies the bound it came from (up for a lower bound, down for an upper)."""
    if value <= 0:
        return round(value, 6)
    scale = 10 ** (math.floor(math.log10(value)) - 2)
    steps = value / scale
    steps = math.ceil(steps - 1e-9) if up else math.floor(steps + 1e-9)
    return round(steps * scale, 12)


@dataclass
class Proposal:
    threshold: str
    default: float
    graded: bool
    value: Optional[float]
    allowed: Optional[List[float]]  # [low, high], None when empty
    reason: str


def propose(rule, default, reference: Band, baseline: Band) -> Proposal:
    """The threshold that satisfies `rule` given the two measured bands."""
    m = float(rule["margin"])
    name = rule["threshold"]
    if rule["better"] == "higher":
        low, high = baseline.high * m, reference.low / m
        why_low = f"the baseline's max {baseline.high:.4g} x {m:g}"
        why_high = f"the reference's min {reference.low:.4g} / {m:g}"
    else:
        low, high = reference.high * m, baseline.low / m
        why_low = f"the reference's max {reference.high:.4g} x {m:g}"
        why_high = f"the baseline's min {baseline.low:.4g} / {m:g}"
    if low > high:
        return Proposal(name, default, False, None, None,
                        f"cannot be graded on this GPU: {why_low} = {low:.4g} is above "
                        f"{why_high} = {high:.4g} (the bands are too close for the margin)")
    allowed = [round(low, 6), round(high, 6)]
    if low <= default <= high:
        return Proposal(name, default, True, default, allowed,
                        f"the default satisfies the rule ({low:.4g} .. {high:.4g})")
    if default > high:
        value = max(round_toward(high, up=False), low)
        return Proposal(name, default, True, value, allowed,
                        f"lowered: the default is above {why_high} = {high:.4g}, so the "
                        f"reference would not keep the margin on this GPU")
    value = min(round_toward(low, up=True), high)
    return Proposal(name, default, True, value, allowed,
                    f"raised: the default is below {why_low} = {low:.4g}, so the baseline "
                    f"would come within the margin of it on this GPU")


def collect(runs) -> Dict[str, Dict[str, List[float]]]:
    """{test: {metric: [values]}} from results files (parsed JSON) of any
    labs: only tests whose record has the metric as a finite number."""
    out: Dict[str, Dict[str, List[float]]] = {}
    for run in runs:
        lab = str(run.get("lab", ""))
        for test in run.get("tests", []):
            for metric, rec in (test.get("metrics") or {}).items():
                value = rec.get("value") if isinstance(rec, dict) else None
                if isinstance(value, (int, float)) and math.isfinite(value):
                    out.setdefault(f"{lab}/{test.get('name')}", {}) \
                       .setdefault(metric, []).append(float(value))
    return out


def band_of(samples, lab, side) -> Optional[Band]:
    values = samples.get(f"lab{lab}/{side['test']}", {}).get(side["metric"])
    return Band(values) if values else None


# GPU identity: the results' "device" line (grader/support/device_info.c,
# device_describe): "NAME, sm_XY, N SMs, L MiB L2, M GiB, driver .., runtime ..".
_DEVICE = re.compile(r"^(?P<name>.+?), sm_\d+, (?P<sms>\d+) SMs, \d+ MiB L2, "
                     r"(?P<gib>\d+) GiB\b")


def parse_device(description):
    m = _DEVICE.match(description or "")
    if not m:
        return None
    return {"name": m.group("name"), "sms": int(m.group("sms")), "memory_gib": int(m.group("gib"))}


def calibration_file_name(name, sms, memory_gib):
    """The file a GPU's calibration lives in (grader/harness/runner/calibration.c,
    calibration_file_name, computes the same): the name in lowercase with
    every run of other characters as one '-', then '_<N>sm', and
    '_<M>gib' only where the name does not state a memory size already
    (a name alone is not unique: MIG slices, 40 and 80 GB parts)."""
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:80] or "gpu"
    file = f"{slug}_{sms}sm"
    if not re.search(r"\d+\s*gb", name.lower()):
        file += f"_{memory_gib}gib"
    return file + ".json"


# summarize_results.py's report (what handouts/results/*.txt record of the
# course's own calibration sessions): a test's heading, then one line per
# metric with its min, median and max.
_SUMMARY_TEST = re.compile(r"^(lab\d+) solutions (\w+): ")
_SUMMARY_METRIC = re.compile(r"^\s+(\w+)\s+n=\s*\d+\s+min\s+(\S+)\s+median\s+(\S+)\s+max\s+(\S+)")
_SUMMARY_DEVICE = re.compile(r"result files; device\(s\): (.+)$")


def parse_summary(text):
    """(samples as collect() gives them, the device lines) from a
    summarize_results.py report; each metric's min, median and max stand
    for its runs (sessions in one file add to each other's bands)."""
    samples: Dict[str, Dict[str, List[float]]] = {}
    devices = set()
    test = None
    for line in text.splitlines():
        m = _SUMMARY_DEVICE.search(line)
        if m:
            devices.add(m.group(1).strip())
            continue
        m = _SUMMARY_TEST.match(line)
        if m:
            test = f"{m.group(1)}/{m.group(2)}"
            continue
        m = _SUMMARY_METRIC.match(line)
        if m and test:
            try:
                values = [float(v) for v in m.group(2, 3, 4)]
            except ValueError:
                continue
            samples.setdefault(test, {}).setdefault(m.group(1), []).extend(values)
        elif not line.startswith(" "):
            test = None
    return samples, devices
