#!/usr/bin/env python3
"""Runs the fixture corpus through grade-submissions with real builds and
checks what came out (the ctest test batch.fixture_corpus, and the GPU
machine's run: --gpu):

1. every fixture's expectations (fixture.json "expect"), the files each
   student must have, no half-written file anywhere, and without a GPU no
   GPU test counted as passed or as a real 0 ("not graded: no GPU");
   nothing in OUT a link, and no process of a submission left behind;

"expect" may hold: error_contains, state, passes_all, fails, others_pass,
output_contains, flags, ignored_contains, run_log_max_bytes,
sandboxed_absent, status_contains (as before), and:
  id           the id the batch must give the entry (default: its name);
               for names that are no valid id: id_prefix, its start, and
               entry_shown, the name as student.json shows it
  results_replaced  the submission rewrites its own results: tests it
               dropped may be "not reported" rather than "no GPU"
  row          {column: cell} of the gradebook row, found the way an LMS
               import finds it (csv, then the id_percent_encoded column
               decoded); row_gpu / row_cpu: more cells for one kind of run
  secret_files files (e.g. /etc/gshadow) no line of which may appear in
               anything the batch wrote for this student
  needs_sandbox  true: what it checks holds only with bubblewrap; without
               it the fixture is reported "not checked here" (CI may lack
               the sandbox) and only its having a row is checked
2. kill + resume: a second batch on part of the corpus is SIGKILLed (its
   whole process group) once the first student is written, then run again;
   its gradebook must equal the uninterrupted run's rows.
3. two batches at once on one machine (CPU runs, with the uid pool): each
   grades the same part of the corpus, a fork flood among it, into its own
   OUT; neither gradebook may differ from the uninterrupted run's rows.

  check_corpus.py COURSE_ROOT WORK [--gpu] [--jobs N]"""
import argparse
import csv
import glob
import json
import os
import signal
import subprocess
import sys
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", ".."))
import make_corpus  # noqa: E402
from batch import sandbox as sandbox_mod  # noqa: E402
from batch.outputs import fmt  # noqa: E402

RESUME_SUBSET = ["correct", "skeleton", "compile_error", "host_crash", "tarball", "missing_lab"]
# Graded by two batches at once (part 3): honest students beside a fork flood.
TWINS_SUBSET = ["correct", "e_fork_flood", "skeleton", "tarball"]
failures = []


def fail(message):
    failures.append(message)
    print("FAIL: " + message)


def load(path):
    with open(path) as f:
        return json.load(f)


def unprotected_flags():
    """The flags that let the batch grade where this machine cannot give it
    its sandbox or its uid pool (CI may lack either): the batch refuses
    without them, and its rows then say how they were graded."""
    try:
        box = sandbox_mod.probe(True)
    except sandbox_mod.SandboxError as e:
        print("this machine has no sandbox (%s): grading with --no-sandbox" % e)
        return ["--no-sandbox", "--allow-root-graders"]
    try:
        sandbox_mod.check_pool_possible(box)
    except sandbox_mod.SandboxError as e:
        print("no uid pool here (%s): grading with --allow-root-graders" % e)
        return ["--allow-root-graders"]
    return []


def grade(args, subs, out, extra=(), **kw):
    cmd = [sys.executable, os.path.join(args.course, "grader", "grade-submissions"), subs,
           "-o", out, "--course-cache", os.path.join(args.work, "course"), "--jobs", str(args.jobs),
           "--test-timeout", str(args.test_timeout)] + ([] if args.gpu else ["--no-gpu"]) + \
        args.unprotected + list(extra)
    print("$ " + " ".join(cmd), flush=True)
    return subprocess.Popen(cmd, **kw)


def students_of(out):
    return os.path.join(out, "students")


