"""Partial credit for speed on the GPU the lab was graded on.

A speed test's curve (score.SpeedCurve: floor and reference ratio) comes
from the test table's defaults; `make calibrate` measures both on a GPU and
writes them into its calibration file ("floors", "references", keyed by
macro: grader/calibration/rules.json). The runner, which holds no student
code, names in its results the file that graded the run; the batch takes
that file's values from the course's own read-only copy.

A named file whose floors cannot be read stops that lab
(CalibrationUnusable): the defaults never stand in silently. A value
calibrated against another default than the test table's now is not used
(outdated() says so), as the runner does for thresholds (calibration.h)."""
import json
import math
import os
import re
import threading
from dataclasses import replace
from typing import Dict, Optional

from .score import SpeedCurve

# calibration.c's file names: the GPU's slug, its SMs, perhaps its memory.
FILE_NAME = re.compile(r"^[a-z0-9][a-z0-9-]*_[0-9]+sm(_[0-9]+gib)?\.json$")


class CalibrationUnusable(Exception):
    """The calibration file named by the results cannot give its curves."""


def _same(recorded, now):
    """calibrate.py writes the header's number back exactly: only a change differs."""
    return now is not None and math.isclose(recorded, now, rel_tol=1e-9, abs_tol=1e-12)


def _value(section, name, now):
    """The calibrated value of macro `name` in a floors/references section
    that _load has checked, or None when the file has none for it (or wrote
    null: a ratio it could not grade), or made it against another default
    than `now`, the test table's."""
    entry = section.get(name) if name else None
    if entry is None or not _same(entry["default"], now):
        return None
    return entry["value"]


class CalibratedCurves:
    """The curves of the course at `course_src` (its grader/calibration/
    folder and rules), per calibration file, read and checked once each."""

    def __init__(self, course_src):
        self.folder = os.path.join(course_src, "grader", "calibration")
        self._names = None  # {test: (floor macro, reference macro)}
        self._files = {}    # {file: (floors, references)}
        self._lock = threading.Lock()

    def _macros(self):
        if self._names is None:
            with open(os.path.join(self.folder, "rules.json")) as f:
                rules = json.load(f)["rules"]
            self._names = {r["reference"]["test"]: (r.get("floor"), r.get("reference_ratio"))
                           for r in rules if r.get("floor") or r.get("reference_ratio")}
        return self._names

    def _load(self, file):
        """(floors, references) of `file`, each value a ratio or null, or
        CalibrationUnusable with the reason."""
        if not FILE_NAME.match(file):
            raise CalibrationUnusable(f"{file!r} is not a calibration file's name")
        try:
            with open(os.path.join(self.folder, file)) as f:
                doc = json.load(f)
        except (OSError, ValueError) as e:
            raise CalibrationUnusable(f"{file}: {e}") from None
        sections = (doc.get("floors", {}), doc.get("references", {}))
        for section in sections:
            if not isinstance(section, dict):
                raise CalibrationUnusable(f"{file}: its floors or references are not objects")
            for name, entry in section.items():
                if not isinstance(entry, dict):
                    raise CalibrationUnusable(f"{file}: {name} is not an entry ({entry!r:.40})")
                value = entry.get("value")
                if value is not None and (isinstance(value, bool)
                                          or not isinstance(value, (int, float))
                                          or not math.isfinite(value) or value < 0):
                    raise CalibrationUnusable(f"{file}: {name} is not a ratio ({value!r})")
                default = entry.get("default")
                if (isinstance(default, bool) or not isinstance(default, (int, float))
                        or not math.isfinite(default)):
                    raise CalibrationUnusable(f"{file}: {name} does not record the default it "
                                              f"was calibrated against ({default!r})")
        return sections

    def _checked(self, file):
        with self._lock:
            if file not in self._files:
                self._files[file] = self._load(file)
            return self._files[file], self._macros()

    def check_all(self):
        """Reads every calibration file of the course once, before anyone is
        graded: one that cannot give its curves stops the batch
        (CalibrationUnusable) instead of some students' labs."""
        names = sorted(n for n in os.listdir(self.folder)
                       if n.endswith(".json") and n != "rules.json")
        for file in names:
            self._checked(file)
        self._macros()
        return names

    def outdated(self, course_curves: Dict[str, Dict[str, SpeedCurve]]):
        """One line per calibration file of the course (check_all's) that has
        floors or references made against other defaults than the test
        tables' in `course_curves` ({lab: its curves}, course.curves): those
        macros grade with the test table's values."""
        lines = []
        for file in self.check_all():
            (floors, references), macros = self._checked(file)
            stale = {}
            for curve in course_curves.values():
                for test, spec in curve.items():
                    floor_name, reference_name = macros.get(test, (None, None))
                    for section, name, now in ((floors, floor_name, spec.floor),
                                               (references, reference_name, spec.reference)):
                        entry = section.get(name) if name else None
                        if entry is not None and not _same(entry["default"], now):
                            stale[name] = (f"{name} (calibrated against the default "
                                           f"{entry['default']:g}, the test table's is now "
                                           f"{'none' if now is None else format(now, 'g')}, "
                                           f"which grades)")
            if stale:
                lines.append(f"calibration {file}: not used for "
                             f"{', '.join(stale[n] for n in sorted(stale))}; run make calibrate "
                             f"again on that GPU")
        return lines

    def curves(self, curve: Dict[str, SpeedCurve],
               calibration: Optional[Dict[str, Optional[str]]]) -> Dict[str, SpeedCurve]:
        """`curve` (the rubric's) with the floor and reference of the file
        in `calibration` (the results' {"state", "file"}, score._calibration)
        where it has them; `curve` itself for any other state."""
        if not calibration or calibration.get("state") != "file" or not curve:
            return curve
        (floors, references), macros = self._checked(calibration.get("file") or "")
        out = dict(curve)
        for test, spec in curve.items():
            floor_name, reference_name = macros.get(test, (None, None))
            floor = _value(floors, floor_name, spec.floor)
            reference = _value(references, reference_name, spec.reference)
            if floor is not None or reference is not None:
                out[test] = replace(spec, floor=spec.floor if floor is None else float(floor),
                                    reference=spec.reference if reference is None
                                    else float(reference))
        return out
