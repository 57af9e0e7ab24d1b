"""The class-level outputs, always regenerated from the per-student files
(OUT/students/<id>/student.json), never kept in memory between runs: that
is what makes a killed-and-resumed batch give exactly the gradebook of an
uninterrupted one, and what lets `merge` join the outputs of shards.

- gradebook.csv: a points-possible row, then one row per student;
- review.csv: the review flags of every student;
- summary.json: per lab, the class's scores and per test its pass rate.

The CSV files are opened by spreadsheets: a text cell that starts with
=, +, -, @, a tab or a carriage return would be run as a formula, so it is
written with a ' in front (csv_cell). The gradebook's id_percent_encoded
column keeps every id exact for an LMS import: the id with every byte
outside [A-Za-z0-9_.~] and a leading "-" percent-encoded (RFC 3986), so
it never starts with a formula character; urllib.parse.unquote gives the
id back."""
import csv
import dataclasses
import io
import json
import os
import statistics
import urllib.parse
from typing import Dict, List

from . import weights
from .records import BatchRecord, LabInfo, StudentRecord
from .util import fmt, id_key, nfc, read_json, write_atomic, write_json_atomic


STUDENTS = "students"
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def student_dir(out, sid):
    """A student's folder: under OUT/students/, a namespace of its own, so
    that no id can be a name the batch owns (gradebook.csv, .work, ...)."""
    return os.path.join(out, STUDENTS, sid)


def csv_cell(value):
    """A cell a spreadsheet shows as text, never runs as a formula."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def id_percent_encoded(sid):
    encoded = urllib.parse.quote(sid, safe="")
    return "%2D" + encoded[1:] if encoded.startswith("-") else encoded


def _write_rows(rows):
    """CSV text; CRLF line ends (RFC 4180), which also makes the writer quote
    a cell holding a lone CR, so that it cannot split a row."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\r\n")
    for row in rows:
        w.writerow([csv_cell(c) for c in row])
    return buf.getvalue()


def load_students(outs) -> Dict[str, StudentRecord]:
    """Every student.json under the given OUT folders, by id (a later
    folder's copy of an id wins; merge reads shards with read_shard)."""
    students = {}
    for out in outs:
        folder = os.path.join(out, STUDENTS)
        for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
            try:
                rec = StudentRecord.from_json(read_json(os.path.join(folder, name,
                                                                     "student.json")))
            except ValueError:
                continue  # none, or not a student's record
            if rec.id == name:
                students[name] = rec
    return students


class RosterError(ValueError):
    """A roster that cannot be used; the message names the file and line."""


def read_roster(path, column="id"):
    """The student ids of a roster: a CSV whose first row is a header, the
    ids in the column named `column` (any case, outer spaces ignored).
    Nothing is guessed: a roster without that column, a formula for an id,
    two ids that look alike (outputs: id_key) or no id at all raise
    RosterError, before anyone is graded. Blank lines are skipped; ids are
    NFC, as submission ids are."""
    rows = _roster_rows(path)
    if not rows:
        raise RosterError(f"roster {path}: no header row (the file is empty)")
    header_line, header = rows[0]
    col = _roster_column(path, header_line, header, column)
    ids, seen = [], {}
    for line, row in rows[1:]:
        sid = nfc(row[col].strip()) if len(row) > col else ""
        where = f"roster {path} line {line}"
        if not sid:
            raise RosterError(f"{where}: no id in column {header[col].strip()!r}")
        if sid.startswith(ROSTER_FORMULA_STARTS):
            # A spreadsheet runs it (or ran it, and the id is its result).
            raise RosterError(f"{where}: the id {sid!r} is a spreadsheet formula")
        if id_key(sid) in seen:
            first, other = seen[id_key(sid)]
            raise RosterError(f"{where}: the id {sid!r} is that of line {first} ({other!r}) "
                              "(ids that differ only in case or spaces are one student's)")
        seen[id_key(sid)] = (line, sid)
        ids.append(sid)
    if not ids:
        raise RosterError(f"roster {path}: no student ids under its header")
    return ids


ROSTER_FORMULA_STARTS = ("=", "+", "-", "@")


