#!/usr/bin/env python3
"""The class report and a student's page in headless Chromium (the ctest
batch.pages_in_chromium): a fixture class's report.html and one student's
feedback.html are rendered (a screenshot of each) and read back as the
browser built them (--dump-dom), and their content is checked: totals as
the gradebook has them, the messages with their TODO, the links to the
students' pages (each must open a page that exists), the review flag and
the build failure, a hostile id shown as text and never as markup.

Exits 77 (ctest's SKIP_RETURN_CODE) only where no Chromium is installed;
any other failure of the browser is a failure.

  check_pages.py WORK [--save-screenshots FOLDER]   (docs/images: the
  guide's two pictures)"""
import argparse
import csv
import html
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import urllib.parse
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", ".."))
import pages_class  # noqa: E402
from batch import outputs  # noqa: E402

BROWSERS = ("chromium", "chromium-browser", "google-chrome")
WINDOW = (1200, 1400)
failures = []


def check(ok, message):
    if not ok:
        failures.append(message)
        print("FAIL: " + message)


def browser():
    for name in BROWSERS:
        path = shutil.which(name)
        if path:
            return path
    return None


def run_browser(exe, profile, url, *flags):
    """Chromium headless on `url`; its stdout. Root needs --no-sandbox
    (Chromium refuses to start as root otherwise); the page is our own
    static file, which runs no script."""
    argv = [exe, "--headless", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
            f"--user-data-dir={profile}", f"--window-size={WINDOW[0]},{WINDOW[1]}", *flags, url]
    if os.geteuid() == 0:
        argv.insert(1, "--no-sandbox")
    done = subprocess.run(argv, capture_output=True, text=True, timeout=90,
                          env=dict(os.environ, HOME=profile))
    if done.returncode != 0:
        raise SystemExit(f"FAIL: {' '.join(argv)} exited {done.returncode}:\n{done.stderr[-2000:]}")
    return done.stdout


def png_facts(path):
    """(width, height, distinct row bytes) of a PNG: enough to tell a page
    drawn from a blank one without an image library."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        return 0, 0, 0
    width, height = struct.unpack(">II", data[16:24])
    pos, idat = 8, b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        if kind == b"IDAT":
            idat += data[pos + 8:pos + 8 + length]
        pos += 12 + length
    raw = zlib.decompress(idat)
    return width, height, len(set(raw[::97]))


def gradebook(out):
    with open(os.path.join(out, "gradebook.csv"), newline="", encoding="utf-8") as f:
        return {r["id"]: r for r in csv.DictReader(f)}


def text_of(dom):
    """The page's text as a reader sees it (tags dropped, entities read)."""
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", dom)))


def check_report(dom, out, book):
    text = text_of(dom)
    for sid in pages_class.CLASS:
        check(f"{sid} {book[sid]['total']} " in text,
              f"report: {sid}'s total {book[sid]['total']} (the gradebook's) is not shown")
    check("frank" in text and "not submitted" in text, "report: the rostered frank who handed "
          "nothing in is not shown as not submitted")
    check("weights (course file): lab1 40 points -> 30, lab2 60 points -> 70" in text,
          "report: the totals' rule (weights) is not stated")
    hrefs = re.findall(r'<a href="([^"]+)"', dom)
    targets = {urllib.parse.unquote(h) for h in hrefs}
    for sid in pages_class.CLASS:
        want = f"students/{sid}/feedback.html"
        check(want in targets, f"report: no link to {want}")
    for h in targets:
        check(os.path.isfile(os.path.join(out, h)), f"report: the link {h} opens no page")
    check('onerror="' not in dom and "onerror=alert(1)>" not in dom.replace("&gt;", ""),
          "report: the hostile id became markup")
    check(pages_class.HOSTILE_ID in text, "report: the hostile id is not shown as text")
    check("process control" in text and 'system("nvidia-smi <x>");' in text,
          "report: bob's review flag is missing")
    check('identifier "TILE" is undefined' in text, "report: carol's build failure is missing")
    # gpu_tiled_speedup: passed by alice, failed by bob and erin; carol's lab
    # did not build, dave's and the hostile id's were not handed in.
    row = re.search(r"lab2 gpu_tiled_speedup (\S+) 1 2 0 0 1", text)
    check(row is not None and row.group(1) == "33%",
          "report: lab2 gpu_tiled_speedup is not 33% of 3 graded runs with 1 that did not "
          f"build ({row.group(0) if row else 'no such row'})")
    check(re.search(r"lab1 gpu_copy_bandwidth 0\.90 6 2 ", text) is not None,
          "report: lab1's speed ratios are not shown against their threshold 0.9 (2 of 6 "
          "below)")
    for picture in ("score_distribution.png", "pass_rate_per_test.png", "speed_ratios.png"):
        drawn = os.path.isfile(os.path.join(out, "report", picture))
        said = f"Picture {picture}" in text
        check(drawn or said, f"report: {picture} is neither drawn nor said to be missing")
        if drawn:
            check(f'src="report/{picture}"' in dom, f"report: {picture} is drawn but not shown")


