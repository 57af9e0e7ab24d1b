"""Symbol check of a student's objects against everything else on a link line.
Student code is linked into the grader's process, so a student object that
defines a name the harness, the grader, common/, grader/support/, an answer
library, libc or cudart also defines can take that name over (archives: the
first definition wins; a definition the grader's objects only reference;
weak symbols), and a weak reference lets student code reach a grader-side
function (a cuBLAS wrapper) while still linking anywhere else.

    defined_and_undefined(path)      one file's global symbols (nm -P)
    collisions(students, others)     what the student's objects collide with
    link_inputs_from_argv(argv, cwd) the files a link command line reads

Command line (exit 0: none, 1: collisions, 2: usage or tool errors):

    python3 -m batch.symbols [--nm NM] [--cwd DIR] [--exclude NAME]...
        --student a.o [b.o | lib.a ...] -- <link command argv...>

Standard library only; nm and c++filt (binutils) do the reading."""
import os
import re
import shlex
import shutil
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

# nm type letters. Lowercase letters are local symbols, except i (GNU
# indirect function: memcpy, strlen in libc), u (GNU unique global) and the
# weak undefined w/v.
STRONG_DEFINED = frozenset("TDBRSGACIi")
WEAK_DEFINED = frozenset("WVu")
DEFINED = STRONG_DEFINED | WEAK_DEFINED
UNDEFINED = frozenset("U")
WEAK_UNDEFINED = frozenset("wv")

REDEFINES = "redefines"
WEAK_REDEFINITION = "weak redefinition"
WEAK_REFERENCE = "weak reference"

# Weak definitions that every C++ or nvcc object may carry with the same
# name and, by construction, the same contents: inline functions, template
# instantiations, vtables and typeinfo of header code (C++ mangled, _Z...),
# the exception personality's indirection, and the host references nvcc
# -rdc=true emits into every object. Only exempt when every definition of
# the name, the student's and the other inputs', is weak: a strong one
# anywhere is a redefinition. Names nvcc makes per file
# (__fatbinwrap_<module id>, __cudaRegisterLinkedBinary_<module id>, kernel
# stubs named after the kernel) are not exempt: they cannot meet by
# accident, and when they do meet it is on purpose.
_SHARED_WEAK = re.compile(r"^(_Z|DW\.ref\.|hostRef(Constant|Device|Kernel)Array"
                          r"(External|Internal)Linkage$)")

# A weak reference gains nothing over a plain call when the only definitions
# are in the C/C++ runtime or the CUDA runtime every lab calls anyway (and
# libstdc++'s headers take weak references to libpthread on older glibc).
_RUNTIME_LIBRARY = re.compile(
    r"^(libc|libc_nonshared|libm|libmvec|libpthread|libdl|librt|libutil|ld-linux[-.\w]*|"
    r"libstdc\+\+|libsupc\+\+|libgcc|libgcc_s|libgcc_eh|libcudart|libcudart_static|"
    r"libcudadevrt)(\.so[.\d]*|\.a)$")


class SymbolError(RuntimeError):
    """nm failed or an input could not be read."""


# ---------------------------------------------------------------- reading

def _file_kind(path):
    """'archive', 'shared', 'object' (any other ELF), 'script' (a GNU ld
    script such as libc.so) or 'other'."""
    with open(path, "rb") as f:
        head = f.read(4096)
    if head.startswith(b"!<arch>\n") or head.startswith(b"!<thin>\n"):
        return "archive"
    if head.startswith(b"\x7fELF") and len(head) >= 18:
        order = "little" if head[5] == 1 else "big"
        return "shared" if int.from_bytes(head[16:18], order) == 3 else "object"
    try:
        text = head.decode("ascii")
    except UnicodeDecodeError:
        return "other"
    if re.search(r"\b(GROUP|INPUT)\s*\(", text):
        return "script"
    return "other"


def _strip_version(name):
    # nm -D prints malloc@@GLIBC_2.2.5; the linker matches on the bare name.
    at = name.find("@")
    return name[:at] if at > 0 else name