def _roster_rows(path):
    """[(line number, cells)] of the CSV's non-blank rows."""
    try:
        with open(path, newline="", encoding="utf-8-sig") as f:
            reader = csv.reader(f)
            return [(reader.line_num, row) for row in reader if any(c.strip() for c in row)]
    except UnicodeDecodeError as e:
        raise RosterError(f"roster {path}: not UTF-8 text ({e.reason} at byte {e.start})")
    except (OSError, csv.Error) as e:
        raise RosterError(f"roster {path}: cannot be read: {e}")


def _roster_column(path, line, header, column):
    """The index of the id column in the header row."""
    want = column.strip().casefold()
    hits = [i for i, h in enumerate(header) if h.strip().casefold() == want]
    names = ", ".join(repr(h.strip()) for h in header)
    if not hits:
        raise RosterError(f"roster {path} line {line}: no column {column!r} in its header "
                          f"({names}); name the id column with --roster-column")
    if len(hits) > 1:
        raise RosterError(f"roster {path} line {line}: {len(hits)} columns named {column!r} "
                          f"in its header ({names})")
    return hits[0]


def roster_summary(roster, ids, shown=20, names=None):
    """Before grading: the rostered ids with no submission, and the
    submissions whose id is on no roster line (an LMS's download name,
    say), so that a wrong name is fixed before the gradebook says it.
    `names`: {id: the entry's name} where they differ (--id-pattern), so
    that an entry is shown as it is in the folder."""
    if roster is None:
        return []
    rostered, handed_in = {nfc(r) for r in roster}, set(ids)
    names = names or {}

    def listed(found):
        found = [f"{i} ({names[i]})" if names.get(i, i) != i else i for i in found]
        return ": " + " ".join(found[:shown]) + (f" and {len(found) - shown} more"
                                                  if len(found) > shown else "") if found else ""
    missing = sorted(rostered - handed_in)
    extra = sorted(handed_in - rostered)
    return [f"roster: {len(missing)} rostered ids have no submission{listed(missing)}",
            f"roster: {len(extra)} submissions are on no roster line{listed(extra)}"]


def pattern_summary(subs, pattern_text, shown=20):
    """Before grading, under --id-pattern: how many entries' names gave an
    id, and the entries it did not match (graded under their own name)."""
    if pattern_text is None:
        return []
    missed = [s.name for s in subs if s.pattern == "missed"]
    matched = [s for s in subs if s.pattern == "matched"]
    lines = [f"--id-pattern {pattern_text}: {len(matched)} of {len(subs)} entries named an id" +
             (f" (e.g. {matched[0].name} -> {matched[0].id})" if matched else "")]
    if missed:
        lines.append(f"--id-pattern {pattern_text}: {len(missed)} entries match it not, graded "
                     f"under their own name: {' '.join(missed[:shown])}" +
                     (f" and {len(missed) - shown} more" if len(missed) > shown else ""))
    return lines


def _labs_with(rec: StudentRecord, lab_names, **want):
    """The labs of `lab_names` whose record has every field as in `want`."""
    return [n for n in lab_names if n in rec.labs and
            all(getattr(rec.labs[n], k) == v for k, v in want.items())]


# Why labs scored what they scored, in grading_status: (the lab record's
# field, its value, the words). A grader stopped, or results that could not
# be used, is a reason the student must be told.
LAB_TROUBLES = (("state", "too_large", "too large"), ("state", "build_failed", "did not build"),
                ("state", "error", "not graded"), ("problem", "time limit", "time limit"),
                ("problem", "results unreadable", "results unreadable"),
                ("problem", "no results", "no results"))


