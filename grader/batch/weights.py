"""Per-lab weights, and the one way every output counts a student's total.

The course file (--weights FILE; by default the course's grader/course.json
where it exists) gives each lab the points it is worth in the total:

    {"weights": {"lab1": 10, "lab2": 15, "lab3": 15, ...}}

A lab's score then counts as score x weight / the lab's points: lab 1's
55 of 105 counts 5.24 of 10. Without a course file each lab counts its own
points (the weight is the lab's points). Every lab graded needs a weight,
and a name that is no lab of the course is refused: a typo never drops a
lab from the total.

Bonus points, stated once and used by every output (gradebook, exports,
results.json, summary.json, the student's page, the progress line): they
are never in a lab's score nor in the total; they are extra credit, shown
apart, scaled by the same factor as their lab's score.

A speed test the grading GPU cannot grade is out of the student's own
possible points (own_possible): the percent is of those, the total of the
same points as everyone's."""
import json
import math
import os
from dataclasses import dataclass, field
from typing import Dict, List, Optional

from .util import fmt

COURSE_FILE = os.path.join("grader", "course.json")
BONUS_RULE = "bonus: extra credit, never in a lab's score nor in the total"


class WeightsError(ValueError):
    """A course file that cannot be used; the message says why."""


def default_file(course_root):
    """The course's own course file, or None where it has none."""
    path = os.path.join(course_root, COURSE_FILE)
    return path if os.path.isfile(path) else None


def load(path, lab_names):
    """{lab: weight} from the course file at `path`, for the labs graded
    (`lab_names`); None without a file."""
    if path is None:
        return None
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        raise WeightsError(f"course file {path} cannot be read: {e}")
    weights = data.get("weights") if isinstance(data, dict) else None
    if not isinstance(weights, dict):
        raise WeightsError(f"course file {path}: no \"weights\" object (e.g. "
                           "{\"weights\": {\"lab1\": 10, \"lab2\": 15}})")
    unknown = sorted(set(weights) - set(lab_names))
    missing = [n for n in lab_names if n not in weights]
    if unknown:
        raise WeightsError(f"course file {path}: {', '.join(unknown)} is no lab graded here "
                           f"(the labs: {', '.join(lab_names)})")
    if missing:
        raise WeightsError(f"course file {path}: no weight for {', '.join(missing)} (every "
                           "lab graded needs one; 0 leaves a lab out of the total)")
    for name, w in weights.items():
        if isinstance(w, bool) or not isinstance(w, (int, float)) or not math.isfinite(w) \
                or w < 0:
            raise WeightsError(f"course file {path}: the weight of {name} is {w!r}, not a "
                               "number of points >= 0")
    if not any(weights.values()):
        raise WeightsError(f"course file {path}: every weight is 0")
    return {n: float(weights[n]) for n in lab_names}


def factor(info):
    """What one point of the lab counts in the total (a LabInfo)."""
    if info.weight is None or not info.possible:
        return 1.0
    return info.weight / info.possible


def worth(info):
    """The points the lab is worth in the total."""
    return info.possible if info.weight is None else info.weight


def statement(labs_info):
    """The gradebook's line on how its totals are made."""
    if not any(i.weight is not None for i in labs_info):
        return f"each lab counts its own points; {BONUS_RULE}"
    parts = [f"{i.name} {fmt(i.possible)} points -> {fmt(worth(i))}" for i in labs_info]
    return "weights (course file): " + ", ".join(parts) + f"; {BONUS_RULE} (scaled alike)"


@dataclass
class Totals:
    """A student's numbers as every output gives them."""
    labs: Dict[str, float] = field(default_factory=dict)   # each lab's score as counted
    total: float = 0.0
    possible: float = 0.0        # of everyone: the sum of the labs' worth
    own_possible: float = 0.0    # less what the grading GPU could not grade
    bonus: float = 0.0
    bonus_possible: float = 0.0

    @property
    def percent(self):
        return 100.0 * self.total / self.own_possible if self.own_possible > 0 else 0.0


def totals(rec, labs_info: List) -> Totals:
    """The Totals of a StudentRecord over the labs of `labs_info`."""
    t = Totals()
    for info in labs_info:
        f = factor(info)
        lab = rec.labs.get(info.name)
        t.possible += worth(info)
        t.own_possible += worth(info) - (lab.not_gradable_points * f if lab else 0)
        t.bonus_possible += info.bonus_possible * f
        if lab is None:
            t.labs[info.name] = 0.0
            continue
        t.labs[info.name] = round(lab.score * f, 2)
        t.bonus += lab.bonus * f
    t.total = round(sum(t.labs.values()), 2)
    t.bonus = round(t.bonus, 2)
    return t


def with_weights(labs_info, weights: Optional[Dict[str, float]]):
    """labs_info with each lab's weight set (None: its own points)."""
    import dataclasses
    return [dataclasses.replace(i, weight=None if weights is None else weights[i.name])
            for i in labs_info]
