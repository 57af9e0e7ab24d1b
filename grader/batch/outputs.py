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

from .records import BatchRecord, LabInfo, StudentRecord
from .util import id_key, nfc, read_json, write_atomic, write_json_atomic


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


def fmt(x):
    x = round(float(x), 2)
    return str(int(x)) if x.is_integer() else f"{x:.2f}"


def load_students(outs) -> Dict[str, StudentRecord]:
    """Every student.json under the given OUT folders, by id (a later
    folder's copy of an id wins, so a regraded shard replaces an old one)."""
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


def _labs_with(rec: StudentRecord, lab_names, **want):
    """The labs of `lab_names` whose record has every field as in `want`."""
    return [n for n in lab_names if n in rec.labs and
            all(getattr(rec.labs[n], k) == v for k, v in want.items())]


def status_text(rec: StudentRecord, lab_names):
    if rec.state == "error":
        return "error: " + (rec.error if rec.error is not None else "could not be graded")
    if rec.state == "not_submitted":
        return "not submitted"
    if rec.state == "missing_shard":
        return "not graded: its shard's output was not merged"
    parts = []
    missing = _labs_with(rec, lab_names, state="not_submitted")
    if missing and len(missing) < len(lab_names):
        parts.append("not submitted: " + " ".join(missing))
    elif missing:
        parts.append("not submitted")
    too_large = _labs_with(rec, lab_names, state="too_large")
    if too_large:
        parts.append("too large: " + " ".join(too_large))
    failed = _labs_with(rec, lab_names, state="build_failed")
    if failed:
        parts.append("did not build: " + " ".join(failed))
    broken = _labs_with(rec, lab_names, state="error")
    if broken:
        parts.append("not graded: " + " ".join(broken))
    # A lab whose grader was stopped, or whose results could not be used,
    # scored what it scored for a reason the student must be told.
    for problem in ("time limit", "results unreadable", "no results"):
        hit = _labs_with(rec, lab_names, problem=problem)
        if hit:
            parts.append(f"{problem}: {' '.join(hit)}")
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
    possible = sum(l.possible for l in labs_info)
    if roster is not None:
        students = with_roster(students, roster)
    ids = sorted(students)

    rows = [["id"] + lab_names + ["total", "percent", "bonus", "grading_status",
                                  "id_percent_encoded"],
            ["points-possible"] + [l.possible for l in labs_info] +
            [possible, 100, sum(l.bonus_possible for l in labs_info), "", ""]]
    for sid in ids:
        rec = students[sid]
        scores = [rec.labs[n].score if n in rec.labs else 0 for n in lab_names]
        total = sum(scores)
        # Points the grading GPU could not grade are out of this student's total.
        own = possible - sum(rec.labs[n].not_gradable_points for n in lab_names if n in rec.labs)
        bonus = sum(rec.labs[n].bonus for n in lab_names if n in rec.labs)
        rows.append([sid] + [fmt(s) for s in scores] +
                    [fmt(total), fmt(100.0 * total / own if own > 0 else 0), fmt(bonus),
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
                                              "ratios": []})
                if t.no_gpu:
                    e["not_graded_no_gpu"] += 1
                elif t.status == "passed":
                    e["passed"] += 1
                else:
                    e["failed"] += 1
                if t.ratio is not None:
                    e["ratios"].append(round(t.ratio, 4))
        for e in tests.values():
            graded = e["passed"] + e["failed"]
            e["pass_rate"] = round(e["passed"] / graded, 4) if graded else None
            if not e["ratios"]:
                del e["ratios"]
        labs[name] = {
            "possible": info.possible,
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
    }


def labs_info_path(out):
    return os.path.join(out, "labs.json")


def shard_coverage(outs):
    """(missing ids, problem): which students of the graded submission list
    no given OUT holds, from each OUT's batch.json (its shard I/N and the
    list's hash); problem is a sentence when the OUTs do not belong to one
    list or a shard is missing, else None."""
    batches = [read_json(os.path.join(o, "batch.json")) for o in outs]
    if any(not isinstance(b, dict) for b in batches):
        bad = outs[[not isinstance(b, dict) for b in batches].index(True)]
        return [], f"{bad} has no batch.json (graded by an older grade-submissions?)"
    batches = [BatchRecord.from_json(b) for b in batches]
    lists = {b.submissions for b in batches}
    if len(lists) > 1:
        return [], "the outputs graded different submission folders (or the folder changed " \
                   "between shards)"
    counts = {b.shard[1] for b in batches}
    if len(counts) > 1:
        return [], f"the outputs were sharded differently ({sorted(counts)})"
    count = counts.pop()
    have = {b.shard[0] for b in batches}
    graded = set(load_students(outs))
    missing = sorted(set(batches[0].ids) - graded)
    absent = sorted(set(range(count)) - have)
    if absent:
        shards = ", ".join(f"{i}/{count}" for i in absent)
        return missing, (f"shard{'s' if len(absent) > 1 else ''} {shards} of {count} missing: "
                         f"{len(missing)} students not graded")
    return missing, None


def merge(outs, dest, roster=None, accept_incomplete=False):
    """Joins shard outputs: one gradebook, review list and summary. An
    incomplete set of shards is refused unless accept_incomplete: then the
    missing shards' students get a row that says so, never "not submitted"."""
    infos = [read_json(labs_info_path(o)) for o in outs]
    if any(i is None for i in infos):
        bad = outs[[i is None for i in infos].index(True)]
        raise SystemExit(f"merge: {bad} has no labs.json (not a grade-submissions output)")
    if any(json.dumps(i, sort_keys=True) != json.dumps(infos[0], sort_keys=True) for i in infos):
        raise SystemExit("merge: the outputs were graded with different labs or points")
    missing, problem = shard_coverage(outs)
    if problem and not accept_incomplete:
        raise SystemExit(f"merge: {problem}; merge them all, or pass --accept-incomplete")
    os.makedirs(dest, exist_ok=True)
    students = load_students(outs)
    for sid in missing:
        students[sid] = StudentRecord(id=sid, state="missing_shard")
    write_json_atomic(labs_info_path(dest), infos[0])  # as the shards wrote it
    labs_info = [LabInfo.from_json(i) for i in infos[0]]
    write_class_outputs(dest, students, labs_info, roster)
    return students, labs_info