def check_student(dom, book):
    text = text_of(dom)
    bob = book["bob"]
    check(f"Total: {bob['total']} of 100 points" in text,
          f"bob's page: no total {bob['total']} of 100 (the gradebook's)")
    check("TODO(1.2) in indexing.cu" in text and "handout 1, section 2.2" in text,
          "bob's page: gpu_vector_add's message with its TODO and handout section is missing")
    # Lab 1: 10 + 0 + 10 x (0.82 - 0.6) / (0.9 - 0.6) = 17.33 of 40, x 30/40;
    # lab 2: 10 + 0 + 20 x (1.6 - 1) / (2.5 - 1) = 18 of 60, x 70/60.
    check("Lab 1: indexing: 17.33 of 40 (+0 bonus), counts 13 of 30" in text and
          "Lab 2: tiled matrix multiply: 18 of 60, counts 21 of 70" in text,
          "bob's page: the labs' headings with their points and weights are missing")
    check(bob["total"] == "34", f"the gradebook's total of bob is {bob['total']}, not 13 + 21")
    check("files graded: sha256 " + "5d1f" * 16 in text, "bob's page: the files' hash is missing")
    check("graded: 2026-11-28 21:00 UTC" in text, "bob's page: the date is missing")
    check("GPU: NVIDIA H200" in text and "calibration: nvidia-h200_132sm.json" in text,
          "bob's page: the GPU and calibration that graded it are missing")
    check("<script" not in dom.lower(), "bob's page holds a script")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("work")
    p.add_argument("--save-screenshots", metavar="FOLDER")
    args = p.parse_args()
    exe = browser()
    if exe is None:
        print(f"SKIP: no Chromium ({', '.join(BROWSERS)}) on PATH; .ci/run installs Debian's "
              "chromium")
        return 77
    shutil.rmtree(args.work, ignore_errors=True)
    out = os.path.join(args.work, "class")
    pages_class.make(out)
    book = gradebook(out)
    pages = {"class_report": os.path.join(out, "report.html"),
             "student_page": os.path.join(outputs.student_dir(out, "bob"), "feedback.html")}
    with tempfile.TemporaryDirectory() as profile:
        for name, path in pages.items():
            url = "file://" + urllib.parse.quote(os.path.abspath(path))
            shot = os.path.join(args.work, name + ".png")
            run_browser(exe, profile, url, f"--screenshot={shot}")
            width, height, variety = png_facts(shot) if os.path.exists(shot) else (0, 0, 0)
            check((width, height) == WINDOW, f"{name}: screenshot {width}x{height}, not "
                                             f"{WINDOW[0]}x{WINDOW[1]}")
            check(variety > 3, f"{name}: the screenshot is blank")
            dom = run_browser(exe, profile, url, "--dump-dom")
            (check_report if name == "class_report" else
             lambda d, _o, b: check_student(d, b))(dom, out, book)
            if args.save_screenshots and os.path.exists(shot):
                os.makedirs(args.save_screenshots, exist_ok=True)
                shutil.copyfile(shot, os.path.join(args.save_screenshots, name + ".png"))
    if failures:
        print(f"{len(failures)} checks failed")
        return 1
    print(f"report.html and a student's page rendered and checked in {os.path.basename(exe)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
