"""Command line of grader/grade-submissions (docs/instructors.md:
"Grading a class")."""
import argparse
import os
import sys

from . import batch, export, outputs, report, uids
from .util import read_json


def _shard(text):
    try:
        i, n = (int(x) for x in text.split("/"))
    except ValueError:
        raise argparse.ArgumentTypeError("--shard wants I/N, e.g. 0/4")
    if n < 1 or not 0 <= i < n:
        raise argparse.ArgumentTypeError("--shard I/N needs 0 <= I < N")
    return i, n


def _tests_at_once(text):
    try:
        n = int(text)
    except ValueError:
        n = 0
    if not 1 <= n <= 8:  # HARNESS_MAX_JOBS in grader/harness/runner/harness_internal.h
        raise argparse.ArgumentTypeError("--tests-at-once wants a number from 1 to 8")
    return n


def _labs(text):
    return [int(x) for x in text.replace(",", " ").split()]


def grade_parser():
    p = argparse.ArgumentParser(
        prog="grade-submissions",
        description="Grade a folder of submissions (one folder, .zip or .tar.gz per student id) "
                    "with every lab's grader. Also: grade-submissions merge OUT... -o DEST, and "
                    "grade-submissions export OUT --to canvas|moodle|csv.")
    p.add_argument("submissions", help="folder with one entry per student, named by id")
    p.add_argument("-o", "--out", required=True, help="output folder (resumable)")
    p.add_argument("--roster", help="CSV of student ids, with a header row: a row for each, "
                                    "submitted or not")
    p.add_argument("--roster-column", default="id", metavar="NAME",
                   help="the roster's column of ids (default id; any case)")
    p.add_argument("--id-pattern", metavar="REGEX",
                   help="take each entry's id out of its name, as an LMS's download names "
                        "it: canvas, canvas-user-id, moodle, moodle-participant "
                        "(batch/submissions.py, ID_PATTERNS), or a regex whose group (?P<id>...) "
                        "is the id; an entry it does not match keeps its own name")
    p.add_argument("--weights", metavar="FILE",
                   help="course file giving each lab's points in the total, "
                        "{\"weights\": {\"lab1\": 10, ...}} (batch/weights.py; default: the "
                        "course's grader/course.json where it exists, else each lab counts its "
                        "own points)")
    p.add_argument("--force", action="store_true", help="regrade what is already graded")
    p.add_argument("--only", nargs="+", metavar="ID", help="grade only these ids")
    p.add_argument("--shard", type=_shard, help="I/N: grade submissions I, I+N, ... (0-based)")
    p.add_argument("--jobs", type=int, default=0, help="parallel builds (default: CPU cores)")
    p.add_argument("--labs", type=_labs, help="only these lab numbers, e.g. '1 4'")
    p.add_argument("--course", help="the course to grade against (default: this repository; "
                                    "a student copy also works)")
    p.add_argument("--course-cache", help="folder for the prepared course and its shared build "
                                          "(default OUT/.course; batches on one machine may share "
                                          "it: a lock beside it keeps them apart)")
    p.add_argument("--cuda-arch", help="compute capability to build for, e.g. 90 "
                                       "(default: the first GPU's, or 80 without one)")
    p.add_argument("--no-sandbox", action="store_true", help="do not use bubblewrap")
    p.add_argument("--allow-root-graders", action="store_true",
                   help="grade even where the graders' uid pool cannot be used (not root, no "
                        "setpriv): every grader then runs as the batch's own user, root if it "
                        "is; grading_status says so")
    p.add_argument("--uid-base", type=int, default=uids.DEFAULT_BASE,
                   help="first uid of the graders' pool: two per lab per --jobs slot, plus one "
                        f"(default {uids.DEFAULT_BASE}; no process or file may use them)")
    p.add_argument("--no-gpu", action="store_true",
                   help="grade without a GPU, whatever this machine has: GPU tests score 0, "
                        "\"not graded: no GPU\" (without it, the batch refuses to grade where "
                        "it finds no GPU)")
    p.add_argument("--labs-in-turn", action="store_true",
                   help="run a student's lab graders one after another, each with the GPU "
                        "alone (default: together, sharing the GPU, every measurement alone)")
    p.add_argument("--tests-at-once", type=_tests_at_once, default=3, metavar="N",
                   help="tests each grader runs side by side, on average, while a student's "
                        "graders share the GPU (the harness's --jobs, 1-8; default 3): the "
                        "labs with more work get more of the total (slots.py)")
    p.add_argument("--lab-timeout", type=int, default=900,
                   help="seconds for one lab's whole grader run (default 900)")
    p.add_argument("--test-timeout", type=int, default=0,
                   help="one time limit for every test (the grader's --timeout; default: the "
                        "harness's per-test limits)")
    p.add_argument("--output-cap", type=int, default=1 << 20,
                   help="bytes of a grader's output kept in run.log (default 1 MiB)")
    p.add_argument("--mem-limit-gb", type=float, default=32,
                   help="memory of one lab's grader in GiB: of each process (RLIMIT_DATA) "
                        "and of all its processes together (default 32; 0: none)")
    p.add_argument("--max-processes", type=int, default=1024,
                   help="processes and threads a lab's runner, and its test programs, may "
                        "each start (RLIMIT_NPROC of the lab's own uid; default 1024; 0: none)")
    p.add_argument("--no-report", action="store_true", help="skip the report's pictures (report.html is written all "
                                                   "the same)")
    return p