def _run_nm(path, nm, dynamic):
    args = [nm, "-P", "-g"]
    if dynamic:
        args += ["-D", "--defined-only"]
    args.append(path)
    try:
        proc = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              env=dict(os.environ, LC_ALL="C"))
    except OSError as e:
        raise SymbolError(f"cannot run {nm}: {e}")
    err = proc.stderr.decode(errors="replace")
    if proc.returncode != 0:
        # Archive members and stripped libraries without symbols are only
        # warnings; anything else (not an object, truncated) is an error.
        real = [l for l in err.splitlines() if l.strip() and "no symbols" not in l]
        if real:
            raise SymbolError(f"{nm} failed on {path}: {' '.join(real)[:500]}")
    return proc.stdout.decode(errors="replace")


def _parse_nm(path, text):
    """nm -P output -> [(member or None, {name: type}, undefined, weak_refs)]."""
    members = []
    current = None
    defined, undefined, weak_refs = {}, set(), set()
    prefix = path + "["
    for line in text.splitlines():
        if not line.strip():
            continue
        if line.endswith("]:") and line.startswith(prefix):
            if current is not None or defined or undefined or weak_refs:
                members.append((current, defined, undefined, weak_refs))
            current = line[len(prefix):-2]
            defined, undefined, weak_refs = {}, set(), set()
            continue
        fields = line.split()
        if len(fields) < 2 or len(fields[1]) != 1:
            continue
        name, kind = _strip_version(fields[0]), fields[1]
        if kind in DEFINED:
            old = defined.get(name)
            if old is None or (old in WEAK_DEFINED and kind in STRONG_DEFINED):
                defined[name] = kind
        elif kind in UNDEFINED:
            undefined.add(name)
        elif kind in WEAK_UNDEFINED:
            weak_refs.add(name)
    if current is not None or defined or undefined or weak_refs:
        members.append((current, defined, undefined, weak_refs))
    return members


_cache = {}
_cache_lock = threading.Lock()


def _members(path, nm="nm", cache=True):
    """Per member (None for a plain object or library): the global symbols.
    Cached per path, size, mtime and inode for inputs shared by many
    students; the student's own objects are read afresh (cache=False)."""
    st = os.stat(path)
    key = (os.path.realpath(path), st.st_size, st.st_mtime_ns, st.st_ino, nm)
    if cache:
        with _cache_lock:
            hit = _cache.get(key)
        if hit is not None:
            return hit
    kind = _file_kind(path)
    if kind not in ("archive", "shared", "object"):
        raise SymbolError(f"{path} is not an object, archive or shared library")
    members = _parse_nm(path, _run_nm(path, nm, kind == "shared"))
    if kind == "shared":
        # Version nodes (GLIBC_2.2.5 A) are not symbols anyone links to.
        for _, defined, _, _ in members:
            for name in [n for n, t in defined.items() if t == "A"]:
                del defined[name]
    if cache:
        with _cache_lock:
            _cache[key] = members
    return members


def clear_cache():
    """Forgets every file read (the student's never were kept)."""
    with _cache_lock:
        _cache.clear()
        _tables.clear()


def defined_and_undefined(path, nm="nm"):
    """One file's global symbols, all members of an archive together:
    (defined: {name: nm type letter}, undefined: set, weak_refs: set (w/v:
    weak undefined), weak_defs: set (W/V/u)). A name some member defines is
    not undefined. Shared libraries are read with -D (their dynamic,
    exported symbols); versions (@GLIBC_...) are dropped from names."""
    defined, undefined, weak_refs = {}, set(), set()
    for _, d, u, w in _members(path, nm):
        for name, kind in d.items():
            old = defined.get(name)
            if old is None or (old in WEAK_DEFINED and kind in STRONG_DEFINED):
                defined[name] = kind
        undefined |= u
        weak_refs |= w
    undefined -= defined.keys()
    weak_refs -= defined.keys()
    weak_defs = {n for n, t in defined.items() if t in WEAK_DEFINED}
    return defined, undefined, weak_refs, weak_defs


