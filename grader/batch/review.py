"""The review list: static flags on a submission's code that an instructor
should look at. None of them costs points; they point at what the sandbox
cannot stop (a student forging their own result from inside their own
process) and at what the labs do not need. A call the pristine skeleton
itself makes is not flagged (lab 6 is about streams)."""
import bisect
import re
from typing import Dict, List

from .records import LabRecord, ReviewFlag
from .score import SpeedCurve

# (flag, pattern, applies to code with comments and strings removed?)
RULES = [
    ("process control", r"\b(exit|_exit|_Exit|quick_exit|abort|atexit|fork|vfork|clone|system|popen|"
                        r"exec[lv]p?e?|kill|raise|signal|sigaction|setsid|ptrace|prctl)\s*\(", True),
    ("file or network call", r"\b(fopen|freopen|open|openat|creat|fdopen|remove|unlink|rename|mkdir|"
                             r"rmdir|opendir|chdir|socket|connect|bind|listen|getaddrinfo|"
                             r"gethostbyname|dup2|mmap|ifstream|ofstream|fstream)\s*[\(<]", True),
    ("dynamic symbol lookup", r"\b(dlsym|dlopen|dlvsym)\s*\(", True),
    # The ways to a process's memory that no include spells (a raw system
    # call: syscall(SYS_openat, ...)), or to another process's.
    ("raw system call or another process's memory",
     r"\b(syscall|process_vm_readv|process_vm_writev)\s*\(", True),
    # The graders' own settings come through the environment (the
    # calibrated thresholds: grader/support/calibrated.h); no lab needs to
    # change it.
    ("environment change", r"\b(setenv|putenv|unsetenv|clearenv)\s*\(|\benviron\b", True),
    # How code finds the grader's memory in its own process (design.md,
    # "Residual risk"): its map, its descriptors, the records' names.
    ("the process's own memory or descriptors",
     r"/proc/(self|thread-self|%d|\d+)\b|/dev/fd\b|grader-(record|calls)|\bharness_shared\b", False),
    ("constructor or destructor", r"__attribute__\s*\(\(\s*(constructor|destructor)|"
                                  r"\b__(constructor|destructor)__", True),
    ("inline PTX or assembly", r"\basm\s*(volatile\s*)?\(|__asm__|\basm\s+volatile", True),
    ("extra streams", r"\bcudaStream(Create\w*)\s*\(", True),  # unless the lab is about streams
    ("device-limit or device-wide call", r"\bcuda(DeviceSetLimit|DeviceSetCacheConfig|DeviceReset|"
                                         r"SetDevice|DeviceSetSharedMemConfig|FuncSetAttribute|"
                                         r"ProfilerStart|ProfilerStop|DeviceSetMemPool)\s*\(", True),
    ("library the lab forbids", r"\b(cublas\w*|cusparse\w*|cudnn\w*|cutlass|thrust::|cub::)", True),
    # The path and the count of tests are bounded (a path within its line,
    # a count from its first digit): an open-ended repetition before a word
    # would be tried again from every position of a long line.
    ("include from outside the lab",
     r'#\s*include\s*[<"](/|\.\./|[^">\n]{0,255}(solutions|grader|prebuilt)/)', False),
    ("text imitating the grader's result lines",
     r'\b(PASS|FAIL|SKIP|TIMEOUT)\s{2,}|Score\s+((CPU|GPU)\s+)?(\d+\s*/\s*\d+|not\s+graded)|'
     r'(?<!\d)\d+\s+passed,\s*\d+\s+failed|'
     r'"status"\s*:\s*"pass|results:\s', False),
]
COMPILED = [(flag, re.compile(p), strip) for flag, p, strip in RULES]
# A rule does not apply to a lab whose pristine skeleton mentions this (in
# code or comments): lab 6 teaches streams; a lab whose baseline is cuBLAS
# says so in its skeleton.
LAB_TEACHES = {"extra streams": re.compile(r"cudaStream"),
               "library the lab forbids": re.compile(r"cublas", re.I)}

SPEED_FLAG = "speed ratio far beyond the reference's"
# The review runs in a thread of the batch, holding the GIL: every step is
# linear in the file, and the file is cut where no lab file ever ends.
MAX_REVIEW_CHARS = 512 << 10
CUT_FLAG = "file too large to review fully"
EXCERPT_CHARS = 160
MAX_FLAGS_PER_RULE = 20   # per file: then one line with the count of the rest

_TOKEN = re.compile(r'//|/\*|"|\'')
# A literal's body up to its closing quote, an unescaped newline or the
# end (unrolled: no nested repetition to backtrack through).
_BODY = {'"': re.compile(r'[^"\\\n]*(?:\\.[^"\\\n]*)*', re.S),
         "'": re.compile(r"[^'\\\n]*(?:\\.[^'\\\n]*)*", re.S)}


