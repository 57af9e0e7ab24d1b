"""Submissions in: one entry per student in the SUBMISSIONS folder, named by
the student's id: a folder, a .zip or a .tar.gz (.tgz). Archives are
unpacked defensively (no absolute paths, no '..', no links or devices, a
size cap), an extra top-level folder (a zipped clone) is looked through,
and only the whitelisted lab files are kept (labs.py)."""
import os
import shutil
import stat
import tarfile
import zipfile

MAX_FILE_BYTES = 1 << 20          # a lab's .cu file is a few KiB
MAX_ARCHIVE_BYTES = 200 << 20     # what we agree to unpack at all
MAX_MEMBERS = 20000
ARCHIVE_SUFFIXES = (".tar.gz", ".tgz", ".zip")


class Submission:
    def __init__(self, sid, path, kind):
        self.id = sid
        self.path = path
        self.kind = kind          # "folder", "zip", "tar.gz"
        self.error = None         # set when two entries claim one id

    def __repr__(self):
        return "Submission(%s, %s)" % (self.id, self.kind)


def student_id(name):
    for suffix in ARCHIVE_SUFFIXES:
        if name.endswith(suffix):
            return name[: -len(suffix)], ("zip" if suffix == ".zip" else "tar.gz")
    return name, None


def discover(folder):
    """Submissions sorted by id (a stable order makes --shard stable)."""
    found = {}
    for name in sorted(os.listdir(folder)):
        if name.startswith("."):
            continue
        path = os.path.join(folder, name)
        sid, kind = student_id(name)
        if kind is None:
            if not os.path.isdir(path):
                continue
            kind = "folder"
        if not sid:
            continue
        if sid in found:
            found[sid].error = "two entries for this id (%s and %s)" % (
                os.path.basename(found[sid].path), name)
            continue
        found[sid] = Submission(sid, path, kind)
    return [found[k] for k in sorted(found)]


class Rejected(Exception):
    """The submission cannot be unpacked; the message is for the gradebook."""


def _safe_relative(name):
    name = name.replace("\\", "/")
    if name.startswith("/") or any(part == ".." for part in name.split("/")):
        raise Rejected("the archive holds an unsafe path: %r" % name[:200])
    return os.path.normpath(name).lstrip("./") if name not in (".", "./") else ""


def unpack(sub, into):
    """Unpacks (or copies) the submission under `into`; returns the folder
    that holds its files."""
    os.makedirs(into, exist_ok=True)
    if sub.kind == "folder":
        _copy_folder(sub.path, into)
    elif sub.kind == "zip":
        _unzip(sub.path, into)
    else:
        _untar(sub.path, into)
    return into


def _copy_folder(src, into):
    total = 0
    for folder, dirs, files in os.walk(src):
        dirs[:] = [d for d in dirs if not os.path.islink(os.path.join(folder, d))]
        for f in files:
            path = os.path.join(folder, f)
            st = os.lstat(path)
            if not stat.S_ISREG(st.st_mode):
                continue  # links and devices are never followed
            total += st.st_size
            if total > MAX_ARCHIVE_BYTES:
                raise Rejected("the submission is larger than %d MiB" % (MAX_ARCHIVE_BYTES >> 20))
            rel = os.path.relpath(path, src)
            if st.st_size > MAX_FILE_BYTES:
                continue
            dest = os.path.join(into, rel)
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            shutil.copyfile(path, dest)


def _unzip(path, into):
    try:
        with zipfile.ZipFile(path) as z:
            members = z.infolist()
            if len(members) > MAX_MEMBERS:
                raise Rejected("the zip holds more than %d files" % MAX_MEMBERS)
            if sum(m.file_size for m in members) > MAX_ARCHIVE_BYTES:
                raise Rejected("the zip unpacks to more than %d MiB" % (MAX_ARCHIVE_BYTES >> 20))
            for m in members:
                rel = _safe_relative(m.filename)
                mode = (m.external_attr >> 16) & 0o170000
                if m.is_dir() or not rel or (mode and mode != stat.S_IFREG):
                    continue  # folders are made as needed; links are ignored
                if m.file_size > MAX_FILE_BYTES:
                    continue
                dest = os.path.join(into, rel)
                os.makedirs(os.path.dirname(dest), exist_ok=True)
                with z.open(m) as src, open(dest, "wb") as out:
                    out.write(src.read(MAX_FILE_BYTES + 1)[:MAX_FILE_BYTES])
    except (zipfile.BadZipFile, OSError, RuntimeError, NotImplementedError) as e:
        raise Rejected("the zip cannot be read: %s" % e)


def _untar(path, into):
    try:
        with tarfile.open(path, "r:*") as t:
            count = total = 0
            for m in t:
                count += 1
                total += max(m.size, 0)
                if count > MAX_MEMBERS or total > MAX_ARCHIVE_BYTES:
                    raise Rejected("the archive is too large (over %d files or %d MiB)"
                                   % (MAX_MEMBERS, MAX_ARCHIVE_BYTES >> 20))
                rel = _safe_relative(m.name)
                if not m.isreg() or not rel or m.size > MAX_FILE_BYTES:
                    continue  # links, devices and folders are never extracted
                dest = os.path.join(into, rel)
                os.makedirs(os.path.dirname(dest), exist_ok=True)
                src = t.extractfile(m)
                with open(dest, "wb") as out:
                    out.write(src.read())
    except (tarfile.TarError, OSError, EOFError) as e:
        raise Rejected("the archive cannot be read: %s" % e)


def find_course_root(unpacked):
    """The folder whose labs/ holds the lab folders: the top, or one level
    down (a zipped clone, "cuda-labs-main/labs/..."), or two."""
    candidates = [unpacked]
    for _ in range(2):
        if any(os.path.isdir(os.path.join(c, "labs")) for c in candidates):
            break
        nxt = []
        for c in candidates:
            try:
                subs = sorted(os.listdir(c))
            except OSError:
                continue
            nxt += [os.path.join(c, s) for s in subs if os.path.isdir(os.path.join(c, s))
                    and s not in ("__MACOSX",)]
        candidates = nxt
    for c in candidates:
        if os.path.isdir(os.path.join(c, "labs")):
            return c
    return unpacked


def select(unpacked, allowed):
    """(taken, ignored): `taken` maps each whitelisted path present to its
    file; `ignored` lists every other file, relative to the root found."""
    root = find_course_root(unpacked)
    taken, ignored = {}, []
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        for f in sorted(files):
            path = os.path.join(folder, f)
            rel = os.path.relpath(path, root).replace(os.sep, "/")
            if rel in allowed:
                taken[rel] = path
            else:
                ignored.append(rel)
    return taken, ignored
