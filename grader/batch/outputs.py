"""The class-level outputs, always regenerated from the per-student files
(OUT/<id>/student.json), never kept in memory between runs: that is what
makes a killed-and-resumed batch give exactly the gradebook of an
uninterrupted one, and what lets `merge` join the outputs of shards.

- gradebook.csv: a points-possible row, then one row per student;
- review.csv: the review flags of every student;
- summary.json: per lab, the class's scores and per test its pass rate."""
import csv
import io
import json
import os
import statistics

from .util import read_json, write_atomic, write_json_atomic


def fmt(x):
    x = round(float(x), 2)
    return str(int(x)) if x.is_integer() else "%.2f" % x


def load_students(outs):
    """Every student.json under the given OUT folders, by id (a later
    folder's copy of an id wins, so a regraded shard replaces an old one)."""
    students = {}
    for out in outs:
        for name in sorted(os.listdir(out)):
            rec = read_json(os.path.join(out, name, "student.json"))
            if rec and rec.get("id") == name:
                students[name] = rec
    return students


def read_roster(path):
    """Student ids from a CSV: the column named id (or student_id, sid),
    else the first column."""
    with open(path, newline="", encoding="utf-8-sig") as f:
        rows = list(csv.reader(f))
    if not rows:
        return []
    header = [h.strip().lower() for h in rows[0]]
    for key in ("id", "student_id", "sid", "student id"):
        if key in header:
            col = header.index(key)
            return [r[col].strip() for r in rows[1:] if len(r) > col and r[col].strip()]
    col = 0
    body = rows[1:] if not rows[0][0].strip().isalnum() or header[0] in ("name", "student") else rows
    return [r[col].strip() for r in body if r and r[col].strip()]


def status_text(rec, lab_names):
    if rec.get("state") == "error":
        return "error: " + rec.get("error", "could not be graded")
    if rec.get("state") == "not_submitted":
        return "not submitted"
    parts = []
    labs = rec.get("labs", {})
    missing = [n for n in lab_names if labs.get(n, {}).get("state") == "not_submitted"]
    if missing and len(missing) < len(lab_names):
        parts.append("not submitted: " + " ".join(missing))
    elif missing:
        parts.append("not submitted")
    failed = [n for n in lab_names if labs.get(n, {}).get("state") == "build_failed"]
    if failed:
        parts.append("did not build: " + " ".join(failed))
    broken = [n for n in lab_names if labs.get(n, {}).get("state") == "error"]
    if broken:
        parts.append("not graded: " + " ".join(broken))
    no_gpu = sum(labs.get(n, {}).get("no_gpu_points", 0) for n in lab_names)
    if no_gpu:
        parts.insert(0, "partial: no GPU (%d points not graded)" % no_gpu)
    if rec.get("not_on_roster"):
        parts.append("not on the roster")
    return "; ".join(parts) if parts else "ok"


def write_class_outputs(out, students, labs_info, roster=None):
    """labs_info: [{name, possible, bonus_possible}] in lab order."""
    lab_names = [l["name"] for l in labs_info]
    possible = sum(l["possible"] for l in labs_info)
    ids = sorted(students)
    if roster is not None:
        rostered = set(roster)
        for sid in roster:
            if sid not in students:
                students[sid] = {"id": sid, "state": "not_submitted", "labs": {}}
        for sid in ids:
            if sid not in rostered:
                students[sid] = dict(students[sid], not_on_roster=True)
        ids = sorted(students)

    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["id"] + lab_names + ["total", "percent", "bonus", "grading_status"])
    w.writerow(["points-possible"] + [l["possible"] for l in labs_info] + [possible, 100,
               sum(l["bonus_possible"] for l in labs_info), ""])
    for sid in ids:
        rec = students[sid]
        labs = rec.get("labs", {})
        scores = [labs.get(n, {}).get("score", 0) for n in lab_names]
        total = sum(scores)
        w.writerow([sid] + [fmt(s) for s in scores] +
                   [fmt(total), fmt(100.0 * total / possible if possible else 0),
                    fmt(sum(labs.get(n, {}).get("bonus", 0) for n in lab_names)),
                    status_text(rec, lab_names)])
    write_atomic(os.path.join(out, "gradebook.csv"), buf.getvalue())

    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["id", "lab_or_file", "line", "flag", "excerpt"])
    for sid in ids:
        for f in students[sid].get("review", []):
            w.writerow([sid, f["file"], f["line"], f["flag"], f["excerpt"]])
    write_atomic(os.path.join(out, "review.csv"), buf.getvalue())

    write_json_atomic(os.path.join(out, "summary.json"), summary(students, ids, labs_info))


def summary(students, ids, labs_info):
    labs = {}
    for info in labs_info:
        name = info["name"]
        recs = [students[s]["labs"][name] for s in ids if name in students[s].get("labs", {})]
        submitted = [r for r in recs if r.get("state") != "not_submitted"]
        scores = [r["score"] for r in submitted]
        tests = {}
        for r in submitted:
            for t in r.get("tests", []):
                e = tests.setdefault(t["name"], {"passed": 0, "failed": 0, "not_graded_no_gpu": 0,
                                                 "ratios": []})
                if t["no_gpu"]:
                    e["not_graded_no_gpu"] += 1
                elif t["status"] == "passed":
                    e["passed"] += 1
                else:
                    e["failed"] += 1
                if t.get("ratio") is not None:
                    e["ratios"].append(round(t["ratio"], 4))
        for e in tests.values():
            graded = e["passed"] + e["failed"]
            e["pass_rate"] = round(e["passed"] / graded, 4) if graded else None
            if not e["ratios"]:
                del e["ratios"]
        labs[name] = {
            "possible": info["possible"],
            "submitted": len(submitted),
            "built": sum(1 for r in submitted if r.get("state") == "graded"),
            "mean": round(statistics.mean(scores), 2) if scores else None,
            "median": round(statistics.median(scores), 2) if scores else None,
            "min": min(scores) if scores else None,
            "max": max(scores) if scores else None,
            "scores": scores,
            "tests": tests,
        }
    return {
        "students": len(ids),
        "graded": sum(1 for s in ids if students[s].get("state") == "graded"),
        "errors": sorted(s for s in ids if students[s].get("state") == "error"),
        "not_submitted": sorted(s for s in ids if students[s].get("state") == "not_submitted"),
        "no_gpu": any(students[s].get("labs", {}).get(l["name"], {}).get("no_gpu_points")
                      for s in ids for l in labs_info),
        "labs": labs,
    }


def labs_info_path(out):
    return os.path.join(out, "labs.json")


def merge(outs, dest, roster=None):
    """Joins shard outputs: one gradebook, review list and summary."""
    infos = [read_json(labs_info_path(o)) for o in outs]
    if any(i is None for i in infos):
        raise SystemExit("merge: %s has no labs.json (not a grade-submissions output)"
                         % outs[[i is None for i in infos].index(True)])
    if any(json.dumps(i, sort_keys=True) != json.dumps(infos[0], sort_keys=True) for i in infos):
        raise SystemExit("merge: the outputs were graded with different labs or points")
    os.makedirs(dest, exist_ok=True)
    students = load_students(outs)
    write_json_atomic(labs_info_path(dest), infos[0])
    write_class_outputs(dest, students, infos[0], roster)
    return students, infos[0]
