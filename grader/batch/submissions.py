"""Submissions in: one entry per student in the SUBMISSIONS folder, named by
the student's id: a folder or an archive (ARCHIVE_SUFFIXES). Any other
entry (another format, a link, a name that is no id) becomes a Submission
with an error for its own gradebook row: nothing is skipped silently, and
nothing crashes the batch. Archives are unpacked defensively (no absolute
paths, no '..', no links or devices, caps on files, bytes and members; a
file too large is skipped, not the submission), a top-level folder (a
zipped clone) is looked through, and only the whitelisted lab files are
kept (labs.py). --id-pattern takes the id out of an LMS's entry names
(ID_PATTERNS); an entry it does not match keeps its own name."""
import bz2
import dataclasses
import errno
import gzip
import hashlib
import lzma
import os
import re
import stat
import tarfile
import zipfile
from dataclasses import dataclass, field
from typing import List, Optional, Union

from .util import id_key, nfc

MAX_FILE_BYTES = 1 << 20          # a lab's .cu file is a few KiB; bigger files are skipped
MAX_ARCHIVE_BYTES = 200 << 20     # what we agree to write at all, for one submission
MAX_MEMBERS = 20000
# A tar's headers (names, pax records) as tarfile reads them, whole, in
# memory: a forged size must not make it read gigabytes.
MAX_HEADER_BYTES = 64 << 20
MAX_ONE_READ = 16 << 20
# Skipping a member of a compressed tar decompresses it: this bounds the
# time a bomb of skipped members costs.
MAX_SKIPPED_BYTES = 2 << 30
TOO_LARGE = object()              # what _read_small_file returns for a file skipped
MAX_ID_BYTES = 100                # the batch names folders by id and more: NAME_MAX is 255

# Matched whatever their case. A bare .gz, .bz2 or .xz is not accepted: it
# would not say that a tar is inside.
ARCHIVE_SUFFIXES = ((".tar.gz", "tar.gz"), (".tgz", "tar.gz"), (".tar.bz2", "tar.bz2"),
                    (".tbz2", "tar.bz2"), (".tar.xz", "tar.xz"), (".txz", "tar.xz"),
                    (".tar", "tar"), (".zip", "zip"))
ACCEPTED = "a folder, .zip, .tar, .tar.gz (.tgz), .tar.bz2 (.tbz2) or .tar.xz (.txz)"
# Errors of this machine, not of the submission: they stop the batch
# rather than fail one student after another with "disk full".
ENVIRONMENT_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EIO, errno.ENOMEM,
                      errno.EMFILE, errno.ENFILE}


# The id (group "id") in the entry names of an LMS's bulk download.
# Canvas: "<lastnamefirstname>_[LATE_]<user id>_<attachment id>_<file>";
# `canvas-user-id` is Canvas's gradebook "ID" (export --to canvas --id-field ID).
# Moodle: a folder per student, "<Full Name>_<participant id>_assignsubmission_file_".
ID_PATTERNS = {
    "canvas": r"^(?P<id>[^_]+)_(?:[Ll][Aa][Tt][Ee]_)?\d+_\d+_",
    "canvas-user-id": r"^[^_]+_(?:[Ll][Aa][Tt][Ee]_)?(?P<id>\d+)_\d+_",
    "moodle": r"^(?P<id>.+?)_\d+_assign(?:submission|feedback)_",
    "moodle-participant": r"^.+?_(?P<id>\d+)_assign(?:submission|feedback)_",
}


class IdPatternError(ValueError):
    """--id-pattern is neither a known LMS's name nor a usable regex."""


def compile_id_pattern(text):
    """The regex of --id-pattern: one of ID_PATTERNS by name, or a regex
    with a group named "id" (or else exactly one group) for the id."""
    if text is None:
        return None
    try:
        pattern = re.compile(ID_PATTERNS.get(text, text))
    except re.error as e:
        raise IdPatternError(f"--id-pattern {text!r} is not a regular expression: {e}")
    if "id" not in pattern.groupindex and pattern.groups != 1:
        raise IdPatternError(f"--id-pattern {text!r} needs a group (?P<id>...) or exactly one "
                             f"group around the id (or one of: {', '.join(ID_PATTERNS)})")
    return pattern