def status_text(rec: StudentRecord, lab_names):
    if rec.state == "error":
        return "error: " + (rec.error if rec.error is not None else "could not be graded")
    if rec.state == "not_submitted":
        return "not submitted"
    if rec.state == "missing_shard":
        return "not graded: its shard's output was not merged"
    if rec.state == "shard_incomplete":
        return "not graded: its shard's grading did not finish"
    parts = []
    missing = _labs_with(rec, lab_names, state="not_submitted")
    if missing and len(missing) < len(lab_names):
        parts.append("not submitted: " + " ".join(missing))
    elif missing:
        parts.append("not submitted")
    for field, value, said in LAB_TROUBLES:
        hit = _labs_with(rec, lab_names, **{field: value})
        if hit:
            parts.append(f"{said}: {' '.join(hit)}")
    ungraded = [n for n in lab_names if n not in rec.labs]
    if ungraded and rec.state == "graded":
        parts.append("not graded yet: " + " ".join(ungraded))
    no_gpu = sum(rec.labs[n].no_gpu_points for n in lab_names if n in rec.labs)
    if no_gpu:
        parts.insert(0, f"partial: no GPU ({int(no_gpu)} points not graded)")
    # Ratios the grading GPU's calibration cannot grade: out of the total.
    not_gradable = sum(rec.labs[n].not_gradable_points for n in lab_names if n in rec.labs)
    if not_gradable:
        parts.append(f"{int(not_gradable)} points not graded on this GPU "
                     f"({calibration_text(rec, lab_names)}), out of the total")
    # How it was graded, where the batch was told to grade without its
    # protections (--no-sandbox, --allow-root-graders).
    if rec.state == "graded" and rec.sandbox is False:
        parts.append("unsandboxed")
    if rec.state == "graded" and rec.graders in ("root", "batch user"):
        parts.append("graders as root" if rec.graders == "root" else "graders as the batch's user")
    if rec.not_on_roster:
        parts.append("not on the roster")
    models = gpu_models(rec, lab_names)
    return ("; ".join(parts) if parts else "ok") + (f" (graded on {models})" if models else "")


def gpu_models(rec: StudentRecord, lab_names):
    """The GPU models that ran a student's graders ("NVIDIA H200"), or ""."""
    seen = []
    for n in lab_names:
        run = rec.labs[n].run if n in rec.labs else None
        if run is not None and run.gpu and run.gpu not in seen:
            seen.append(run.gpu)
    return ", ".join(seen)


def calibration_text(rec: StudentRecord, lab_names):
    """Which calibration graded a student's labs (score.py's lab records),
    e.g. "calibration nvidia-h100-80gb-hbm3_132sm.json" or "uncalibrated GPU"."""
    seen = []
    for n in lab_names:
        cal = rec.labs[n].calibration if n in rec.labs else None
        if not cal or cal.get("state") == "not_needed":
            continue
        text = ("calibration " + cal["file"] if cal.get("state") == "file" else
                "uncalibrated GPU" if cal.get("state") == "defaults" else "rubric defaults")
        if text not in seen:
            seen.append(text)
    return ", ".join(seen) or "no calibration recorded"


def with_roster(students: Dict[str, StudentRecord], roster) -> Dict[str, StudentRecord]:
    """The students with the roster's: a row "not submitted" for each
    rostered id without a submission, and "not on the roster" on each
    submission the roster lacks. A submission whose id is a rostered id
    but for case or spaces ("alice" for "Alice") is neither: it is an error
    row, the instructor's to settle (rename the entry, or fix the roster;
    the graded record is kept), never two rows for one student."""
    rostered = {id_key(r): r for r in roster}
    out = {}
    for sid, rec in students.items():
        like = rostered.get(id_key(sid))
        if like == sid:
            out[sid] = rec
        elif like is not None:
            out[sid] = StudentRecord(id=sid, state="error", entry=rec.entry, error=(
                f"the id looks like the roster's {like!r} but differs in case or spaces: "
                "rename the entry or fix the roster, and run again"))
        else:
            out[sid] = dataclasses.replace(rec, not_on_roster=True)
    submitted = {id_key(sid) for sid in students}
    for sid in roster:
        if id_key(sid) not in submitted:
            out[sid] = StudentRecord(id=sid, state="not_submitted")
    return out