def gradebook_by_id(out):
    """The gradebook as an LMS import reads it: csv rows keyed by the
    decoded id_percent_encoded column (the id cell itself may carry a
    spreadsheet's ' guard)."""
    with open(os.path.join(out, "gradebook.csv"), newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    return {urllib.parse.unquote(r["id_percent_encoded"]): r for r in rows
            if r["id"] != "points-possible"}


def student_id(name, spec, out):
    """The id the batch gave this fixture's entry, or None."""
    exp = spec["expect"]
    if "id_prefix" in exp:
        found = [d for d in os.listdir(students_of(out)) if d.startswith(exp["id_prefix"]) and
                 load(os.path.join(students_of(out), d, "student.json")).get("entry")
                 == exp["entry_shown"]]
        return found[0] if len(found) == 1 else None
    if "id" in exp:
        return exp["id"]
    return spec.get("entry", name)


def check_row(sid, spec, out, gpu):
    exp = spec["expect"]
    want = dict(exp.get("row", {}), **exp.get("row_gpu" if gpu else "row_cpu", {}))
    row = gradebook_by_id(out).get(sid)
    if row is None:
        fail("%s: no gradebook row found through id_percent_encoded" % sid)
        return
    for column, cell in want.items():
        if row.get(column) != str(cell):
            fail("%s: gradebook %s is %r, expected %r" % (sid, column, row.get(column), cell))


def check_secrets(sid, spec, out):
    written = ""
    for folder, dirs, files in os.walk(os.path.join(students_of(out), sid)):
        for f in files:
            with open(os.path.join(folder, f), errors="replace") as fh:
                written += fh.read()
    for secret in spec["expect"].get("secret_files", []):
        try:
            with open(secret) as f:
                lines = [l.strip() for l in f if len(l.strip()) > 8]
        except OSError:
            print("WARNING: %s: cannot read %s to check for it" % (sid, secret))
            continue
        if any(l in written for l in lines):
            fail("%s: a line of %s appears in what the batch wrote for it" % (sid, secret))


def check_saw_gpu(name, spec, out):
    """GPU mode: every lab a grader ran names, in its record and on its
    run log's first line, the worker's GPU, and no test of it went
    ungraded for want of a device (a worker whose CUDA cannot see its GPU
    must stop the batch, never grade "no GPU")."""
    sid = student_id(name, spec, out)
    rec = load(os.path.join(students_of(out), sid, "student.json")) if sid else {}
    for lab, data in rec.get("labs", {}).items():
        if data.get("run") is None:
            continue
        if not data["run"].get("gpu") or data.get("no_gpu_points"):
            fail("%s: %s ran without its worker's GPU: run %s, %s points not graded"
                 % (name, lab, data["run"], data.get("no_gpu_points")))
        with open(os.path.join(students_of(out), sid, lab, "run.log"), errors="replace") as f:
            first = f.readline()
        if not first.startswith("== graded on GPU ") or data["run"]["gpu"] not in first:
            fail("%s: %s's run log does not name its GPU: %r" % (name, lab, first[:120]))


def check_student(name, spec, out, gpu, sandboxed, lab_names):
    exp = spec["expect"]
    sid = student_id(name, spec, out)
    if sid is None or not os.path.isfile(os.path.join(students_of(out), sid, "student.json")):
        fail("%s: no student.json (id %r)" % (name, sid))
        return
    if exp.get("needs_sandbox") and not sandboxed:
        print("not checked here: %s (it needs the sandbox, which is off)" % name)
        return
    check_row(sid, spec, out, gpu)
    check_secrets(sid, spec, out)
    name = sid
    out = students_of(out)
    rec = load(os.path.join(out, name, "student.json"))
    if "error_contains" in exp:
        if rec["state"] != "error" or exp["error_contains"] not in rec.get("error", ""):
            fail("%s: expected an error with %r, got %s %r" % (name, exp["error_contains"],
                                                             rec["state"], rec.get("error")))
        return
    for f in ["results.json", "build.log", "student.json"]:
        if not os.path.isfile(os.path.join(out, name, f)):
            fail("%s: no %s" % (name, f))
    gs = load(os.path.join(out, name, "results.json"))
    for key in ("score", "execution_time", "output", "tests"):
        if key not in gs:
            fail("%s: results.json has no %s" % (name, key))
    for t in gs["tests"]:
        if t["status"] not in ("passed", "failed") or "visibility" not in t:
            fail("%s: results.json test %s is not in Gradescope's format" % (name, t["name"]))
    labs = rec["labs"]
    listed = spec.get("labs")
    for lab in lab_names:
        n = int(lab[3:])
        if listed not in (None, "all") and n not in listed and labs[lab]["state"] != "not_submitted":
            fail("%s: %s should be not_submitted, is %s" % (name, lab, labs[lab]["state"]))
        if labs[lab]["state"] == "not_submitted" and labs[lab]["score"] != 0:
            fail("%s: %s not submitted yet scored" % (name, lab))
        if labs[lab]["state"] != "not_submitted" and \
                not os.path.isfile(os.path.join(out, name, lab, "results.json")):
            fail("%s: no %s/results.json" % (name, lab))
        for t in labs[lab]["tests"]:
            if t["group"] == "gpu" and not gpu and labs[lab]["state"] == "graded" and \
                    exp.get("results_replaced") and t["status"] == "passed":
                fail("%s: %s %s passed without a GPU" % (name, lab, t["name"]))
            elif t["group"] == "gpu" and not gpu and labs[lab]["state"] == "graded" and \
                    not exp.get("results_replaced"):
                if t["status"] == "passed" or not t["no_gpu"] or t["output"] != "not graded: no GPU":
                    fail("%s: %s %s without a GPU is %s / %r" % (name, lab, t["name"], t["status"],
                                                                t["output"][:80]))
    for lab, state in exp.get("state", {}).items():
        if labs[lab]["state"] != state:
            fail("%s: %s state %s, expected %s" % (name, lab, labs[lab]["state"], state))
    passes = exp.get("passes_all", [])
    for lab in (lab_names if passes == "all" else passes):
        bad = [t["name"] for t in labs[lab]["tests"] if t["status"] != "passed" and not t["no_gpu"]]
        if bad:
            fail("%s: %s tests did not pass: %s" % (name, lab, bad))
    for lab, tests in exp.get("fails", {}).items():
        by = {t["name"]: t for t in labs[lab]["tests"]}
        for tn in tests:
            t = by[tn]
            if t["no_gpu"] and not gpu:
                continue
            if t["status"] != "failed" or t["score"] != 0:
                fail("%s: %s %s should fail with 0 points, is %s %s" % (name, lab, tn, t["status"],
                                                                        t["score"]))
        if lab in exp.get("others_pass", []):
            bad = [t["name"] for t in labs[lab]["tests"] if t["name"] not in tests
                   and t["status"] != "passed" and not t["no_gpu"]]
            if bad:
                fail("%s: %s other tests did not pass: %s" % (name, lab, bad))
    for lab, text in exp.get("output_contains", {}).items():
        lab_rs = load(os.path.join(out, name, lab, "results.json"))
        if text not in lab_rs["output"]:
            fail("%s: %s results.json output lacks %r" % (name, lab, text))
    flags = {f["flag"] for f in rec.get("review", [])}
    for flag in exp.get("flags", []):
        if flag not in flags:
            fail("%s: review flag %r missing (got %s)" % (name, flag, sorted(flags)))
    for text in exp.get("ignored_contains", []):
        if text not in rec.get("ignored", []):
            fail("%s: %s should be listed as ignored" % (name, text))
    for lab, limit in exp.get("run_log_max_bytes", {}).items():
        log = os.path.join(out, name, lab, "run.log")
        if not os.path.isfile(log):
            fail("%s: no %s run.log (the lab did not run)" % (name, lab))
            continue
        size = os.path.getsize(log)
        if size > limit:
            fail("%s: %s run.log is %d bytes, over %d (output cap)" % (name, lab, size, limit))
    for marker in exp.get("sandboxed_absent", []):
        logs = "".join(open(p, errors="replace").read() for p in glob.glob(os.path.join(out, name, "*", "run.log")))
        if marker in logs:
            if sandboxed:
                fail("%s: %s appears although the sandbox was on" % (name, marker))
            else:
                print("WARNING: %s: %s (no sandbox here: nothing stops it; "
                      "docs/instructors.md, threat model)" % (name, marker))
    if "status_contains" in exp:
        row = gradebook_by_id(os.path.dirname(out)).get(name, {})
        if exp["status_contains"] not in row.get("grading_status", ""):
            fail("%s: grading_status lacks %r: %s" % (name, exp["status_contains"], row))


def one_total_everywhere(out):
    """Each student's total is one number in every output: the gradebook,
    each export, summary.json, results.json and the student's page
    (batch/weights.py: bonus points in none of them)."""
    book = gradebook_by_id(out)
    summary = load(os.path.join(out, "summary.json"))
    exports = {}
    for to in ("csv", "canvas", "moodle"):
        dest = os.path.join(out, "..", "export-" + to + ".csv")
        subprocess.run([sys.executable, os.path.join(HERE, "..", "..", "grade-submissions"),
                        "export", out, "--to", to, "-o", dest], check=True,
                       stdout=subprocess.DEVNULL)
        with open(dest, newline="", encoding="utf-8") as f:
            exports[to] = list(csv.DictReader(f))
    labs = [k for k in book[next(iter(book))] if k.startswith("lab")]
    for sid, row in book.items():
        total = row["total"]
        if sid not in summary["totals"] or fmt(summary["totals"][sid]) != total:
            fail("%s: summary.json's total %s, the gradebook's %s" %
                 (sid, summary["totals"].get(sid), total))
        folder = os.path.join(students_of(out), sid)
        if not os.path.isdir(folder):
            continue  # a roster row: nothing graded, no page
        results = load(os.path.join(folder, "results.json"))
        if fmt(results["score"]) != total:
            fail("%s: results.json's score %s, the gradebook's total %s" %
                 (sid, results["score"], total))
        with open(os.path.join(folder, "feedback.txt"), encoding="utf-8") as f:
            page = f.read()
        if "Total: %s of " % total not in page:
            fail("%s: feedback.txt does not say the total %s" % (sid, total))
    cells = exports["csv"]
    total_col = next(k for k in cells[0] if k.startswith("total ("))
    for r in cells:
        sid = next((i for i, b in book.items() if b["id"] == r["id"]), None)
        if sid is not None and r[total_col] != book[sid]["total"]:
            fail("%s: export --to csv total %s, the gradebook's %s" %
                 (sid, r[total_col], book[sid]["total"]))
    for to in ("canvas", "moodle"):
        for r in exports[to]:
            values = [r.get(lab) for lab in labs]
            sid = r.get("SIS User ID") or r.get("ID number")
            if r.get("Student") == "Points Possible" or sid is None:
                continue
            match = next((b for b in book.values() if b["id"] == sid), None)
            if match is not None and values != [match[lab] for lab in labs]:
                fail("%s: export --to %s lab scores %s, the gradebook's %s" %
                     (sid, to, values, [match[lab] for lab in labs]))


def no_links(out):
    """Nothing the batch wrote for students is a link (a student's code
    once had the batch copy a root-only file in through a symlink)."""
    for folder, dirs, files in os.walk(students_of(out)):
        for n in dirs + files:
            if os.path.islink(os.path.join(folder, n)):
                fail("a link in the outputs: %s" % os.path.join(folder, n))


def no_formula_cells(out):
    """No cell of the class's CSV files starts a spreadsheet formula."""
    for name in ("gradebook.csv", "review.csv"):
        with open(os.path.join(out, name), newline="", encoding="utf-8") as f:
            for row in csv.reader(f):
                bad = [c for c in row if c.startswith(("=", "+", "-", "@", "\t", "\r"))]
                if bad:
                    fail("%s: a cell starts a formula: %r" % (name, bad[0][:60]))


def no_orphans():
    """No process a submission started outlives the batch (fixtures name
    theirs labs_orphan)."""
    left = []
    for pid in os.listdir("/proc"):
        try:
            with open("/proc/%s/comm" % pid) as f:
                if f.read().strip() == "labs_orphan":
                    left.append(int(pid))
        except (OSError, ValueError):
            continue
    if left:
        fail("processes of a submission outlived the batch: %s" % left)
        for pid in left:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass


def no_half_files(out):
    left = [p for p in glob.glob(os.path.join(out, "**", "*.tmp"), recursive=True)
            if "/.course/" not in p and "/.work/" not in p]
    if left:
        fail("half-written files left: %s" % left[:5])


def two_batches_at_once(args, subs, out, specs):
    """Part 3. On a GPU the two batches' measurements would disturb each
    other's speed scores, and without the pool nothing keeps them apart:
    both cases are said, not checked."""
    if args.gpu or args.unprotected:
        print("not checked here: two batches at once (%s)"
              % ("a GPU run" if args.gpu else "no uid pool"))
        return
    ids = [i for i in TWINS_SUBSET if i in specs]
    twins = [os.path.join(args.work, "out_twin%d" % k) for k in (0, 1)]
    for twin in twins:
        subprocess.run(["rm", "-rf", twin])
    procs = [grade(args, subs, twin, ["--only"] + ids) for twin in twins]
    if any(p.wait() != 0 for p in procs):
        fail("a batch of two at once failed")
        return
    alone = gradebook_rows(os.path.join(out, "gradebook.csv"), set(ids))
    for twin in twins:
        if gradebook_rows(os.path.join(twin, "gradebook.csv")) != alone:
            fail("two batches at once: %s differs from the batch graded alone" % twin)
    print("two batches at once: both gradebooks equal the one graded alone (%s)" % " ".join(ids))


def gradebook_rows(path, ids=None):
    with open(path) as f:
        rows = list(csv.reader(f))
    return [r for r in rows if ids is None or r[0] in ("id", "points-possible") or r[0] in ids]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("course")
    p.add_argument("work")
    p.add_argument("--gpu", action="store_true")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--test-timeout", type=int, default=20)
    args = p.parse_args()
    args.unprotected = unprotected_flags()
    os.makedirs(args.work, exist_ok=True)
    subs = os.path.join(args.work, "submissions")
    subprocess.run([sys.executable, os.path.join(HERE, "make_corpus.py"), args.course, subs]
                   + (["--gpu"] if args.gpu else []), check=True)
    specs = dict(make_corpus.fixtures(args.gpu))

    # 1. the whole corpus, uninterrupted
    out = os.path.join(args.work, "out")
    subprocess.run(["rm", "-rf", out])
    start = time.monotonic()
    if grade(args, subs, out).wait() != 0:
        fail("grade-submissions failed")
        return 1
    print("graded the corpus in %.1f s" % (time.monotonic() - start))
    lab_names = [l["name"] for l in load(os.path.join(out, "labs.json"))]
    any_rec = load(os.path.join(students_of(out), "correct", "student.json"))
    sandboxed = any_rec.get("sandbox", False)
    device = any_rec["labs"][lab_names[0]].get("device") or ""
    gpu = bool(device) and not device.startswith("no CUDA device")
    print("device: %s; sandbox: %s" % (device, "bubblewrap" if sandboxed else "none"))
    if args.gpu != gpu:
        fail("asked for a %s run, graded on device %r" % ("GPU" if args.gpu else "CPU", device))
    for name, spec in specs.items():
        check_student(name, spec, out, gpu, sandboxed, lab_names)
        if args.gpu:
            check_saw_gpu(name, spec, out)
    rows = gradebook_rows(os.path.join(out, "gradebook.csv"))
    if rows[1][0] != "points-possible" or len(rows) - 2 != len(specs):
        fail("gradebook rows: %d for %d fixtures: %s" % (len(rows) - 2, len(specs),
                                                         [r[0] for r in rows]))
    no_links(out)
    no_orphans()
    no_formula_cells(out)
    one_total_everywhere(out)
    for f in ["summary.json", "review.csv", "labs.json", "report.html"]:
        if not os.path.isfile(os.path.join(out, f)):
            fail("no %s" % f)
    no_half_files(out)
    escaped = glob.glob(os.path.join(args.work, "**", "ESCAPED_*"), recursive=True)
    if escaped:
        (fail if sandboxed else lambda m: print("WARNING: " + m))(
            "the hostile fixture wrote %s" % escaped)
        for e in escaped:
            os.unlink(e)

    # 2. kill + resume on a part of the corpus
    out2 = os.path.join(args.work, "out_resumed")
    subprocess.run(["rm", "-rf", out2])
    ids = [i for i in RESUME_SUBSET if i in specs]
    proc = grade(args, subs, out2, ["--only"] + ids, start_new_session=True)
    deadline = time.monotonic() + 900
    while proc.poll() is None and time.monotonic() < deadline:
        if glob.glob(os.path.join(students_of(out2), "*", "student.json")):
            break
        time.sleep(0.2)
    killed = proc.poll() is None
    if killed:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    print("killed the batch mid-run: %s (students written: %d)"
          % (killed, len(glob.glob(os.path.join(students_of(out2), "*", "student.json")))))
    if grade(args, subs, out2, ["--only"] + ids).wait() != 0:
        fail("the resumed batch failed")
    no_half_files(out2)
    if gradebook_rows(os.path.join(out2, "gradebook.csv")) != \
            gradebook_rows(os.path.join(out, "gradebook.csv"), set(ids)):
        fail("the gradebook after kill + resume differs from the uninterrupted one")

    two_batches_at_once(args, subs, out, specs)

    print("\n".join(",".join(r) for r in rows))
    if failures:
        print("%d FAILURES" % len(failures))
        return 1
    print("PASS: the fixture corpus grades as expected (%s)" % ("GPU" if args.gpu else "no GPU"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
