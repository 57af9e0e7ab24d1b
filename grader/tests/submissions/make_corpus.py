#!/usr/bin/env python3
"""Materialises the fixture corpus (grader/tests/submissions/*/fixture.json)
as a SUBMISSIONS folder for grade-submissions: each fixture's files are
taken from the course's solutions/ or labs/ at run time (so no answer is
copied into the repository), edited as the fixture says, and packed as a
folder, a .zip (optionally under an extra top-level folder) or a .tar.gz.

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


def fixtures(gpu, only=None):
    for name in sorted(os.listdir(HERE)):
        path = os.path.join(HERE, name, "fixture.json")
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


def write(name, spec, files, dest):
    if "raw" in spec:
        with open(os.path.join(dest, spec["raw"]["name"]), "w") as f:
            f.write(spec["raw"]["text"])
        return
    top = spec.get("top", "")
    pack = spec.get("pack", "folder")
    if pack == "folder":
        for rel, text in files.items():
            path = os.path.join(dest, name, top, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(text)
    elif pack == "zip":
        with zipfile.ZipFile(os.path.join(dest, name + ".zip"), "w") as z:
            for rel, text in sorted(files.items()):
                z.writestr(os.path.join(top, rel), text)
    else:
        with tarfile.open(os.path.join(dest, name + ".tar.gz"), "w:gz") as t:
            for rel, text in sorted(files.items()):
                data = text.encode()
                info = tarfile.TarInfo(os.path.join(top, rel))
                info.size = len(data)
                info.mtime = 0
                t.addfile(info, io.BytesIO(data))


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