def write_class_outputs(out, students: Dict[str, StudentRecord], labs_info: List[LabInfo],
                        roster=None):
    """labs_info: the labs in lab order. Returns the students written (the
    roster's rows included)."""
    lab_names = [l.name for l in labs_info]
    if roster is not None:
        students = with_roster(students, roster)
    ids = sorted(students)

    # The header rows: the points each column is worth, and how the totals
    # are made (weights.statement: the weights, and the one bonus rule).
    everyone = weights.totals(StudentRecord(id="", state="graded"), labs_info)
    rows = [["id"] + lab_names + ["total", "percent", "bonus", "grading_status",
                                  "id_percent_encoded"],
            ["points-possible"] + [fmt(weights.worth(l)) for l in labs_info] +
            [fmt(everyone.possible), 100, fmt(everyone.bonus_possible),
             weights.statement(labs_info), ""]]
    for sid in ids:
        rec = students[sid]
        t = weights.totals(rec, labs_info)
        rows.append([sid] + [fmt(t.labs[n]) for n in lab_names] +
                    [fmt(t.total), fmt(t.percent), fmt(t.bonus),
                     status_text(rec, lab_names), id_percent_encoded(sid)])
    write_atomic(os.path.join(out, "gradebook.csv"), _write_rows(rows))

    rows = [["id", "lab_or_file", "line", "flag", "excerpt"]]
    for sid in ids:
        for f in students[sid].review:
            rows.append([sid, f.file, f.line, f.flag, f.excerpt])
    write_atomic(os.path.join(out, "review.csv"), _write_rows(rows))

    write_json_atomic(os.path.join(out, "summary.json"), summary(students, ids, labs_info))
    return students


def summary(students: Dict[str, StudentRecord], ids, labs_info: List[LabInfo]):
    """summary.json (a dict, written as it is)."""
    labs = {}
    for info in labs_info:
        name = info.name
        recs = [students[s].labs[name] for s in ids if name in students[s].labs]
        submitted = [r for r in recs if r.state != "not_submitted"]
        scores = [r.score for r in submitted]
        tests = {}
        for r in submitted:
            for t in r.tests:
                e = tests.setdefault(t.name, {"passed": 0, "failed": 0, "not_graded_no_gpu": 0,
                                              "not_graded": 0, "did_not_build": 0,
                                              "ratios": []})
                # A pass rate counts only the runs that graded the test: a
                # lab that did not build, or a test not graded (no GPU, a
                # ratio this GPU cannot grade, an error row), is shown apart,
                # never as a failure.
                if r.state != "graded":
                    e["did_not_build" if r.state == "build_failed" else "not_graded"] += 1
                elif t.no_gpu:
                    e["not_graded_no_gpu"] += 1
                elif t.not_gradable:
                    e["not_graded"] += 1
                elif t.status == "passed":
                    e["passed"] += 1
                else:
                    e["failed"] += 1
                if t.ratio is not None:
                    e["ratios"].append(round(t.ratio, 4))
                if t.threshold is not None:
                    e.setdefault("threshold", t.threshold)
        for e in tests.values():
            graded = e["passed"] + e["failed"]
            e["pass_rate"] = round(e["passed"] / graded, 4) if graded else None
            if not e["ratios"]:
                del e["ratios"]
        labs[name] = {
            "possible": info.possible,
            "worth": weights.worth(info),
            "submitted": len(submitted),
            "built": sum(1 for r in submitted if r.state == "graded"),
            "mean": round(statistics.mean(scores), 2) if scores else None,
            "median": round(statistics.median(scores), 2) if scores else None,
            "min": min(scores) if scores else None,
            "max": max(scores) if scores else None,
            "scores": scores,
            "tests": tests,
        }
    return {
        "students": len(ids),
        "graded": sum(1 for s in ids if students[s].state == "graded"),
        "errors": sorted(s for s in ids if students[s].state == "error"),
        "not_submitted": sorted(s for s in ids if students[s].state == "not_submitted"),
        "no_gpu": any(students[s].labs[l.name].no_gpu_points
                      for s in ids for l in labs_info if l.name in students[s].labs),
        # Which calibration graded each student (their labs' results).
        "calibration": {s: calibration_text(students[s], [l.name for l in labs_info])
                        for s in ids if students[s].state == "graded"},
        "labs": labs,
        # Each student's total as the gradebook has it (weights.py).
        "totals_rule": weights.statement(labs_info),
        "totals": {s: weights.totals(students[s], labs_info).total for s in ids},
    }


def labs_info_path(out):
    return os.path.join(out, "labs.json")


COMPLETE = "complete.json"


def complete_path(out):
    """OUT/complete.json: written when every student of the OUT's shard is
    graded; absent while a run is in progress, or after one was killed."""
    return os.path.join(out, COMPLETE)


