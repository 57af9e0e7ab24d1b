"""Small helpers every stage uses: atomic writes, JSON, logging once."""
import json
import os
import sys
import tempfile
import unicodedata

_said = set()


def say(message):
    """A line for the instructor on stderr (the progress bar owns stdout's line)."""
    sys.stderr.write(message.rstrip("\n") + "\n")
    sys.stderr.flush()


def say_once(key, message):
    """Says a message the first time only (sandbox fallback, no GPU, ...)."""
    if key not in _said:
        _said.add(key)
        say(message)


def nfc(sid):
    """An id as the batch compares it: Unicode NFC. macOS zip tools write
    names in NFD ("e" + a combining accent), rosters and LMSs in NFC: the
    same student either way."""
    return unicodedata.normalize("NFC", sid)


def id_key(sid):
    """What makes two ids look alike: NFC, case folded, outer spaces
    stripped. Two ids with one key are never two students' rows (one
    student with a renamed entry, or a typo): the batch makes them an
    error for the instructor to settle."""
    return nfc(nfc(sid).casefold()).strip()


def fmt(x):
    """A number as every output prints it: rounded to 2 decimals, none when whole."""
    x = round(float(x), 2)
    return str(int(x)) if x.is_integer() else f"{x:.2f}"


def write_atomic(path, data):
    """Writes bytes or text to a temporary file beside `path` and renames it
    into place, so a reader (or a batch killed half-way) never sees half a
    file: either the old file, or none, or the whole new one."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=os.path.basename(path) + ".", suffix=".tmp", dir=folder)
    try:
        os.fchmod(fd, 0o644)  # mkstemp's 0600 would hide results from a web server or TA
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def write_json_atomic(path, value):
    write_atomic(path, json.dumps(value, indent=2, sort_keys=False) + "\n")


def read_json(path, default=None):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return default


def read_text(path, limit=None):
    try:
        with open(path, "rb") as f:
            data = f.read() if limit is None else f.read(limit)
        return data.decode("utf-8", errors="replace")
    except OSError:
        return ""
