"""What a student reads: one page per student, OUT/students/<id>/feedback.html
and its plain-text twin feedback.txt, written with student.json.

For each lab: its score, and each test's verdict, points and message (the
message names the TODO and the handout section); the hash of the files it
graded and the course that graded them; the GPU and calibration. Every
string that came from a grader run (messages, outputs) is the student's
code's to shape, so the HTML escapes all of it: the page runs no script
and loads nothing."""
import html
import time

from . import weights as weights_mod
from .records import LabInfo, StudentRecord

MESSAGE_CHARS = 1200   # of a test's message on the page (results.json keeps it whole)


def _verdict(test):
    if test.no_gpu:
        return "not graded (no GPU)"
    if test.not_gradable:
        return "not graded on this GPU"
    return test.status + (" (partial credit)" if test.partial else "")


def _points(x):
    return f"{x:g}"


def _heading(lab, name, info=None):
    """"Lab 1: 55 of 105 (+3 bonus)" of a lab record, and what it counts in
    the total where the lab is weighted ("counts 5.24 of 10")."""
    bonus = f" (+{_points(lab.bonus)} bonus)" if lab.bonus_possible else ""
    counted = ""
    if info is not None and info.weight is not None:
        f = weights_mod.factor(info)
        counted = f", counts {_points(round(lab.score * f, 2))} of {_points(info.weight)}"
    return f"{lab.title or name}: {_points(lab.score)} of {_points(lab.possible)}{bonus}{counted}"


def _total_line(rec, labs_info):
    """The student's total, as the gradebook has it (weights.py)."""
    t = weights_mod.totals(rec, labs_info)
    return (f"Total: {_points(t.total)} of {_points(t.possible)} points "
            f"({_points(round(t.percent, 2))}%); bonus {_points(t.bonus)} "
            f"({weights_mod.statement(labs_info)})")


def _infos(rec, lab_order, labs_info):
    """labs_info, or (a page written on its own) each lab of the record
    counting its own points."""
    if labs_info is not None:
        return labs_info
    return [LabInfo(n, rec.labs[n].title, rec.labs[n].possible, rec.labs[n].bonus_possible)
            for n in lab_order if n in rec.labs]


def _lab_facts(lab, date=None, earlier=()):
    """Lines about how a lab was graded (its files, the course, the GPU,
    the date), and its earlier gradings (labN/history: when, and the
    start of the hash of the files then graded)."""
    facts = [f"state: {lab.state}" + (f" ({lab.reason})" if lab.reason else "")]
    if date:
        facts.append(f"graded: {date}")
    if lab.files_hash:
        facts.append(f"files graded: sha256 {lab.files_hash}")
    if lab.course:
        facts.append(f"course: {lab.course}")
    if lab.run is not None and lab.run.gpu:
        facts.append(f"GPU: {lab.run.gpu}")
    if lab.calibration and lab.calibration.get("state") not in (None, "not_needed"):
        facts.append("calibration: " + (lab.calibration.get("file") or lab.calibration["state"]))
    if earlier:
        facts.append(f"graded before ({lab.lab}/history/, kept for disputes): " +
                     ", ".join(earlier))
    return facts


def text(rec: StudentRecord, lab_order, labs_info=None, when=None, dates=None, history=None):
    """The plain-text page."""
    when = when or time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    infos = _infos(rec, lab_order, labs_info)
    by_name, dates = {i.name: i for i in infos}, dates or {}
    lines = [f"CUDA Labs: results of {rec.id}, written {when}", _total_line(rec, infos), ""]
    if rec.state == "error":
        lines.append(f"Not graded: {rec.error}")
    for name in lab_order:
        lab = rec.labs.get(name)
        if lab is None:
            continue
        lines.append("== " + _heading(lab, name, by_name.get(name)))
        lines += ["   " + fact for fact in _lab_facts(lab, dates.get(name),
                                                      (history or {}).get(name, ()))]
        for t in lab.tests:
            lines.append(f"   {_verdict(t):<20} {_points(t.score):>5} / {_points(t.max_score):<5} "
                         f"{t.name}{' (bonus)' if t.bonus else ''}")
            if t.status != "passed" and t.output:
                lines += ["        " + l for l in t.output[:MESSAGE_CHARS].splitlines()]
        lines.append("")
    return "\n".join(lines) + "\n"


def page(rec: StudentRecord, lab_order, labs_info=None, when=None, dates=None, history=None):
    """The HTML page: every string escaped, no script, nothing loaded."""
    when = when or time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    infos = _infos(rec, lab_order, labs_info)
    by_name, dates = {i.name: i for i in infos}, dates or {}
    e = html.escape
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             f"<title>CUDA Labs: {e(rec.id)}</title>",
             "<style>body{font-family:sans-serif;max-width:60em;margin:auto}"
             "td,th{padding:.2em .6em;text-align:left;vertical-align:top}"
             ".passed{color:#060}.failed{color:#a00}pre{white-space:pre-wrap;margin:0}</style>",
             "</head><body>", f"<h1>Results of {e(rec.id)}</h1>", f"<p>Written {e(when)}.</p>",
             f'<p id="total"><b>{e(_total_line(rec, infos))}</b></p>']
    if rec.state == "error":
        parts.append(f"<p class=failed>Not graded: {e(rec.error or '')}</p>")
    for name in lab_order:
        lab = rec.labs.get(name)
        if lab is None:
            continue
        parts += [f'<h2 id="{e(name)}">{e(_heading(lab, name, by_name.get(name)))}</h2>',
                  "<ul>" + "".join(f"<li>{e(f)}</li>" for f in _lab_facts(
                      lab, dates.get(name), (history or {}).get(name, ()))) + "</ul>",
                  "<table><tr><th>test</th><th>verdict</th><th>points</th><th>message</th></tr>"]
        for t in lab.tests:
            message = t.output[:MESSAGE_CHARS] if t.status != "passed" else ""
            parts.append(f'<tr><td>{e(t.name)}{" (bonus)" if t.bonus else ""}</td>'
                         f'<td class="{e(t.status)}">{e(_verdict(t))}</td>'
                         f"<td>{_points(t.score)} / {_points(t.max_score)}</td>"
                         f"<td><pre>{e(message)}</pre></td></tr>")
        parts.append("</table>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"
