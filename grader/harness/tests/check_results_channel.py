#!/usr/bin/env python3
"""The batch grader's results channel (--results-fd): the harness writes its
results to a descriptor the caller opened, never to a path, closes it in
every test process (student code runs there), and what it writes is valid
UTF-8 JSON even when a test printed a Latin-1 byte and a long Chinese line
that the harness had to cut.

  check_results_channel.py HARNESS_DEMO"""
import json
import re
import os
import subprocess
import sys
import tempfile


def main(demo):
    with tempfile.TemporaryFile() as channel:
        fd = channel.fileno()
        st = os.fstat(fd)
        channel_file = "%d:%d" % (st.st_dev, st.st_ino)
        run = subprocess.run([demo, "--only", "prints_non_ascii", "--results-fd", str(fd)],
                             pass_fds=(fd,), capture_output=True, timeout=120)
        raw = os.pread(fd, 1 << 24, 0)
    if run.returncode != 1:
        sys.exit("harness_demo exited %d, expected 1 (one failed test)\n%s"
                 % (run.returncode, run.stderr.decode(errors="replace")))
    try:
        text = raw.decode("utf-8")  # strict: one invalid byte fails the check
    except UnicodeDecodeError as e:
        sys.exit("the results are not valid UTF-8: %s" % e)
    results = json.loads(text)
    output = results["tests"][0]["output"]
    for want, why in (("caf\ufffd", "the Latin-1 byte written as U+FFFD"),
                      ("\u4e2d\u6587" * 100, "the Chinese text kept"),
                      ("bytes of output cut", "the long output cut")):
        if want not in output:
            sys.exit("results output lacks %s: %r" % (why, output[:300]))
    # The test lists its descriptors as fd=device:inode: the channel is
    # known by its file, since its number in the runner may be another
    # file's in the test process.
    held = re.search(r"open descriptors:([ 0-9=:]*)", output)
    if not held:
        sys.exit("the test did not list its descriptors: %r" % output[:300])
    files = [entry.split("=")[1] for entry in held.group(1).split()]
    if channel_file in files:
        sys.exit("the test process held the results channel (file %s): %s"
                 % (channel_file, held.group(1)))
    bad = subprocess.run([demo, "--only", "passes", "--results-fd", "1000"],
                         capture_output=True, timeout=60)
    if bad.returncode != 2 or b"--results-fd" not in bad.stderr:
        sys.exit("a closed --results-fd was not refused (exit %d)" % bad.returncode)
    print("results channel: valid UTF-8 JSON through the descriptor, which no test process "
          "holds; a closed one refused")


if __name__ == "__main__":
    main(sys.argv[1])