# ---------------------------------------------------------------- checking

def _owner_table(path, nm):
    """name -> (type, member) over a whole input, strongest definition kept."""
    table = {}
    for member, defined, _, _ in _members(path, nm):
        for name, kind in defined.items():
            old = table.get(name)
            if old is None or (old[0] in WEAK_DEFINED and kind in STRONG_DEFINED):
                table[name] = (kind, member)
    return table


_tables = {}


def _cached_owner_table(path, nm):
    st = os.stat(path)
    key = (os.path.realpath(path), st.st_size, st.st_mtime_ns, st.st_ino, nm)
    with _cache_lock:
        hit = _tables.get(key)
    if hit is None:
        hit = _owner_table(path, nm)
        with _cache_lock:
            _tables[key] = hit
    return hit


def demangle(names, cxxfilt="c++filt"):
    """{name: demangled}, one c++filt for all mangled names."""
    names = list(dict.fromkeys(names))
    out = {n: n for n in names}
    mangled = [n for n in names if n.startswith("_Z")]
    if not mangled:
        return out
    try:
        proc = subprocess.run([cxxfilt], input="\n".join(mangled) + "\n",
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              universal_newlines=True)
    except OSError:
        return out
    lines = proc.stdout.splitlines()
    if proc.returncode == 0 and len(lines) == len(mangled):
        out.update(zip(mangled, lines))
    return out


def _same_file(a, b):
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def collisions(student_objects, other_inputs, nm="nm"):
    """Student objects (or archives of them) against the other link inputs
    (objects, static archives, shared libraries; linker scripts expanded).
    Returns one dict per finding, in student and symbol order:
      symbol     the linker's name
      demangled  c++filt's reading of it
      kind       "redefines": the student defines (strongly) a name another
                   input defines;
                 "weak redefinition": the student's definition is weak and
                   another input's is strong, or every definition is weak
                   but the name is not shared header code (see _SHARED_WEAK);
                 "weak reference": the student takes a weak reference to a
                   name no student object defines and another input does
                   (the C/C++ and CUDA runtimes excepted)
      owner      basename of the first input (link order) defining it
      owners     all of them
      member     the owner's archive member, or None
      object     the student object's basename (archive member name)
    Other inputs that are one of the student files are skipped."""
    students = []
    for path in student_objects:
        for member, defined, _, weak_refs in _members(path, nm, cache=False):
            students.append((member or os.path.basename(path), defined, weak_refs))
    student_defined = set()
    for _, defined, _ in students:
        student_defined.update(defined)

    others = []
    for path in _expand_scripts(other_inputs, []):
        if any(_same_file(path, s) for s in student_objects):
            continue
        if any(_same_file(path, o) for o in others):
            continue
        others.append(path)
    with ThreadPoolExecutor(max_workers=max(1, min(8, len(others)))) as pool:
        tables = list(pool.map(lambda p: _cached_owner_table(p, nm), others))
    owned = list(zip([os.path.basename(p) for p in others], tables))

    found = []
    for obj, defined, weak_refs in students:
        for name in sorted(defined):
            hits = [(owner, table[name]) for owner, table in owned if name in table]
            if not hits:
                continue
            kind = defined[name]
            if kind in STRONG_DEFINED:
                what = REDEFINES
            elif all(t in WEAK_DEFINED for _, (t, _) in hits) and _SHARED_WEAK.match(name):
                continue
            else:
                what = WEAK_REDEFINITION
            found.append(_finding(name, what, hits, obj))
        for name in sorted(weak_refs - student_defined):
            hits = [(owner, table[name]) for owner, table in owned if name in table]
            if not hits or all(_RUNTIME_LIBRARY.match(owner) for owner, _ in hits):
                continue
            found.append(_finding(name, WEAK_REFERENCE, hits, obj))
    readable = demangle([f["symbol"] for f in found])
    for f in found:
        f["demangled"] = readable[f["symbol"]]
    return found