def write_complete(out, batch: BatchRecord, students):
    """The completion marker, for the shard and submission list of `batch`
    (as in batch.json, so a marker left from another list never counts)."""
    write_json_atomic(complete_path(out), {"shard": list(batch.shard),
                                           "submissions": batch.submissions,
                                           "students": students})


def is_complete(out, batch: BatchRecord):
    marker = read_json(complete_path(out))
    return isinstance(marker, dict) and marker.get("shard") == list(batch.shard) and \
        marker.get("submissions") == batch.submissions


@dataclasses.dataclass
class Shard:
    """One output folder as merge reads it, checked (read_shard)."""
    out: str
    batch: BatchRecord
    labs: list                          # labs.json as written
    students: Dict[str, StudentRecord]  # by NFC id
    complete: bool

    def name(self):
        index, count = self.batch.shard
        return f"shard {index}/{count} ({self.out})"


def read_shard(out) -> Shard:
    """An output folder for merge; a folder that is no grade-submissions
    output, or whose files do not parse, stops the merge naming it."""
    labs = read_json(labs_info_path(out))
    try:
        [LabInfo.from_json(i) for i in labs]
    except (KeyError, TypeError, AttributeError):
        raise SystemExit(f"merge: {out} has no usable labs.json (not a grade-submissions "
                         "output?)")
    raw = read_json(os.path.join(out, "batch.json"))
    if raw is None:
        raise SystemExit(f"merge: {out} has no batch.json (not a grade-submissions output, "
                         "or graded by an older one?)")
    try:
        batch = BatchRecord.from_json(raw)
        index, count = batch.shard
        if not (isinstance(index, int) and isinstance(count, int) and 0 <= index < count):
            raise ValueError(f"shard {batch.shard}")
    except ValueError as e:
        raise SystemExit(f"merge: {out}: batch.json is damaged ({e})")
    return Shard(out, batch, labs, _shard_students(out, batch), is_complete(out, batch))


def _shard_students(out, batch: BatchRecord) -> Dict[str, StudentRecord]:
    """The shard's students.json, each checked: one that does not parse
    stops the merge. A folder without one is a student not graded yet
    (the shard is then incomplete); one whose entry is no longer in the
    shard's submission list is left out, as the batch leaves it out."""
    listed = {nfc(i) for i in batch.ids}
    folder = os.path.join(out, STUDENTS)
    students = {}
    for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
        path = os.path.join(folder, name, "student.json")
        if not os.path.exists(path):
            continue
        try:
            rec = StudentRecord.from_json(read_json(path))
        except ValueError:
            rec = None
        if rec is None or rec.id != name:
            raise SystemExit(f"merge: {out}: {STUDENTS}/{name}/student.json is not that "
                             "student's record (damaged?)")
        if nfc(name) in listed:
            students[nfc(name)] = rec
    return students


def _one_list(shards: List[Shard]):
    """The shards are of one submission list, sharded one way."""
    return len({(s.batch.submissions, s.batch.shard[1]) for s in shards}) == 1


def coverage_problems(shards: List[Shard]):
    """Sentences saying why the shards are not one whole submission list,
    graded to the end; [] when they are."""
    if len({s.batch.submissions for s in shards}) > 1:
        return ["the outputs graded different submission folders (or the folder changed "
                "between shards)"]
    counts = sorted({s.batch.shard[1] for s in shards})
    if len(counts) > 1:
        return [f"the outputs were sharded differently ({counts})"]
    count = counts[0]
    problems = []
    absent = sorted(set(range(count)) - {s.batch.shard[0] for s in shards})
    if absent:
        problems.append(f"shard{'s' if len(absent) > 1 else ''} "
                        f"{', '.join(f'{i}/{count}' for i in absent)} of {count} missing")
    for s in shards:
        if not s.complete:
            problems.append(f"{s.name()} did not finish grading (no {COMPLETE}: still "
                            "running, killed, or graded with --only)")
    return problems


