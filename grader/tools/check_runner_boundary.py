#!/usr/bin/env python3
"""The runner/test-program boundary, checked on the built programs (the
ctest harness.runner_has_no_student_code; docs/design.md, "The runner and
the test program").

A lab's runner (labN_check) decides outcomes, points and time limits, so it
must contain none of the student's code: no symbol that the student's
library defines may be defined in it, except the helpers the lab replays
(CALL_LOGGED(name) in labN_calls.c), whose stand-ins have the same names.

  check_runner_boundary.py NM RUNNER STUDENT_SYMBOLS [CALLS_FILE] [-- RUNNER ...]
  check_runner_boundary.py --self-test
"""
import re
import subprocess
import sys

# Global definitions: code or data another object could reach. Local ones
# (lower case) share names across unrelated objects: every nvcc-compiled file
# has its own static __cudaFatCubinHandle, every C++ one a DW.ref. entry.
GLOBAL = set("TDBRWVGS")


def defined_names(nm_text):
    """Global names an `nm -P` listing defines (U, undefined, is a reference)."""
    names = set()
    for line in nm_text.splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[1] in GLOBAL and not parts[0].startswith("DW.ref."):
            names.add(parts[0])
    return names


def replayed_helpers(calls_text):
    return set(re.findall(r"CALL_LOGGED\((\w+)\)", calls_text))


def crossings(runner_nm, student_nm, calls_text):
    """The student's definitions the runner also defines, less the replayed helpers."""
    return sorted((defined_names(runner_nm) & defined_names(student_nm))
                  - replayed_helpers(calls_text))


def self_test():
    student = "lab9_helper T 0 10\nlab9_entry T 10 10\nprintf U\n"
    calls = "int CALL_LOGGED(lab9_helper)(int x)\n"
    assert crossings("lab9_helper T 0 4\nmain T 4 4\n", student, calls) == []
    assert crossings("lab9_entry T 0 4\nmain T 4 4\n", student, calls) == ["lab9_entry"]
    assert crossings("printf U\n", student, "") == []  # references are not code
    # Statics of the same name in unrelated objects are not the student's code.
    assert crossings("_ZL20__cudaFatCubinHandle b 0 8\n",
                     "_ZL20__cudaFatCubinHandle b 0 8\n", "") == []
    print("check_runner_boundary self-test: ok")
    return 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    nm, groups = argv[1], " ".join(argv[2:]).split(" -- ")
    bad = 0
    for group in groups:
        args = group.split()
        runner, symbols = args[0], args[1]
        calls = open(args[2]).read() if len(args) > 2 else ""
        runner_nm = subprocess.run([nm, "-P", runner], check=True, capture_output=True,
                                   text=True).stdout
        found = crossings(runner_nm, open(symbols).read(), calls)
        if found:
            bad = 1
            print(f"{runner} holds code of the student's library: {' '.join(found[:20])}")
        else:
            print(f"{runner}: no student code")
    return bad


if __name__ == "__main__":
    sys.exit(main(sys.argv))
