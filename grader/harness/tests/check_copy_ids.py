#!/usr/bin/env python3
"""Every transfer callback ID in CUPTI's headers is understood or refused by
the copy watch (grader/harness/checks/copy_watch.c), which holds lab 2's host
flow to its contract: an ID it neither understands nor refuses would be a
way to move C that the watch does not see.

The copy watch refuses, inside a watched call, every ID whose CUPTI name
holds one of its `transfer_words`, except the IDs it understands (named in
copy_watch.c). This test lists, from the headers, every ID of
cupti_runtime_cbid.h and cupti_driver_cbid.h that moves data or makes host
memory reachable from a kernel (Memcpy, Memset, prefetch, advise, discard,
managed, pinned, mapped and registered memory: its own patterns, not the
watch's words) and fails naming each one that copy_watch.c neither names
nor matches with a word.

  check_copy_ids.py COPY_WATCH_C INCLUDE_DIR...
exit 0: all covered; 1: some are not; 77: no CUPTI headers (skipped)."""
import os
import re
import sys

HEADERS = ("cupti_runtime_cbid.h", "cupti_driver_cbid.h")
# What a host flow could use to move C, or to hand a kernel host memory.
TRANSFER = re.compile(r"Memcpy|Memset|Prefetch|Advise|Discard|Managed|MallocHost|AllocHost|"
                      r"HostAlloc|HostRegister|HostGetDevicePointer")
PREFIX = re.compile(r"^CUPTI_(?:RUNTIME|DRIVER)_TRACE_CBID_")


def transfer_ids(text):
    ids = set(re.findall(r"\b(CUPTI_(?:RUNTIME|DRIVER)_TRACE_CBID_\w+)\s*=", text))
    return sorted(i for i in ids if TRANSFER.search(PREFIX.sub("", i)) and not i.endswith("_SIZE")
                  and "Unregister" not in i)


def words_of(source):
    match = re.search(r"transfer_words\[\]\s*=\s*\{(.*?)\};", source, re.S)
    return re.findall(r'"(\w+)"', match.group(1)) if match else []


def main(source, include_dirs):
    headers = [os.path.join(d, h) for h in HEADERS for d in include_dirs
               if os.path.isfile(os.path.join(d, h))]
    if len({os.path.basename(h) for h in headers}) < len(HEADERS):
        print(f"skipped: {' and '.join(HEADERS)} not found in {include_dirs}")
        return 77
    ids = set()
    for header in headers:
        with open(header) as f:
            ids.update(transfer_ids(f.read()))
    with open(source) as f:
        text = f.read()
    named = set(re.findall(r"\bCUPTI_\w+_TRACE_CBID_\w+\b", text))
    words = words_of(text)
    if not words:
        print(f"FAIL: no transfer_words list in {os.path.basename(source)}")
        return 1
    missing = [i for i in sorted(ids)
               if i not in named and not any(w in PREFIX.sub("", i) for w in words)]
    for i in missing:
        print(f"FAIL: {i} is neither understood nor refused by {os.path.basename(source)}")
    unknown = [i for i in sorted(named) if i not in ids and TRANSFER.search(PREFIX.sub("", i))]
    for i in unknown:
        print(f"FAIL: {os.path.basename(source)} names {i}, which the headers do not have")
    print(f"{len(ids) - len(missing)} of {len(ids)} transfer callback IDs covered "
          f"({len(words)} words)")
    return 1 if missing or unknown else 0


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2:]))