def _finding(name, what, hits, obj):
    return {"symbol": name, "demangled": name, "kind": what, "owner": hits[0][0],
            "owners": list(dict.fromkeys(owner for owner, _ in hits)),
            "member": hits[0][1][1], "object": obj}


def describe(finding):
    """One line for a log or a student's report."""
    owner = finding["owner"]
    if finding.get("member"):
        owner += f"({finding['member']})"
    name = finding["demangled"]
    if name != finding["symbol"]:
        name += f" [{finding['symbol']}]"
    if finding["kind"] == WEAK_REFERENCE:
        return f"{finding['object']}: weak reference to {name}, defined by {owner}"
    return f"{finding['object']}: {finding['kind']} {name}, also defined by {owner}"


# ---------------------------------------------------------------- link lines

# Options of gcc/g++/clang/nvcc that take the next word as their argument.
_ARG_OPTIONS = {"-o", "-x", "-u", "-T", "-e", "-z", "-I", "-isystem", "-iquote", "-include",
                "-D", "-U", "-MF", "-MT", "-MQ", "-B", "-ccbin", "--compiler-bindir",
                "-Xcompiler", "--compiler-options", "-arch", "--gpu-architecture", "-code",
                "-gencode", "--generate-code", "--options-file", "-Xnvlink", "-Xptxas",
                "-Xarchive", "-odir", "--output-directory", "-specs", "--sysroot",
                "-include-pch", "-Xassembler", "-Xpreprocessor", "-Xclang"}
_LINKER_ARG_OPTIONS = {"-rpath", "-rpath-link", "-soname", "-h", "-o", "-e", "-T",
                       "--dynamic-linker", "-dynamic-linker", "-Map", "--version-script",
                       "-z", "-u", "--dependency-file", "-y", "--wrap", "--defsym",
                       "-plugin", "-plugin-opt"}
_CXX_DRIVER = re.compile(r"(\+\+|nvcc)")
_DEFAULT_DIRS = ["/usr/local/lib", "/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu",
                 "/lib64", "/usr/lib64", "/lib", "/usr/lib"]
_search_dirs_cache = {}


def compiler_search_dirs(driver):
    """The library directories a gcc-like driver hands the linker
    (gcc -print-search-dirs), cached per driver; nvcc links through the
    host compiler, so it asks g++; ld's own defaults if nothing answers."""
    if os.path.basename(driver).startswith("nvcc") or not driver:
        driver = "g++"
    key = (driver, os.environ.get("LIBRARY_PATH", ""))
    if key in _search_dirs_cache:
        return _search_dirs_cache[key]
    dirs = []
    try:
        out = subprocess.run([driver, "-print-search-dirs"], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, universal_newlines=True,
                             timeout=30).stdout
        for line in out.splitlines():
            if line.startswith("libraries:"):
                dirs = [os.path.normpath(d) for d in line.split(":", 1)[1].strip().lstrip("=")
                        .split(os.pathsep) if d]
    except (OSError, subprocess.SubprocessError):
        pass
    for d in _DEFAULT_DIRS:
        if d not in dirs:
            dirs.append(d)
    dirs = [d for d in dict.fromkeys(dirs) if os.path.isdir(d)]
    _search_dirs_cache[key] = dirs
    return dirs


def _find_library(name, dirs, static):
    """-lname (or -l:file) the way ld looks: each directory in order, the
    shared library before the archive unless static."""
    if name.startswith(":"):
        candidates = [name[1:]]
    elif static:
        candidates = [f"lib{name}.a"]
    else:
        candidates = [f"lib{name}.so", f"lib{name}.a"]
    for d in dirs:
        for c in candidates:
            p = os.path.join(d, c)
            if os.path.isfile(p):
                return p
    return None


