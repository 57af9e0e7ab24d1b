#!/usr/bin/env python3
"""Every callback ID in CUPTI's headers that launches work, or that changes
what an executable CUDA graph runs, is handled by the launch watch: a launch
API that CUDA adds and the watch neither notes nor refuses would let a
kernel run unjudged, and a graph edit it does not hear of would let a graph
it read change under it.

  check_launch_ids.py CHECKS_DIR INCLUDE_DIR...
CHECKS_DIR: grader/harness/checks. Every ID of cupti_runtime_cbid.h and
cupti_driver_cbid.h with "Launch" in its name must be named in
launch_watch.c; every "GraphExec...Update" or "GraphExec...SetParams" ID
in graph_watch.c. exit 0: all covered; 1: some are not; 77: no CUPTI
headers (skipped)."""
import os
import re
import sys

HEADERS = ("cupti_runtime_cbid.h", "cupti_driver_cbid.h")
CBID = r"CUPTI_(?:RUNTIME|DRIVER)_TRACE_CBID_"
# (what the IDs do, the pattern that finds them, the file that must name each)
RULES = (
    ("launch", CBID + r"\w*Launch\w*", "launch_watch.c"),
    ("graph edit", CBID + r"\w*GraphExec\w*(?:Update|SetParams)\w*", "graph_watch.c"),
)


def ids_in(pattern, text):
    return set(re.findall(r"\b(" + pattern + r")\b", text))


def main(checks_dir, include_dirs):
    headers = [os.path.join(d, h) for h in HEADERS for d in include_dirs
               if os.path.isfile(os.path.join(d, h))]
    if len({os.path.basename(h) for h in headers}) < len(HEADERS):
        print(f"skipped: {' and '.join(HEADERS)} not found in {include_dirs}")
        return 77
    header_text = ""
    for header in headers:
        with open(header) as f:
            header_text += f.read()
    failed = 0
    for what, pattern, source in RULES:
        with open(os.path.join(checks_dir, source)) as f:
            named = set(re.findall(r"\bCUPTI_\w+_TRACE_CBID_\w+\b", f.read()))
        wanted = ids_in(pattern, header_text)
        missing = sorted(wanted - named)
        for i in missing:
            print(f"FAIL: {i} ({what}) is not handled by {source}")
        print(f"{len(wanted) - len(missing)} of {len(wanted)} {what} callback IDs covered")
        failed += len(missing)
    return 1 if failed else 0


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2:]))
