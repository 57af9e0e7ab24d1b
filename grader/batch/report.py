"""The class report: OUT/report.html, a static page (no script, nothing
loaded but the pictures beside it), and OUT/report/*.png.

The page holds what the instructor reads before publishing grades: each
lab's score distribution, each test's pass rate (of the runs that graded
it; "not graded" and "did not build" counted apart, never as failures),
the speed ratios against their thresholds, the review flags and the build
failures, each row linking to the student's page (feedback.html). Its
tables are drawn in HTML, so it is whole without matplotlib; the pictures
are extras, and where one is not drawn the page says why. Every string
that came from a submission (ids, flags, excerpts, compiler output) is
escaped.

matplotlib is imported here only, so the batch runs without it."""
import html
import os
import statistics
import sys
import time
import urllib.parse

from . import weights
from .records import StudentRecord
from .util import fmt, say, write_atomic

PICTURES = {
    "score_distribution.png": "score distribution per lab",
    "pass_rate_per_test.png": "pass rate per test",
    "speed_ratios.png": "speed ratios against their thresholds",
}
BUILD_LINES = 6       # of a build failure's compiler output on the page
EXCERPT_CHARS = 160


def _matplotlib():
    """pyplot, or (None, the line saying how to install it)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        return plt, None
    except ImportError:
        tools = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tools")
        sys.path.insert(0, tools)
        from need_matplotlib import not_installed  # the install command for this system
        return None, not_installed("report")


def draw(out, summary):
    """The pictures, from summary.json: {file name: None when drawn, else
    why not}."""
    plt, missing = _matplotlib()
    if plt is None:
        say(f"{missing}; the gradebook and report.html are complete, only the pictures are "
            "missing")
        return {name: f"not drawn: {missing}" for name in PICTURES}
    folder = os.path.join(out, "report")
    os.makedirs(folder, exist_ok=True)
    labs = summary["labs"]
    made = {}

    def save(fig, name):
        path = os.path.join(folder, name)
        tmp = path + ".tmp.png"
        fig.tight_layout()
        fig.savefig(tmp, dpi=100)
        plt.close(fig)
        os.replace(tmp, path)
        made[name] = None

    def not_made(name, why):
        made[name] = why
        try:
            os.unlink(os.path.join(folder, name))  # a picture of an earlier run would mislead
        except FileNotFoundError:
            pass

    if labs:
        fig, axes = plt.subplots(1, len(labs), figsize=(3 * len(labs), 3), squeeze=False)
        for ax, (name, lab) in zip(axes[0], labs.items()):
            ax.hist(lab["scores"] or [0], bins=10, range=(0, max(1, lab["possible"])),
                    color="#4477aa")
            ax.set_title(f"{name} (of {lab['possible']:g})")
            ax.set_xlabel("score")
        axes[0][0].set_ylabel("students")
        save(fig, "score_distribution.png")
    else:
        not_made("score_distribution.png", "no lab graded")

    rows = [(f"{name} {t}", e) for name, lab in labs.items() for t, e in lab["tests"].items()]
    if rows:
        fig, ax = plt.subplots(figsize=(8, max(2, 0.22 * len(rows))))
        names = [r[0] for r in rows][::-1]
        rates = [r[1]["pass_rate"] or 0 for r in rows][::-1]
        ax.barh(names, rates, color="#228833")
        for y, (_, e) in enumerate(rows[::-1]):
            if e["pass_rate"] is None:  # shown, never as a 0 % pass rate
                ax.text(0.01, y, "not graded in any run", va="center", fontsize=6,
                        color="#777777")
        ax.set_xlim(0, 1)
        ax.set_xlabel("pass rate (of the runs that graded the test)")
        ax.tick_params(axis="y", labelsize=6)
        save(fig, "pass_rate_per_test.png")
    else:
        not_made("pass_rate_per_test.png", "no test graded")

    ratios = [(f"{name} {t}", e) for name, lab in labs.items()
              for t, e in lab["tests"].items() if e.get("ratios")]
    if ratios:
        fig, ax = plt.subplots(figsize=(8, max(2, 0.4 * len(ratios))))
        ax.boxplot([e["ratios"] for _, e in ratios], vert=False)
        for y, (_, e) in enumerate(ratios, start=1):
            if e.get("threshold") is not None:
                ax.plot([e["threshold"]], [y], marker="|", markersize=16, color="#cc3311")
        # Set apart from boxplot(): its keyword for them changed name in
        # matplotlib 3.9 (labels -> tick_labels).
        ax.set_yticks(range(1, len(ratios) + 1), [r[0] for r in ratios])
        ax.set_xlabel("speed ratio (student vs baseline); red: the test's threshold")
        ax.tick_params(axis="y", labelsize=7)
        save(fig, "speed_ratios.png")
    else:
        not_made("speed_ratios.png", "no speed ratio was measured (speed tests run only on "
                                     "a GPU: graded with --no-gpu, or no lab built)")
    return made


# ------------------------------------------------------------------ page
def _e(x):
    return html.escape(str(x))


def _num(x):
    return "-" if x is None else fmt(x)


def _bar(fraction, text, colour="#4477aa"):
    """A bar drawn in HTML, `fraction` of the column's width."""
    width = max(0.0, min(1.0, fraction)) * 100
    return (f'<div class="bar"><span style="width:{width:.1f}%;background:{colour}"></span>'
            f"<em>{_e(text)}</em></div>")