def join_students(shards: List[Shard], replace=()) -> Dict[str, StudentRecord]:
    """Every shard's students. A student in two outputs (a shard graded
    again into another folder) is an error, unless `replace` names the
    one output whose copy counts."""
    replace = {os.path.realpath(r) for r in replace}
    unknown = replace - {os.path.realpath(s.out) for s in shards}
    if unknown:
        raise SystemExit(f"merge: --replace {sorted(unknown)[0]} is not one of the outputs "
                         "merged")
    owner, twice = {}, []
    for shard in shards:
        for sid in shard.students:
            if sid not in owner:
                owner[sid] = shard
                continue
            wins = [s for s in (owner[sid], shard) if os.path.realpath(s.out) in replace]
            if len(wins) == 1:
                owner[sid] = wins[0]
            else:
                twice.append(f"{sid} in {owner[sid].out} and {shard.out}")
    if twice:
        raise SystemExit(f"merge: {len(twice)} students are in two outputs ("
                         f"{'; '.join(twice[:3])}{'; ...' if len(twice) > 3 else ''}); pass "
                         "--replace OUT naming the output whose copy counts")
    return {sid: shard.students[sid] for sid, shard in owner.items()}


def _not_merged(shards: List[Shard], students):
    """Rows for the listed students no output holds: their shard's grading
    did not finish, or their shard was not merged."""
    ids = [nfc(i) for i in shards[0].batch.ids]
    count = shards[0].batch.shard[1]
    running = {s.batch.shard[0] for s in shards if not s.complete}
    rows = {}
    for position, sid in enumerate(ids):  # batch.ids in order: shard I holds I, I+N, ...
        if sid not in students:
            state = "shard_incomplete" if position % count in running else "missing_shard"
            rows[sid] = StudentRecord(id=sid, state=state)
    return rows


def machine_problems(shards: List[Shard]):
    """Sentences saying why the shards were not graded alike: on more than
    one GPU model, or with more than one calibration, a ratio earns other
    points in each (section 3.7 of docs/design.md); [] when alike."""
    models, calibrations = set(), set()
    for shard in shards:
        for rec in shard.students.values():
            for lab in rec.labs.values():
                if lab.run is not None and lab.run.gpu:
                    models.add(lab.run.gpu)
                if lab.calibration and lab.calibration.get("state") not in (None, "not_needed"):
                    calibrations.add(lab.calibration.get("file") or lab.calibration["state"])
    problems = []
    if len(models) > 1:
        problems.append(f"the shards were graded on {len(models)} GPU models "
                        f"({', '.join(sorted(models))})")
    if len(calibrations) > 1:
        problems.append(f"the shards were graded with {len(calibrations)} calibrations "
                        f"({', '.join(sorted(calibrations))})")
    return problems


def merge(outs, dest, roster=None, accept_incomplete=False, replace=(), shards_expected=None,
          mixed_gpus=False):
    """Joins shard outputs: one gradebook, review list and summary. Refused:
    a student in two outputs unless `replace` names the one that counts;
    shards that are not the whole list graded to the end unless
    accept_incomplete (then the students not graded get a row saying so,
    never "not submitted"); a shard graded as one of another count than
    `shards_expected`; different GPU models or calibrations unless
    mixed_gpus."""
    shards = [read_shard(o) for o in outs]
    wrong = [s.name() for s in shards if shards_expected and s.batch.shard[1] != shards_expected]
    if wrong:
        raise SystemExit(f"merge: {', '.join(wrong)} graded as one of another number of shards "
                         f"than --shards {shards_expected}")
    unlike = machine_problems(shards)
    if unlike and not mixed_gpus:
        raise SystemExit(f"merge: {'; '.join(unlike)}; grade every shard alike, or pass "
                         "--mixed-gpus")
    if any(json.dumps(s.labs, sort_keys=True) != json.dumps(shards[0].labs, sort_keys=True)
           for s in shards):
        raise SystemExit("merge: the outputs were graded with different labs or points")
    problems = coverage_problems(shards)
    if problems and not accept_incomplete:
        raise SystemExit(f"merge: {'; '.join(problems)}; merge them all, or pass "
                         "--accept-incomplete")
    students = join_students(shards, replace)
    if _one_list(shards):  # else no list says who is missing
        students.update(_not_merged(shards, students))
    os.makedirs(dest, exist_ok=True)
    write_json_atomic(labs_info_path(dest), shards[0].labs)  # as the shards wrote it
    labs_info = [LabInfo.from_json(i) for i in shards[0].labs]
    students = write_class_outputs(dest, students, labs_info, roster)
    return students, labs_info