def _blank(segment):
    return " " * len(segment) if "\n" not in segment else re.sub(r"[^\n]", " ", segment)


def strip_comments_and_strings(code):
    """Blanks comments and string and character literals, keeping every
    character's offset and line. One pass, linear: a "/*" never closed
    blanks to the end (the compiler refuses the file anyway); a quote never
    closed on its line stays code (as the compiler sees 1'000, a C++ digit
    separator), and so does every quote of the same kind after it on that
    line: each of them was read as escaped while looking for the first
    one's end, so looking again from any of them would fail the same way.
    A ' right after a letter, digit or _ opens no literal: 1'000 is a
    number, and would otherwise hide the code up to the next '."""
    out, copied, i, n = [], 0, 0, len(code)
    dead = {'"': -1, "'": -1}  # a quote of this kind before here opens nothing
    while True:
        m = _TOKEN.search(code, i)
        if m is None:
            break
        start, token = m.start(), m.group()
        if token == "//":
            end = code.find("\n", start)
            end = n if end < 0 else end
        elif token == "/*":
            end = code.find("*/", start + 2)
            end = n if end < 0 else end + 2
        else:
            if start < dead[token] or (token == "'" and start and
                                       (code[start - 1].isalnum() or code[start - 1] == "_")):
                i = start + 1
                continue
            body_end = _BODY[token].match(code, start + 1).end()
            if body_end < n and code[body_end] == token:
                end = body_end + 1
            else:
                dead[token] = body_end
                i = start + 1
                continue
        out.append(code[copied:start])
        out.append(_blank(code[start:end]))
        copied = i = end
    out.append(code[copied:])
    return "".join(out)


def _line_starts(text):
    return [0] + [m.end() for m in re.finditer("\n", text)]


def _excerpt(text, starts, line, pos):
    """The flagged line, stripped, as before; a long line only around the
    match (and never copied whole: a file may be one line)."""
    begin = starts[line - 1]
    end = starts[line] - 1 if line < len(starts) else len(text)
    if end - begin > 4 * EXCERPT_CHARS:
        begin = max(begin, pos - EXCERPT_CHARS // 4)
        end = min(end, begin + 2 * EXCERPT_CHARS)
    return text[begin:end].strip()[:EXCERPT_CHARS]


def flags_for_file(rel, text, pristine_text) -> List[ReviewFlag]:
    """The review flags of one whitelisted file: at most
    MAX_FLAGS_PER_RULE of each flag, then one that counts the others; only
    its first MAX_REVIEW_CHARS are read (then a flag says so)."""
    found = []
    if len(text) > MAX_REVIEW_CHARS:
        found.append(ReviewFlag(rel, 0, CUT_FLAG, f"only the first {MAX_REVIEW_CHARS} of its "
                                                  f"{len(text)} characters were reviewed"))
        text = text[:MAX_REVIEW_CHARS]
    pristine_text = pristine_text or ""
    stripped = strip_comments_and_strings(text)
    pristine_stripped = strip_comments_and_strings(pristine_text)
    starts = _line_starts(text)  # the stripped text has the same lines
    for flag, rx, strip in COMPILED:
        if flag in LAB_TEACHES and LAB_TEACHES[flag].search(pristine_text):
            continue
        allowed = {m.group(0) for m in rx.finditer(pristine_stripped if strip else pristine_text)}
        count = 0
        for m in rx.finditer(stripped if strip else text):
            if m.group(0) in allowed:
                continue
            count += 1
            if count <= MAX_FLAGS_PER_RULE:
                line = bisect.bisect_right(starts, m.start())
                found.append(ReviewFlag(rel, line, flag, _excerpt(text, starts, line, m.start())))
        if count > MAX_FLAGS_PER_RULE:
            found.append(ReviewFlag(rel, 0, flag, f"and {count - MAX_FLAGS_PER_RULE} more in this file"))
    return found


def speed_flags(lab_record: LabRecord, curve: Dict[str, SpeedCurve]) -> List[ReviewFlag]:
    """Speed ratios far beyond the reference solution's: more than 1.5x the
    reference's median where the test's curve gives it (labN_rubric.h, via
    the rubric: score.curve_from_rubric), else more than 3x the threshold
    (the physical floor check catches the impossible; this catches the
    implausible)."""
    found = []
    for t in lab_record.tests:
        ratio, threshold = t.ratio, t.threshold
        if ratio is None or threshold is None:
            continue
        spec = curve.get(t.name)
        reference = spec.reference if spec else None
        limit = 1.5 * reference if reference else 3.0 * threshold
        if ratio > limit:
            why = "1.5x the reference" if reference else "3x the threshold"
            found.append(ReviewFlag(lab_record.lab, 0, SPEED_FLAG,
                                    f"{t.name}: ratio {ratio:.3f}, over {limit:.3f} ({why})"))
    return found