def id_from_name(pattern, stem):
    """The id the pattern finds in an entry's name (its archive suffix
    removed), or None where it finds none."""
    found = pattern.search(stem)
    if not found:
        return None
    sid = (found.group("id" if "id" in pattern.groupindex else 1) or "").strip()
    return sid or None


@dataclass(eq=False, repr=False)  # eq=False: two entries are never one, even if alike
class Submission:
    """One entry of the folder. `id` is always safe to name a folder by;
    `name` is the entry's name as printable text (from `path` when not
    given); `path` opens it (bytes where the name is not UTF-8); `kind` is
    None for an entry that cannot be graded, and then `error` says why."""
    id: str
    path: Union[str, bytes]
    kind: Optional[str]       # "folder", "zip", "tar", "tar.gz", "tar.bz2", "tar.xz" or None
    name: Optional[str] = None
    error: Optional[str] = None  # for the gradebook: why this entry is not graded
    pattern: Optional[str] = None  # "matched" or "missed" under --id-pattern, else None
    too_large: List[str] = field(default_factory=list)  # files unpack() skipped for their size

    def __post_init__(self):
        if self.name is None:
            self.name = _printable(os.fsencode(os.path.basename(self.path)))

    def __repr__(self):
        return f"Submission({self.id}, {self.kind})"


class Rejected(Exception):
    """The submission cannot be unpacked; the message is for the gradebook."""


# ------------------------------------------------------------ discovery
def split_suffix(name):
    """(stem, kind) of an archive's name (str or bytes), the suffix matched
    whatever its case (Windows and macOS hand in "X.ZIP"); (name, None)
    for any other name."""
    lower = name.lower()
    for suffix, kind in ARCHIVE_SUFFIXES:
        suffix = suffix if isinstance(name, str) else suffix.encode()
        if lower.endswith(suffix) and len(name) > len(suffix):
            return name[: -len(suffix)], kind
    return name, None


def _unsupported_stem(raw):
    """The id in the name of a file we cannot grade ("x.rar", "x.tar.zst"):
    the name without its last extension (and a ".tar" before it), so that
    the row lands on the student it belongs to."""
    base, dot, _ = raw.rpartition(b".")
    if not dot or not base:
        return raw
    if base.lower().endswith(b".tar") and len(base) > 4:
        base = base[:-4]
    return base


