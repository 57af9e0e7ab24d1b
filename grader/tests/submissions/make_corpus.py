#!/usr/bin/env python3
"""Materialises the fixture corpus (solutions/fixtures/*/fixture.json: their
edits quote the reference solutions, so they live with them)
as a SUBMISSIONS folder for grade-submissions: each fixture's files are
taken from the course's solutions/ or labs/ at run time (so no answer is
copied into the repository), edited as the fixture says, and packed.

A fixture.json (docs/instructors.md, "Tests", has the whole format):
  from, labs       where the lab files come from ("solutions"/"labs") and which labs
  edits            [{file, find, replace} | {file, append} | {file, text}]
  pack             folder (default), zip, ZIP, tar, tar.gz, tar.bz2, tar.xz
  top              an extra top-level folder inside the submission
  entry            the entry's name in SUBMISSIONS instead of the fixture's
                   (entry_hex: the name as hex bytes, for names that are not UTF-8)
  damage           [{"at": fraction of the archive, "bytes": n}]: bytes overwritten
                   inside an archive, its container still readable
  big_file         {"path", "mib"}: a sparse file that large beside the lab files
  raw              {name, text}: an entry written as is
  gpu_only         only with --gpu
  expect           what check_corpus.py checks (its docstring)

  make_corpus.py COURSE_ROOT DEST [--gpu] [--only NAME...]
--gpu adds the fixtures that need a GPU (hanging, faulting kernels, ...)."""
import argparse
import io
import json
import os
import shutil
import sys
import tarfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.normpath(os.path.join(HERE, "..", "..", "..", "solutions", "fixtures"))


def fixtures(gpu, only=None):
    for name in sorted(os.listdir(FIXTURES)):
        path = os.path.join(FIXTURES, name, "fixture.json")
        if not os.path.isfile(path) or (only and name not in only):
            continue
        with open(path) as f:
            spec = json.load(f)
        if spec.get("gpu_only") and not gpu:
            continue
        yield name, spec


def lab_folders(course, labs):
    folders = sorted(d for d in os.listdir(os.path.join(course, "labs")) if d.startswith("lab"))
    if labs == "all":
        return folders
    return [d for d in folders if int(d[3:].split("_")[0]) in labs]


def files_of(course, spec):
    files = {}
    if "from" in spec:
        for folder in lab_folders(course, spec["labs"]):
            src = os.path.join(course, spec["from"], folder)
            for f in sorted(os.listdir(os.path.join(course, "labs", folder))):
                if f.endswith(".cu"):
                    with open(os.path.join(src, f)) as fh:
                        files["labs/%s/%s" % (folder, f)] = fh.read()
    for edit in spec.get("edits", []):
        if "text" in edit:
            files[edit["file"]] = edit["text"]
        elif "append" in edit:
            files[edit["file"]] += edit["append"]
        else:
            if edit["find"] not in files[edit["file"]]:
                raise SystemExit("fixture edit: %r not found in %s" % (edit["find"][:60], edit["file"]))
            files[edit["file"]] = files[edit["file"]].replace(edit["find"], edit["replace"], 1)
    return files


def entry_name(name, spec):
    """The entry's file name in SUBMISSIONS (bytes when not UTF-8)."""
    if "entry_hex" in spec:
        return bytes.fromhex(spec["entry_hex"])
    return spec.get("entry", name)


ARCHIVE_SUFFIX = {"zip": ".zip", "ZIP": ".ZIP", "tar": ".tar", "tar.gz": ".tar.gz",
                  "tar.bz2": ".tar.bz2", "tar.xz": ".tar.xz"}


def write(name, spec, files, dest):
    if "raw" in spec:
        with open(os.path.join(dest, spec["raw"]["name"]), "w") as f:
            f.write(spec["raw"]["text"])
        return
    top = spec.get("top", "")
    pack = spec.get("pack", "folder")
    entry = entry_name(name, spec)
    if isinstance(entry, bytes):
        dest = os.fsencode(dest)
        top = os.fsencode(top)
        files = {os.fsencode(k): v for k, v in files.items()}
    if pack == "folder":
        for rel, text in files.items():
            path = os.path.join(dest, entry, top, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(text)
        if "big_file" in spec:
            # Sparse: a large file costs no disk and no time to make.
            with open(os.path.join(dest, entry, top, spec["big_file"]["path"]), "wb") as f:
                f.truncate(spec["big_file"]["mib"] << 20)
        return
    suffix = ARCHIVE_SUFFIX[pack]
    path = os.path.join(dest, entry + (suffix.encode() if isinstance(entry, bytes) else suffix))
    if pack in ("zip", "ZIP"):
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
            for rel, text in sorted(files.items()):
                z.writestr(os.path.join(top, rel), text)
    else:
        mode = "w" if pack == "tar" else "w:" + pack.split(".")[1]
        with tarfile.open(path, mode) as t:
            for rel, text in sorted(files.items()):
                data = text.encode()
                info = tarfile.TarInfo(os.path.join(top, rel))
                info.size = len(data)
                info.mtime = 0
                t.addfile(info, io.BytesIO(data))
    for hit in spec.get("damage", []):
        with open(path, "r+b") as f:
            size = os.fstat(f.fileno()).st_size
            f.seek(int(size * hit["at"]))
            f.write(bytes((0x5A + i * 37) & 0xFF for i in range(hit["bytes"])))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("course")
    p.add_argument("dest")
    p.add_argument("--gpu", action="store_true")
    p.add_argument("--only", nargs="+")
    a = p.parse_args()
    if os.path.exists(a.dest):
        shutil.rmtree(a.dest)
    os.makedirs(a.dest)
    names = []
    for name, spec in fixtures(a.gpu, a.only):
        write(name, spec, files_of(a.course, spec), a.dest)
        names.append(name)
    print("corpus: %s in %s" % (" ".join(names), a.dest))


if __name__ == "__main__":
    sys.exit(main())