def _link(sid, links):
    """The student's id, linked to their page where there is one."""
    href = links.get(sid)
    return f'<a href="{_e(href)}">{_e(sid)}</a>' if href else _e(sid)


def page_links(out, student_folders):
    """{id: the href of the student's page, relative to OUT} for each
    student folder holding a feedback.html."""
    links = {}
    for sid, folder in student_folders.items():
        page = os.path.join(folder, "feedback.html")
        if os.path.exists(page):
            rel = os.path.relpath(page, out).replace(os.sep, "/")
            links[sid] = urllib.parse.quote(rel, safe="/")
    return links


def html_page(summary, students, labs_info, links, pictures, when=None):
    """report.html's text. `students`: {id: StudentRecord} as the gradebook
    has them; `pictures`: draw()'s answer."""
    when = when or time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    labs = summary["labs"]
    ids = sorted(students)
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             "<title>CUDA Labs: class report</title>",
             "<style>body{font-family:sans-serif;max-width:72em;margin:auto;padding:0 1em}"
             "table{border-collapse:collapse;margin:.5em 0}td,th{padding:.15em .6em;"
             "text-align:left;vertical-align:top;border-bottom:1px solid #ddd}"
             ".bar{position:relative;width:14em;height:1.1em;background:#eee}"
             ".bar span{position:absolute;left:0;top:0;bottom:0}"
             ".bar em{position:relative;font-style:normal;font-size:.8em;padding-left:.3em}"
             ".low{color:#a00}pre{white-space:pre-wrap;margin:0;font-size:.85em}"
             "img{max-width:100%}</style></head><body>",
             "<h1>CUDA Labs: class report</h1>",
             f"<p>Written {_e(when)}. {summary['students']} students, {summary['graded']} "
             f"graded, {len(summary['not_submitted'])} not submitted, "
             f"{len(summary['errors'])} could not be graded.</p>",
             f"<p id=rule>Totals: {_e(weights.statement(labs_info))}.</p>"]
    if summary.get("no_gpu"):
        parts.append("<p class=low>Graded without a GPU: GPU tests are \"not graded\" and "
                     "their points are missing from the totals.</p>")
    parts += _totals(students, ids, labs_info, links)
    parts += _distributions(labs, pictures)
    parts += _pass_rates(labs, pictures)
    parts += _speed(labs, pictures)
    parts += _flags(students, ids, links)
    parts += _build_failures(students, ids, labs_info, links)
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _picture(name, pictures):
    why = pictures.get(name, "not drawn: the report's pictures were skipped (--no-report)")
    if why is None:
        return [f'<p><img src="report/{_e(name)}" alt="{_e(PICTURES[name])}"></p>']
    return [f'<p class=picture-missing>Picture {_e(name)} ({_e(PICTURES[name])}): '
            f"{_e(why)}.</p>"]


def _totals(students, ids, labs_info, links):
    possible = weights.totals(StudentRecord(id="", state="graded"), labs_info).possible
    rows = ["<h2 id=students>Students</h2>",
            f"<table><tr><th>id</th><th>total (of {_num(possible)})</th><th></th>"
            "<th>bonus</th><th>state</th></tr>"]
    for sid in ids:
        rec = students[sid]
        t = weights.totals(rec, labs_info)
        state = rec.state.replace("_", " ") + (" (not on the roster)" if rec.not_on_roster
                                               else "")
        rows.append(f"<tr><td>{_link(sid, links)}</td><td>{_num(t.total)}</td>"
                    f"<td>{_bar(t.total / possible if possible else 0, f'{_num(t.percent)}%')}"
                    f"</td><td>{_num(t.bonus)}</td><td>{_e(state)}</td></tr>")
    rows.append("</table>")
    return rows


def _distributions(labs, pictures):
    rows = ["<h2 id=scores>Score distribution per lab</h2>",
            "<table><tr><th>lab</th><th>points</th><th>submitted</th><th>built</th>"
            "<th>mean</th><th>median</th><th>min</th><th>max</th><th>students per tenth of "
            "the points</th></tr>"]
    for name, lab in labs.items():
        bins = [0] * 10
        for s in lab["scores"]:
            bins[min(9, int(10 * s / lab["possible"])) if lab["possible"] else 0] += 1
        hist = " ".join(str(b) for b in bins)
        rows.append(f"<tr><td>{_e(name)}</td><td>{_num(lab['possible'])}</td>"
                    f"<td>{lab['submitted']}</td><td>{lab['built']}</td>"
                    f"<td>{_num(lab['mean'])}</td><td>{_num(lab['median'])}</td>"
                    f"<td>{_num(lab['min'])}</td><td>{_num(lab['max'])}</td>"
                    f"<td><code>{_e(hist)}</code></td></tr>")
    rows.append("</table>")
    return rows + _picture("score_distribution.png", pictures)


