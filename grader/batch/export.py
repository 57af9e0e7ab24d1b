"""grade-submissions export: the gradebook in the form an LMS imports.

Read from OUT/gradebook.csv, the batch's own table, so that every output
carries the same numbers. One convention for bonus points everywhere: a
lab's score and the total never include them; they are extra credit,
exported as a column of their own worth 0 points possible.

  canvas  Canvas's gradebook import (Canvas Instructor Guide, "How do I
          import grades in the Gradebook?"): a header row naming Student,
          ID, SIS User ID, SIS Login ID and Section, then one column per
          assignment; a second row whose Student cell is "Points Possible"
          gives each assignment's points. Students are matched by one of
          the three id columns: the course's ids go in the one --id-field
          names (default SIS User ID), the others stay empty. A column whose
          name matches no assignment creates one.
  moodle  Moodle's "Import grades from CSV" (Moodle docs, "Grade import"):
          a header row, one row per student; at import the instructor maps
          the identifier column to a user field (ID number by default here)
          and each grade column to a grade item, whose maximum is set in
          Moodle, so no points row is written.
  csv     one row per student with the points possible in the header
          ("lab1 (105)"), for anything else.

  grade-submissions export OUT --to canvas|moodle|csv [-o FILE] [--prefix TEXT]"""
import csv
import io
import os
import urllib.parse

from .outputs import csv_cell
from .util import write_atomic

FORMATS = ("canvas", "moodle", "csv")
CANVAS_ID_FIELDS = ("SIS User ID", "SIS Login ID", "ID")
POINTS_ROW = "Points Possible"


class ExportError(Exception):
    """The OUT folder holds no gradebook this can read."""


def read_gradebook(out):
    """(lab names, {column: points possible}, [row dicts]) of OUT's
    gradebook, each row's id decoded from id_percent_encoded."""
    path = os.path.join(out, "gradebook.csv")
    try:
        with open(path, newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        raise ExportError(f"no gradebook in {out} ({e.strerror}): grade or merge first")
    if not rows or rows[0].get("id") != "points-possible":
        raise ExportError(f"{path} has no points-possible row: not a grade-submissions gradebook")
    header = list(rows[0])
    labs = header[1:header.index("total")]
    possible = {k: v for k, v in rows[0].items() if k in labs + ["total", "bonus"]}
    students = []
    for row in rows[1:]:
        # An id that a spreadsheet would run as a formula keeps the
        # gradebook's guard (outputs.csv_cell): no LMS holds such an id.
        row = dict(row, id=csv_cell(urllib.parse.unquote(row["id_percent_encoded"])))
        students.append(row)
    return labs, possible, students


def _table(rows):
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\r\n").writerows(rows)
    return buf.getvalue()


def canvas(labs, possible, students, prefix, id_field="SIS User ID"):
    names = [f"{prefix}{lab}" for lab in labs] + [f"{prefix}bonus"]
    rows = [["Student", "ID", "SIS User ID", "SIS Login ID", "Section"] + names,
            [POINTS_ROW, "", "", "", ""] + [possible[lab] for lab in labs] + ["0"]]
    for s in students:
        ids = {field: (s["id"] if field == id_field else "") for field in CANVAS_ID_FIELDS}
        rows.append(["", ids["ID"], ids["SIS User ID"], ids["SIS Login ID"], ""] +
                    [s[lab] for lab in labs] + [s["bonus"]])
    return _table(rows)


def moodle(labs, possible, students, prefix, id_field="ID number"):
    rows = [[id_field] + [f"{prefix}{lab}" for lab in labs] + [f"{prefix}bonus"]]
    rows += [[s["id"]] + [s[lab] for lab in labs] + [s["bonus"]] for s in students]
    return _table(rows)


def plain(labs, possible, students, prefix, id_field="id"):
    rows = [[id_field] + [f"{prefix}{lab} ({possible[lab]})" for lab in labs] +
            [f"total ({possible['total']})", "bonus", "grading_status"]]
    rows += [[s["id"]] + [s[lab] for lab in labs] + [s["total"], s["bonus"],
                                                       s["grading_status"]] for s in students]
    return _table(rows)


WRITERS = {"canvas": canvas, "moodle": moodle, "csv": plain}
ID_FIELDS = {"canvas": "SIS User ID", "moodle": "ID number", "csv": "id"}


def export(out, to, dest=None, prefix="", id_field=None):
    """Writes OUT's gradebook as `to` into `dest` (default
    OUT/export-<to>.csv), the ids in `id_field` (default: the format's own);
    returns the path."""
    labs, possible, students = read_gradebook(out)
    id_field = id_field or ID_FIELDS[to]
    if to == "canvas" and id_field not in CANVAS_ID_FIELDS:
        raise ExportError(f"--id-field for canvas is one of {', '.join(CANVAS_ID_FIELDS)}")
    dest = dest or os.path.join(out, f"export-{to}.csv")
    write_atomic(dest, WRITERS[to](labs, possible, students, prefix, id_field))
    return dest
