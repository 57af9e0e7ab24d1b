#!/usr/bin/env python3
"""Every launch callback ID in CUPTI's headers is handled or refused by the
launch watch (grader/harness/checks/launch_watch.c): a launch API that CUDA
adds and the watch neither notes nor refuses would let a kernel run
unjudged. Fails naming each ID of cupti_runtime_cbid.h and
cupti_driver_cbid.h with "Launch" in its name that launch_watch.c does not
name.

  check_launch_ids.py LAUNCH_WATCH_C INCLUDE_DIR...
exit 0: all covered; 1: some are not; 77: no CUPTI headers (skipped)."""
import os
import re
import sys

HEADERS = ("cupti_runtime_cbid.h", "cupti_driver_cbid.h")


def launch_ids(text):
    return sorted(set(re.findall(r"\b(CUPTI_(?:RUNTIME|DRIVER)_TRACE_CBID_\w*Launch\w*)\b", text)))


def main(source, include_dirs):
    headers = [os.path.join(d, h) for h in HEADERS for d in include_dirs
               if os.path.isfile(os.path.join(d, h))]
    if len({os.path.basename(h) for h in headers}) < len(HEADERS):
        print(f"skipped: {' and '.join(HEADERS)} not found in {include_dirs}")
        return 77
    ids = []
    for header in headers:
        with open(header) as f:
            ids += launch_ids(f.read())
    with open(source) as f:
        named = set(re.findall(r"\bCUPTI_\w+_TRACE_CBID_\w+\b", f.read()))
    missing = [i for i in sorted(set(ids)) if i not in named]
    for i in missing:
        print(f"FAIL: {i} is neither noted nor refused by {os.path.basename(source)}")
    print(f"{len(set(ids)) - len(missing)} of {len(set(ids))} launch callback IDs covered")
    return 1 if missing else 0


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2:]))