def _pass_rates(labs, pictures):
    rows = ["<h2 id=tests>Pass rate per test</h2>",
            "<p>Of the runs that graded the test. A lab that did not build, and a test not "
            "graded (no GPU; a ratio this GPU cannot grade; a submission that could not be "
            "graded) are counted apart, never as failures.</p>",
            "<table><tr><th>lab</th><th>test</th><th>pass rate</th><th>passed</th>"
            "<th>failed</th><th>not graded (no GPU)</th><th>not graded</th>"
            "<th>did not build</th></tr>"]
    for name, lab in labs.items():
        for test, e in lab["tests"].items():
            rate = e["pass_rate"]
            shown = _bar(rate, f"{100 * rate:.0f}%", "#228833") if rate is not None else \
                "<em>not graded in any run</em>"
            rows.append(f"<tr><td>{_e(name)}</td><td>{_e(test)}</td><td>{shown}</td>"
                        f"<td>{e['passed']}</td><td>{e['failed']}</td>"
                        f"<td>{e['not_graded_no_gpu']}</td><td>{e['not_graded']}</td>"
                        f"<td>{e['did_not_build']}</td></tr>")
    rows.append("</table>")
    return rows + _picture("pass_rate_per_test.png", pictures)


def _speed(labs, pictures):
    rows = ["<h2 id=speed>Speed ratios against their thresholds</h2>"]
    found = [(name, test, e) for name, lab in labs.items() for test, e in lab["tests"].items()
             if e.get("ratios")]
    if not found:
        rows.append("<p>No speed ratio was measured (speed tests run only on a GPU).</p>")
    else:
        rows.append("<table><tr><th>lab</th><th>test</th><th>threshold</th><th>runs</th>"
                    "<th>below it</th><th>min</th><th>median</th><th>max</th></tr>")
        for name, test, e in found:
            r, th = e["ratios"], e.get("threshold")
            below = sum(1 for x in r if th is not None and x < th)
            rows.append(f"<tr><td>{_e(name)}</td><td>{_e(test)}</td><td>{_num(th)}</td>"
                        f"<td>{len(r)}</td><td{' class=low' if below else ''}>{below}</td>"
                        f"<td>{_num(min(r))}</td><td>{_num(statistics.median(r))}</td>"
                        f"<td>{_num(max(r))}</td></tr>")
        rows.append("</table>")
    return rows + _picture("speed_ratios.png", pictures)


def _flags(students, ids, links):
    rows = ["<h2 id=review>Review flags</h2>",
            "<p>Code to read before grades are published; no flag costs points "
            "(review.csv holds them all).</p>"]
    found = [(sid, f) for sid in ids for f in students[sid].review]
    if not found:
        return rows + ["<p>None.</p>"]
    rows.append("<table><tr><th>student</th><th>file or lab</th><th>line</th><th>flag</th>"
                "<th>excerpt</th></tr>")
    for sid, f in found:
        rows.append(f"<tr><td>{_link(sid, links)}</td><td>{_e(f.file)}</td><td>{f.line}</td>"
                    f"<td>{_e(f.flag)}</td><td><pre>{_e(f.excerpt[:EXCERPT_CHARS])}</pre></td>"
                    "</tr>")
    rows.append("</table>")
    return rows


def _build_failures(students, ids, labs_info, links):
    rows = ["<h2 id=builds>Build failures</h2>"]
    found = [(sid, info.name, students[sid].labs[info.name]) for sid in ids
             for info in labs_info if info.name in students[sid].labs and
             students[sid].labs[info.name].state == "build_failed"]
    if not found:
        return rows + ["<p>None.</p>"]
    rows.append("<table><tr><th>student</th><th>lab</th><th>the compiler said</th></tr>")
    for sid, name, lab in found:
        said = "\n".join((lab.build_errors or lab.reason or "").splitlines()[:BUILD_LINES])
        rows.append(f"<tr><td>{_link(sid, links)}</td><td>{_e(name)}</td>"
                    f"<td><pre>{_e(said)}</pre></td></tr>")
    rows.append("</table>")
    return rows


def write(out, summary, students, labs_info, student_folders, pictures=True, when=None):
    """OUT/report.html and, with `pictures`, OUT/report/*.png; returns the
    page's path. A plotting failure costs the pictures, never the page."""
    made = {}
    if pictures:
        try:
            made = draw(out, summary)
        except Exception as e:  # noqa: BLE001 - any matplotlib failure
            say(f"report pictures not drawn: {type(e).__name__}: {e}")
            made = {name: f"not drawn ({type(e).__name__}: {e})" for name in PICTURES}
    path = os.path.join(out, "report.html")
    write_atomic(path, html_page(summary, students, labs_info,
                                 page_links(out, student_folders), made, when))
    return path