def merge_parser():
    p = argparse.ArgumentParser(prog="grade-submissions merge",
                                description="Join shard outputs into one gradebook.")
    p.add_argument("outs", nargs="+", help="the shards' output folders")
    p.add_argument("-o", "--out", required=True, help="folder for the merged class outputs")
    p.add_argument("--roster", help="CSV of student ids, with a header row")
    p.add_argument("--roster-column", default="id", metavar="NAME",
                   help="the roster's column of ids (default id; any case)")
    p.add_argument("--accept-incomplete", action="store_true",
                   help="merge even when a shard is missing or did not finish grading (its "
                        "students not graded: \"not graded\")")
    p.add_argument("--replace", action="append", default=[], metavar="OUT",
                   help="of a student in two outputs, the copy of OUT counts (a shard graded "
                        "again into another folder); may be given more than once")
    p.add_argument("--shards", type=int, metavar="N",
                   help="the number of shards the class was split into: every output must be "
                        "one of N")
    p.add_argument("--mixed-gpus", action="store_true",
                   help="merge shards graded on different GPU models or calibrations")
    p.add_argument("--no-report", action="store_true")
    return p


def export_parser():
    p = argparse.ArgumentParser(prog="grade-submissions export",
                                description="The gradebook of OUT in the form an LMS imports "
                                            "(grader/batch/export.py says which).")
    p.add_argument("out", help="a grade-submissions output (or merge) folder")
    p.add_argument("--to", required=True, choices=export.FORMATS)
    p.add_argument("-o", "--output", help="file to write (default OUT/export-<format>.csv)")
    p.add_argument("--prefix", default="", help="text before each lab's column name, e.g. "
                                                "'CUDA ' (a Canvas assignment of that name is "
                                                "created at import when none exists)")
    p.add_argument("--id-field", help="canvas: the column the ids go in (SIS User ID, the "
                                      "default; SIS Login ID; ID); moodle: the identifier "
                                      "column's name (default ID number)")
    return p


def merge_roster(args):
    """merge's roster (outputs.read_roster), or None without --roster."""
    if not args.roster:
        return None
    try:
        return outputs.read_roster(args.roster, args.roster_column)
    except outputs.RosterError as e:
        raise SystemExit(f"merge: {e}")


def folders_overlap(submissions, out):
    """Why OUT and SUBMISSIONS may not be used together, or None. An OUT
    inside the submissions would be graded as a student on the next run,
    and submissions inside OUT would be in the batch's own namespace.
    Compared as real paths: a link or a ".." is no way around it."""
    subs, out = os.path.realpath(submissions), os.path.realpath(out)
    if out == subs:
        return f"the output folder {out} is the submissions folder"
    if os.path.commonpath([subs, out]) == subs:
        return (f"the output folder {out} is inside the submissions folder {subs} (it would "
                "be graded as a student's entry)")
    if os.path.commonpath([subs, out]) == out:
        return f"the submissions folder {subs} is inside the output folder {out}"
    return None


def main(argv):
    if argv and argv[0] == "export":
        args = export_parser().parse_args(argv[1:])
        try:
            path = export.export(os.path.abspath(args.out), args.to, args.output, args.prefix,
                                 args.id_field)
        except export.ExportError as e:
            print(f"grade-submissions export: {e}", file=sys.stderr)
            return 2
        print(f"wrote {path}")
        return 0
    if argv and argv[0] == "merge":
        args = merge_parser().parse_args(argv[1:])
        roster = merge_roster(args)
        outs = [os.path.abspath(o) for o in args.outs]
        students, labs_info = outputs.merge(outs, os.path.abspath(args.out), roster,
                                            args.accept_incomplete, args.replace, args.shards,
                                            args.mixed_gpus)
        # The students' pages stay in their shards' folders: the report
        # links there (the copy --replace names wins, as in the gradebook).
        folders = {}
        for out in sorted(outs, key=lambda o: os.path.realpath(o) in
                          {os.path.realpath(r) for r in args.replace}):
            for sid in students:
                if os.path.exists(os.path.join(outputs.student_dir(out, sid), "feedback.html")):
                    folders[sid] = outputs.student_dir(out, sid)
        report.write(os.path.abspath(args.out),
                     read_json(os.path.join(args.out, "summary.json")), students, labs_info,
                     folders, pictures=not args.no_report)
        print(f"merged {len(students)} students from {len(args.outs)} outputs into "
              f"{os.path.join(args.out, 'gradebook.csv')}")
        return 0
    args = grade_parser().parse_args(argv)
    if not os.path.isdir(args.submissions):
        print(f"grade-submissions: {args.submissions} is not a folder", file=sys.stderr)
        return 2
    overlap = folders_overlap(args.submissions, args.out)
    if overlap:
        print(f"grade-submissions: {overlap}; choose an output folder apart from it",
              file=sys.stderr)
        return 2
    return batch.Batch(args).run()