def _script_inputs(path, dirs):
    """The files a GNU ld script (libc.so: GROUP ( libc.so.6 libc_nonshared.a
    AS_NEEDED ( ld-linux-x86-64.so.2 ) )) names, resolved."""
    with open(path, errors="replace") as f:
        text = re.sub(r"/\*.*?\*/", " ", f.read(), flags=re.S)
    out = []
    for block in re.finditer(r"\b(?:GROUP|INPUT)\s*\(((?:[^()]|\([^()]*\))*)\)", text):
        words = re.sub(r"\bAS_NEEDED\b|[(),]", " ", block.group(1)).split()
        for w in words:
            if w.startswith("-l"):
                found = _find_library(w[2:], [os.path.dirname(path)] + dirs, False)
            elif w.startswith("="):
                found = w[1:] if os.path.isfile(w[1:]) else None
            elif os.path.isabs(w):
                found = w if os.path.isfile(w) else None
            else:
                found = _find_library(":" + w, [os.path.dirname(path)] + dirs, False)
            if found:
                out.append(found)
    return out


def _expand_scripts(paths, dirs, depth=0):
    out = []
    for p in paths:
        if depth < 4 and os.path.isfile(p) and _file_kind(p) == "script":
            out += _expand_scripts(_script_inputs(p, dirs or compiler_search_dirs("")), dirs,
                                   depth + 1)
        else:
            out.append(p)
    return out


def _expand_response_files(args, cwd, depth=0):
    out = []
    for a in args:
        path = os.path.join(cwd, a[1:]) if a.startswith("@") else None
        if path and depth < 8 and os.path.isfile(path):
            with open(path) as f:
                out += _expand_response_files(shlex.split(f.read()), cwd, depth + 1)
        else:
            out.append(a)
    return out


def link_inputs_from_argv(argv, cwd, exclude=(), implicit=True, missing=None):
    """The files a link command line (argv[0] the compiler driver) reads, in
    link order, once each: objects, archives and shared libraries named by
    path (relative to cwd) or by -l (-L directories first, then the
    driver's own search directories, -Bstatic/-static honoured), linker
    scripts replaced by what they name, @response files read, and unless
    implicit=False (or -nostdlib/-nodefaultlibs) the libraries the driver
    adds by itself: libstdc++ and libm for a C++ driver (g++, nvcc), libgcc_s,
    libgcc and libc for all. exclude: basenames or paths to leave out (the
    student's own library when its objects are checked instead). missing:
    a list that receives what could not be found."""
    args = _expand_response_files(list(argv), cwd)
    driver = args[0] if args else "cc"
    lib_dirs = []
    entries = []          # ("file", path) or ("lib", name, static)
    static = False
    nodefault = False
    cudart = "static"     # nvcc's default
    skip = 0
    linker_skip = 0

    def linker_word(w):
        nonlocal static, linker_skip
        if linker_skip:
            linker_skip -= 1
        elif w in ("-Bstatic", "-dn", "-non_shared", "-static"):
            static = True
        elif w in ("-Bdynamic", "-dy", "-call_shared"):
            static = False
        elif w.startswith("-L") and len(w) > 2:
            lib_dirs.append(os.path.join(cwd, w[2:]))
        elif w.startswith("-l") and len(w) > 2:
            entries.append(("lib", w[2:], static))
        elif w in _LINKER_ARG_OPTIONS or w in ("-L", "-l"):
            linker_skip = 1
        elif not w.startswith("-"):
            entries.append(("file", os.path.join(cwd, w)))

    i = 0
    while i < len(args):
        a = args[i]
        i += 1
        if skip:
            skip -= 1
            continue
        if i == 1:
            continue                       # the driver
        if a == "-Xlinker":
            if i < len(args):
                linker_word(args[i])
            i += 1
        elif a.startswith("-Wl,"):
            for w in a[4:].split(","):
                linker_word(w)
        elif a == "-L":
            if i < len(args):
                lib_dirs.append(os.path.join(cwd, args[i]))
            i += 1
        elif a.startswith("-L"):
            lib_dirs.append(os.path.join(cwd, a[2:]))
        elif a == "-l":
            if i < len(args):
                entries.append(("lib", args[i], static))
            i += 1
        elif a.startswith("-l"):
            entries.append(("lib", a[2:], static))
        elif a == "-static":
            static = True
        elif a in ("-nostdlib", "-nodefaultlibs"):
            nodefault = True
        elif a in ("-cudart", "--cudart"):
            if i < len(args):
                cudart = args[i]
            i += 1
        elif a.startswith("--cudart=") or a.startswith("-cudart="):
            cudart = a.split("=", 1)[1]
        elif a in _ARG_OPTIONS:
            skip = 1
        elif a.startswith("-"):
            continue
        else:
            entries.append(("file", os.path.join(cwd, a)))

    nvcc_dirs = []
    if implicit and os.path.basename(driver).startswith("nvcc"):
        # nvcc links the CUDA runtime and the device runtime by itself, from
        # its own toolkit.
        found = shutil.which(driver) or driver
        top = os.path.dirname(os.path.dirname(os.path.realpath(found)))
        nvcc_dirs = [os.path.join(top, d) for d in ("targets/x86_64-linux/lib/stubs",
                                                    "targets/x86_64-linux/lib", "lib64")]
        if cudart in ("static", "shared"):
            entries.append(("lib", "cudart_static" if cudart == "static" else "cudart", False))
        entries.append(("lib", "cudadevrt", False))
    if implicit and not nodefault:
        names = ["stdc++", "m"] if _CXX_DRIVER.search(os.path.basename(driver)) else []
        names += ["gcc_s", "gcc", "c"]
        for n in names:
            if static and n == "gcc_s":
                continue
            entries.append(("lib", n, static))

    dirs = lib_dirs + [d for d in nvcc_dirs if os.path.isdir(d)] + compiler_search_dirs(driver)
    files = []
    for e in entries:
        if e[0] == "file":
            if os.path.isfile(e[1]):
                files.append(e[1])
            elif missing is not None:
                missing.append(e[1])
        else:
            found = _find_library(e[1], dirs, e[2])
            if found:
                files.append(found)
            elif missing is not None:
                missing.append("-l" + e[1])
    files = _expand_scripts(files, dirs)

    out, seen = [], set()
    excluded = {os.path.basename(x) for x in exclude} | {os.path.realpath(os.path.join(cwd, x))
                                                          for x in exclude}
    for f in files:
        real = os.path.realpath(f)
        if real in seen or os.path.basename(f) in excluded or real in excluded:
            continue
        seen.add(real)
        out.append(os.path.normpath(f))
    return out