def _printable(raw):
    """A name's bytes as one line of printable text: bytes that are not
    UTF-8 as \\xNN, control and other invisible characters escaped."""
    text = raw.decode("utf-8", errors="backslashreplace")
    out = []
    for c in text:
        if c.isprintable():
            out.append(c)
        elif c in "\n\r\t":
            out.append({"\n": "\\n", "\r": "\\r", "\t": "\\t"}[c])
        else:
            code = ord(c)
            out.append(f"\\x{code:02x}" if code < 0x100 else
                       f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")
    text = "".join(out)
    return text if len(text) <= 300 else text[:300] + "..."


def _check_id(stem):
    """(id, None) for a usable id, else (None, why it is not one)."""
    try:
        sid = stem.decode("utf-8")
    except UnicodeDecodeError:
        return None, "it is not valid UTF-8"
    if not sid:
        return None, "it is empty"
    if len(stem) > MAX_ID_BYTES:
        return None, f"it is longer than {MAX_ID_BYTES} bytes"
    if not sid.isprintable():
        return None, "it holds a control or other non-printable character"
    return nfc(sid), None  # NFD from a macOS zip tool is the same id


def _entry(folder, raw, notes, pattern=None):
    """The Submission for one raw entry name of the folder, or None for a
    dot-entry (noted, never graded). With `pattern` (compile_id_pattern),
    the id is what it finds in the name; a name it does not match keeps
    its own stem as the id."""
    name = _printable(raw)
    if raw.startswith(b"."):
        notes.append(f"skipped {name}: a dot-entry (hidden file or folder) is not graded")
        return None
    raw_path = os.path.join(os.fsencode(folder), raw)
    stem, kind = split_suffix(raw)
    error = None
    try:
        mode = os.lstat(raw_path).st_mode
    except OSError as e:
        mode, kind, error = 0, None, f"the entry cannot be read: {e.strerror or e}"
    if stat.S_ISLNK(mode):
        kind, error = None, ("a symbolic link: not followed (it could point anywhere on this "
                             "machine); hand in the folder or archive itself")
    elif stat.S_ISDIR(mode):
        stem, kind = raw, "folder"
    elif stat.S_ISREG(mode):
        if kind is None:
            stem = _unsupported_stem(raw)
            error = f"unsupported format: {name} (accepted: {ACCEPTED})"
    elif error is None:
        kind, error = None, "not a regular file or folder"
    sid, why = _check_id(stem)
    matched = None
    if pattern is not None and why is None:
        found = id_from_name(pattern, sid)
        matched = "missed" if found is None else "matched"
        if found is not None:
            sid, why = _check_id(found.encode("utf-8"))
    if why is not None:
        sid = "invalid-id-" + hashlib.sha256(raw).hexdigest()[:12]
        error = f"the name {name} is not a valid id: {why}{'; ' + error if error else ''}"
        notes.append(f"{name} is graded as {sid}: its name is not a valid id ({why})")
        return Submission(sid, raw_path, kind, name, error)
    return Submission(sid, os.fsdecode(raw_path), kind, name, error, pattern=matched)


def discover(folder, pattern=None):
    """(subs, notes): `subs` every entry's Submission sorted by id (a stable
    order makes --shard stable); `notes` lines for the instructor's log
    about entries that are not graded or are graded under another id.
    Names are read as bytes: a name that is not UTF-8 is a row, not a
    crash. `pattern`: --id-pattern's regex (compile_id_pattern)."""
    found, names, notes = {}, {}, []
    for raw in sorted(os.listdir(os.fsencode(folder))):
        sub = _entry(folder, raw, notes, pattern)
        if sub is None:
            continue
        if sub.id in found:
            names[sub.id].append(sub.name)
            listed = names[sub.id]
            count = "two" if len(listed) == 2 else len(listed)
            found[sub.id].error = (f"{count} entries for this id ({', '.join(listed[:-1])} and "
                                   f"{listed[-1]})")
            continue
        found[sub.id], names[sub.id] = sub, [sub.name]
    _look_alikes(found.values())
    return [found[k] for k in sorted(found)], notes


def _look_alikes(subs):
    """Entries whose ids differ only in case or outer spaces ("Alice.zip"
    and "alice/") are one student's, or a typo: each becomes an error row
    naming the others, never two rows that look like one student."""
    by_key = {}
    for sub in subs:
        by_key.setdefault(id_key(sub.id), []).append(sub)
    for group in by_key.values():
        if len(group) < 2:
            continue
        for sub in group:
            others = ", ".join(o.name for o in group if o is not sub)
            why = (f"its id looks like that of {others} (ids that differ only in case or "
                   "spaces are one student's): rename or remove all but one of them")
            sub.error = why + (f"; {sub.error}" if sub.error else "")


# ------------------------------------------------------------- unpacking
def _safe_relative(name):
    """The member's path relative to the submission, "/"-separated, per
    component: empty and "." components dropped, nothing stripped inside a
    component (".labs" stays ".labs"); "" for the top itself. An absolute
    path or a ".." is refused whole: the archive was made to escape."""
    parts = []
    name = name.replace("\\", "/")
    if name.startswith("/"):
        raise Rejected(f"the archive holds an unsafe path: {name[:200]!r}")
    for part in name.split("/"):
        if part == "..":
            raise Rejected(f"the archive holds an unsafe path: {name[:200]!r}")
        if part not in ("", "."):
            parts.append(part)
    return "/".join(parts)


class _Output:
    """Where the unpacked files go, with the cap on the bytes written in all."""
    def __init__(self, into):
        self.into = into
        self.written = 0

    def write(self, rel, data):
        self.written += len(data)
        if self.written > MAX_ARCHIVE_BYTES:
            raise Rejected(f"the submission holds more than {MAX_ARCHIVE_BYTES >> 20} MiB of files "
                           f"(of at most {MAX_FILE_BYTES >> 20} MiB each)")
        dest = os.path.join(self.into, *rel.split("/"))
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        with open(dest, "wb") as out:
            out.write(data)


def unpack(sub, into):
    """Unpacks (or copies) the submission under `into`; returns the folder
    that holds its files. Files over MAX_FILE_BYTES are skipped and listed
    in sub.too_large. Whatever the submission holds, the only exception is
    Rejected (its message for the gradebook); only a failure of this
    machine (disk full) passes through as it is."""
    if sub.error or sub.kind is None:
        raise Rejected(sub.error or f"unsupported format (accepted: {ACCEPTED})")
    os.makedirs(into, exist_ok=True)
    sub.too_large = []
    what = "folder" if sub.kind == "folder" else "zip" if sub.kind == "zip" else \
        f"{sub.kind} archive"
    try:
        lone = _lone_archive(sub.path) if sub.kind == "folder" else None
        if lone is not None:  # an LMS's folder around the archive handed in
            sub = dataclasses.replace(sub, path=lone[0], kind=lone[1])
            what = f"{sub.kind} archive in the folder"
        if sub.kind == "folder":
            _copy_folder(sub, _Output(into))
        elif sub.kind == "zip":
            _unzip(sub, _Output(into))
        else:
            _untar(sub, _Output(into))
    except Rejected:
        raise
    except OSError as e:
        if e.errno in ENVIRONMENT_ERRNOS:
            raise
        raise Rejected(_unreadable(what, e))
    except Exception as e:  # noqa: BLE001 - zlib.error, LZMAError, EOFError, ...: damaged data
        raise Rejected(_unreadable(what, e))
    return into


def _lone_archive(folder):
    """(path, kind) of the one archive a folder holds and nothing else, as
    Moodle's download puts each student's upload in a folder of its own;
    None for any other folder (a student's files, graded as they are)."""
    try:
        names = os.listdir(folder)
    except OSError:
        return None
    if len(names) != 1:
        return None
    path = os.path.join(folder, names[0])
    _, kind = split_suffix(names[0])
    if kind is None or not stat.S_ISREG(os.lstat(path).st_mode):
        return None
    return path, kind


def _unreadable(what, e):
    detail = str(e) or type(e).__name__
    return f"the {what} cannot be unpacked (damaged?): {detail}"[:300]


def _copy_folder(sub, output):
    """Copies the folder's regular files; links and devices are never
    followed, and a file too large is never read (its size is enough)."""
    src, count = sub.path, 0
    for folder, dirs, files in os.walk(src):  # os.walk does not enter linked folders
        dirs.sort()
        count += len(dirs) + len(files)
        if count > MAX_MEMBERS:
            raise Rejected(f"the folder holds more than {MAX_MEMBERS} files")
        for f in sorted(files):
            path = os.path.join(folder, f)
            rel = os.fsdecode(os.path.relpath(path, src)).replace(os.sep, "/")
            if not stat.S_ISREG(os.lstat(path).st_mode):
                continue
            data = _read_small_file(path)
            if data is TOO_LARGE:
                sub.too_large.append(rel)
            elif data is not None:
                output.write(rel, data)


def _read_small_file(path):
    """The file's bytes; TOO_LARGE when it is over MAX_FILE_BYTES (told by
    its size before reading, or by the one byte more read should it grow
    meanwhile); None when it is no longer a regular file. Opened without
    following a link or blocking on a FIFO put there meanwhile."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return None
        if st.st_size > MAX_FILE_BYTES:
            return TOO_LARGE
        data = f.read(MAX_FILE_BYTES + 1)
    return data if len(data) <= MAX_FILE_BYTES else TOO_LARGE


def _unzip(sub, output):
    with zipfile.ZipFile(sub.path) as z:
        members = z.infolist()
        if len(members) > MAX_MEMBERS:
            raise Rejected(f"the zip holds more than {MAX_MEMBERS} files")
        for m in members:
            rel = _safe_relative(m.filename)
            mode = (m.external_attr >> 16) & 0o170000
            if m.is_dir() or not rel or (mode and mode != stat.S_IFREG):
                continue  # folders are made as needed; links are ignored
            if m.file_size > MAX_FILE_BYTES:
                sub.too_large.append(rel)
                continue
            with z.open(m) as src:
                data = src.read(MAX_FILE_BYTES + 1)  # the header's size may lie
            if len(data) > MAX_FILE_BYTES:
                sub.too_large.append(rel)
                continue
            output.write(rel, data)


class _TarStream:
    """A tar's decompressed bytes as tarfile reads them, bounded: tarfile
    reads a long name or pax header whole, in one read of the size its
    (possibly forged) header claims, and skips a member by seeking, which
    in a compressed stream means decompressing it."""
    def __init__(self, raw, compressed):
        self.raw = raw
        self.compressed = compressed
        self.header_bytes = 0     # read for anything but the files we keep
        self.skipped = 0
        self.counting = True

    def read(self, n=-1):
        if not self.counting:  # a kept file's bytes: read by our own bounded request
            return self.raw.read(n)
        if n is None or n < 0 or n > MAX_ONE_READ:
            claim = "all the" if n is None or n < 0 else n
            raise Rejected(f"the archive holds a header that claims {claim} bytes (damaged?)")
        data = self.raw.read(n)
        self.header_bytes += len(data)
        if self.header_bytes > MAX_HEADER_BYTES:
            raise Rejected(f"the archive's headers are over {MAX_HEADER_BYTES >> 20} MiB "
                           "(damaged?)")
        return data

    def seek(self, offset, whence=os.SEEK_SET):
        if whence != os.SEEK_SET:
            raise Rejected("the archive cannot be read here (unexpected seek)")
        here = self.raw.tell()
        if self.compressed:  # forward: decompress the gap; backward: from the start
            self.skipped += offset - here if offset >= here else offset
            if self.skipped > MAX_SKIPPED_BYTES:
                raise Rejected(f"the archive unpacks to more than {MAX_SKIPPED_BYTES >> 20} MiB")
        return self.raw.seek(offset)

    def tell(self):
        return self.raw.tell()

    def seekable(self):
        return True


def _open_tar_data(path):
    """The tar inside, decompressed as its first bytes say (a .tar.gz that
    is a plain tar is read all the same): (file, compressed?)."""
    with open(path, "rb") as f:
        magic = f.read(6)
    if magic.startswith(b"\x1f\x8b"):
        return gzip.open(path, "rb"), True
    if magic.startswith(b"BZh"):
        return bz2.open(path, "rb"), True
    if magic.startswith(b"\xfd7zXZ\x00"):
        return lzma.open(path, "rb"), True
    return open(path, "rb"), False


def _untar(sub, output):
    raw, compressed = _open_tar_data(sub.path)
    with raw:
        stream = _TarStream(raw, compressed)
        t = tarfile.open(fileobj=stream, mode="r:")
        count = 0
        for m in t:
            count += 1
            if count > MAX_MEMBERS:
                raise Rejected(f"the archive holds more than {MAX_MEMBERS} files")
            if m.size < 0:
                raise Rejected("the archive holds a member of negative size (damaged?)")
            rel = _safe_relative(m.name)
            if not m.isreg() or not rel:
                continue  # links, devices and folders are never extracted
            if m.size > MAX_FILE_BYTES:
                sub.too_large.append(rel)  # skipped by seeking: never written anywhere
                continue
            stream.counting = False  # a file's bytes count in what is written
            try:
                data = t.extractfile(m).read(MAX_FILE_BYTES + 1)
            finally:
                stream.counting = True
            if len(data) > MAX_FILE_BYTES:
                sub.too_large.append(rel)
                continue
            output.write(rel, data)


# ------------------------------------------------------------- selection
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


def too_large_lab_files(too_large, lab_files, taken):
    """The files of `lab_files` the submission held but unpack() skipped
    for their size (`too_large`, paths from the submission's top), as the
    whitelist names them: such a lab is "too large", not "not submitted".
    The lab may sit up to two folders down (find_course_root); a file also
    taken from the course root found is not one."""
    found = []
    for path in too_large:
        parts = path.split("/")
        for drop in range(3):
            rel = "/".join(parts[drop:])
            if rel in lab_files and rel not in taken and rel not in found:
                found.append(rel)
    return sorted(found)


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
