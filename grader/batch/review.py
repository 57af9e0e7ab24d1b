"""The review list: static flags on a submission's code that an instructor
should look at. None of them costs points; they point at what the sandbox
cannot stop (a student forging their own result from inside their own
process) and at what the labs do not need. A call the pristine skeleton
itself makes is not flagged (lab 6 is about streams)."""
import re

# (flag, pattern, applies to code with comments and strings removed?)
RULES = [
    ("process control", r"\b(exit|_exit|_Exit|quick_exit|abort|atexit|fork|vfork|clone|system|popen|"
                        r"exec[lv]p?e?|kill|raise|signal|sigaction|setsid|ptrace|prctl)\s*\(", True),
    ("file or network call", r"\b(fopen|freopen|open|openat|creat|fdopen|remove|unlink|rename|mkdir|"
                             r"rmdir|opendir|chdir|socket|connect|bind|listen|getaddrinfo|"
                             r"gethostbyname|dup2|mmap|ifstream|ofstream|fstream)\s*[\(<]", True),
    ("dynamic symbol lookup", r"\b(dlsym|dlopen|dlvsym)\s*\(", True),
    ("constructor or destructor", r"__attribute__\s*\(\(\s*(constructor|destructor)|"
                                  r"\b__(constructor|destructor)__", True),
    ("inline PTX or assembly", r"\basm\s*(volatile\s*)?\(|__asm__|\basm\s+volatile", True),
    ("extra streams", r"\bcudaStream(Create\w*)\s*\(", True),  # unless the lab is about streams
    ("device-limit or device-wide call", r"\bcuda(DeviceSetLimit|DeviceSetCacheConfig|DeviceReset|"
                                         r"SetDevice|DeviceSetSharedMemConfig|FuncSetAttribute|"
                                         r"ProfilerStart|ProfilerStop|DeviceSetMemPool)\s*\(", True),
    ("library the lab forbids", r"\b(cublas\w*|cusparse\w*|cudnn\w*|cutlass|thrust::|cub::)", True),
    ("include from outside the lab", r'#\s*include\s*[<"](/|\.\./|[^">]*(solutions|grader|prebuilt)/)',
     False),
    ("text imitating the grader's result lines",
     r'\b(PASS|FAIL|SKIP|TIMEOUT)\s{2,}|Score\s+\d+\s*/\s*\d+|\d+\s+passed,\s*\d+\s+failed|'
     r'"status"\s*:\s*"pass|results:\s', False),
]
COMPILED = [(flag, re.compile(p), strip) for flag, p, strip in RULES]
# A rule does not apply to a lab whose pristine skeleton mentions this (in
# code or comments): lab 6 teaches streams; a lab whose baseline is cuBLAS
# says so in its skeleton.
LAB_TEACHES = {"extra streams": re.compile(r"cudaStream"),
               "library the lab forbids": re.compile(r"cublas", re.I)}

SPEED_FLAG = "speed ratio far beyond the reference's"


def strip_comments_and_strings(code):
    """Blanks comments and string literals, keeping line numbers."""
    def blank(m):
        return re.sub(r"[^\n]", " ", m.group(0))
    return re.sub(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', blank, code,
                  flags=re.S)


def flags_for_file(rel, text, pristine_text):
    """[{file, line, flag, excerpt}] for one whitelisted file."""
    stripped = strip_comments_and_strings(text)
    pristine_stripped = strip_comments_and_strings(pristine_text or "")
    lines = text.splitlines()
    found = []
    for flag, rx, strip in COMPILED:
        if flag in LAB_TEACHES and LAB_TEACHES[flag].search(pristine_text or ""):
            continue
        allowed = {m.group(0) for m in rx.finditer(pristine_stripped if strip else (pristine_text or ""))}
        for m in rx.finditer(stripped if strip else text):
            if m.group(0) in allowed:
                continue
            line = (stripped if strip else text).count("\n", 0, m.start()) + 1
            excerpt = lines[line - 1].strip() if line - 1 < len(lines) else ""
            found.append({"file": rel, "line": line, "flag": flag, "excerpt": excerpt[:160]})
    return found


def speed_flags(lab_record, curve):
    """Speed ratios far beyond the reference solution's: more than 1.5x the
    reference's median where the lab's curve file gives it, else more than
    3x the threshold (the physical floor check catches the impossible; this
    catches the implausible)."""
    found = []
    for t in lab_record["tests"]:
        ratio, threshold = t.get("ratio"), t.get("threshold")
        if ratio is None or threshold is None:
            continue
        reference = (curve.get(t["name"]) or {}).get("reference")
        limit = 1.5 * reference if reference else 3.0 * threshold
        if ratio > limit:
            found.append({"file": lab_record["lab"], "line": 0, "flag": SPEED_FLAG,
                          "excerpt": "%s: ratio %.3f, over %.3f (%s)" % (
                              t["name"], ratio, limit,
                              "1.5x the reference" if reference else "3x the threshold")})
    return found