# ---------------------------------------------------------------- command line

USAGE = ("usage: python3 -m batch.symbols [--nm NM] [--cwd DIR] [--exclude NAME]... "
         "--student FILE [FILE...] -- LINK_ARGV...")


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if "--" not in argv:
        print(USAGE, file=sys.stderr)
        return 2
    cut = argv.index("--")
    opts, link = argv[:cut], argv[cut + 1:]
    nm, cwd, exclude, students = "nm", os.getcwd(), [], []
    i = 0
    while i < len(opts):
        o = opts[i]
        if o in ("--nm", "--cwd", "--exclude") and i + 1 < len(opts):
            value = opts[i + 1]
            i += 2
            if o == "--nm":
                nm = value
            elif o == "--cwd":
                cwd = value
            else:
                exclude.append(value)
        elif o == "--student":
            i += 1
            while i < len(opts) and not opts[i].startswith("--"):
                students.append(opts[i])
                i += 1
        else:
            print(USAGE, file=sys.stderr)
            return 2
    if not students or not link:
        print(USAGE, file=sys.stderr)
        return 2
    for s in students:
        if not os.path.isfile(s):
            print(f"symbols: no such student file: {s}", file=sys.stderr)
            return 2
    # The student's own archive, when it is on the link line, is the
    # student's code, not something it could collide with.
    exclude += [os.path.basename(s) for s in students if s.endswith(".a")]
    missing = []
    try:
        inputs = link_inputs_from_argv(link, cwd, exclude=exclude, missing=missing)
        found = collisions(students, inputs, nm=nm)
    except (SymbolError, OSError) as e:
        print(f"symbols: {e}", file=sys.stderr)
        return 2
    for m in missing:
        print(f"symbols: warning: link input not found, not checked: {m}", file=sys.stderr)
    for f in found:
        print(describe(f))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
