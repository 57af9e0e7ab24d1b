"""What a student's compiled objects reach for that no lab needs, read from
the objects themselves: the review list's text rules miss a forger who
spells a thing another way (a namespace-scope object, syscall(SYS_openat),
a path built at run time), but the compiler cannot hide what the object
calls, which instructions its host code holds, or what runs before main.

Four checks, each finding a line naming what was found:
- every undefined symbol must be on the allowlist (_ALLOWED: the CUDA
  runtime but graphs, capture and driver entry points; nvcc's and the C++
  runtime's helpers; the course's common/; a short list of libc); anything
  else is named, with its family where it is a known way around the
  grader (_FAMILIES);
- a `syscall`, `int $0x80` or `svc` instruction in the host code;
- code before main beyond nvcc's registration: a plain nvcc object has
  exactly one .init_array entry (a dynamic initializer adds one); any
  .preinit_array, .ctors or .dtors; an IFUNC symbol;
- two kernels with byte-identical SASS: a renamed copy of another stage's
  kernel, which the launch watch's check by name cannot tell apart.
test_symbols.py proves every lab's solution and skeleton have no finding."""
import re
import subprocess

from . import symbols

# Names the object may call (whole names; see the module's docstring).
_ALLOWED = re.compile("^(?:" + "|".join([
    r"__cuda\w+", r"__nv\w+", r"__fatbinwrap\w*",                       # nvcc's registration
    r"cuda(?!Graph|StreamBeginCapture|StreamEndCapture|StreamGetCaptureInfo|"
    r"ThreadExchangeStreamCaptureMode|GetDriverEntryPoint|UserObject)[A-Z]\w*",  # the runtime
    r"_Unwind_\w+", r"__cxa_\w+", r"__gxx_personality_v0", r"__dso_handle",   # C++ runtime
    r"_Zn[wa][jmy]\w*", r"_Zd[la]Pv\w*", r"_ZSt\d*__throw_\w+", r"_ZSt9terminatev",
    r"atexit", r"__stack_chk_fail", r"__assert_fail", r"abort", r"exit",
    r"(f|s|sn|v|vf|vs|vsn)?printf", r"__(f|s|sn|v|vf|vs|vsn)?printf_chk", r"puts",
    r"putchar", r"fputs", r"fputc", r"putc", r"fflush", r"fwrite", r"stdout", r"stderr",
    r"malloc", r"calloc", r"realloc", r"free", r"aligned_alloc", r"posix_memalign",
    r"mem(set|cpy|move|cmp)", r"__mem(set|cpy|move)_chk",
    r"str(len|nlen|cmp|ncmp|cpy|ncpy|cat|ncat|chr|rchr|str|error|tol|toul|tod|tof)",
    r"ato[ifl]", r"l?l?abs", r"qsort", r"s?rand", r"clock", r"clock_gettime", r"time",
    r"gettimeofday",
    r"(sqrt|cbrt|fabs|fmin|fmax|floor|ceil|round|lround|llround|trunc|exp|exp2|expm1|log|"
    r"log2|log10|log1p|pow|sin|cos|tan|sinh|cosh|tanh|asin|acos|atan|atan2|erf|erfc|fma|fmod|"
    r"hypot|ldexp|frexp|modf|rint|lrint|nearbyint|isnan|isinf|finite)[fl]?",
]) + ")$")

# Known ways around the grader, named in the finding (first match wins).
_FAMILIES = [
    (r"syscall", "raw system calls"),
    (r"ptrace|process_vm_(readv|writev)", "another process's memory"),
    (r"dl(open|sym|vsym|mopen|info|addr|iterate_phdr)", "code loaded or looked up at run time"),
    (r"cupti\w*", "CUPTI, the grader's own watch"),
    (r"cublas\w*", "cuBLAS"),
    (r"cu[A-Z]\w*", "the CUDA driver API"),
    (r"cudaGraph\w*|cudaStream\w*Capture\w*|cudaThreadExchangeStreamCaptureMode|cudaUserObject\w*",
     "CUDA graphs"),
    (r"cudaGetDriverEntryPoint\w*", "the CUDA driver API"),
    (r"fork|vfork|clone\d*|exec[lv]\w*|posix_spawn\w*|system|popen", "other processes"),
    (r"pthread_\w+|_ZNSt6thread\w*|thrd_\w+", "threads"),
    (r"(f|__)?open(at)?(64)?(_2)?|fdopen|freopen|creat|unlink\w*|rename\w*|readlink\w*|"
     r"opendir|fopen64|read|write|pread\w*|pwrite\w*", "files"),
    (r"mmap\w*|mprotect|munmap|mremap|shm_\w+|memfd_create", "memory mappings"),
    (r"kill|raise|signal|sigaction|tgkill|sigqueue|alarm", "signals"),
    (r"prctl|setsid|setpgid|set\w*uid|set\w*gid|setrlimit|getppid|chroot|unshare|setns",
     "the process's own attributes"),
]
_FAMILY_RES = [(re.compile(f"^(?:{pattern})$"), what) for pattern, what in _FAMILIES]

PREFIX = "compiled code: "   # every finding starts so (build.flag_for)


def _family(name):
    for pattern, what in _FAMILY_RES:
        if pattern.match(name):
            return what
    return None


def unexpected_calls(objects, contract_names, nm="nm"):
    """Findings for undefined symbols off the allowlist (`contract_names`:
    what the course's common/ library defines, which the lab may call)."""
    found = {}
    for obj in objects:
        _defined, undefined, weak_refs, _weak_defs = symbols.defined_and_undefined(obj, nm)
        for name in undefined | weak_refs:
            if name not in contract_names and not _ALLOWED.match(name):
                found.setdefault(name, _family(name))
    readable = dict(zip(found, symbols.demangle(list(found)))) if found else {}
    return [PREFIX + (f"calls {readable[n]} ({what})" if what else
                      f"calls {readable[n]}, which no lab's code needs")
            for n, what in sorted(found.items())]


def _tool(argv):
    out = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    if out.returncode != 0:
        raise symbols.SymbolError(f"{argv[0]} failed: {out.stderr.strip()[:200]}")
    return out.stdout


_RAW_SYSCALL = re.compile(r"\t(syscall|sysenter|int\s+\$0x80|svc\s+#?0x0|svc\s+#0)\b")


def raw_system_calls(obj, objdump="objdump"):
    """Findings for system call instructions in the object's host code."""
    hits = _RAW_SYSCALL.findall(_tool([objdump, "-d", "--no-show-raw-insn", obj]))
    return [PREFIX + f"a raw system call instruction ({hits[0].split()[0]}) in the host code, "
            f"{len(hits)} in all"] if hits else []


def _sections(obj, readelf):
    """[{section name: size}] of an object file, one per archive member
    (readelf -SW)."""
    members = [{}]
    for line in _tool([readelf, "-SW", obj]).splitlines():
        if line.startswith("File: ") and members[-1]:
            members.append({})
        m = re.match(r"\s*\[\s*\d+\]\s+(\S+)\s+\S+\s+[0-9a-f]+\s+[0-9a-f]+\s+([0-9a-f]+)", line)
        if m:
            members[-1][m.group(1)] = int(m.group(2), 16)
    return members


def before_main(obj, readelf="readelf", nm="nm"):
    """Findings for code that runs before main beyond nvcc's registration
    (of an object, or of any member of an archive)."""
    found = []
    for sections in _sections(obj, readelf):
        entries = sections.get(".init_array", 0) // 8
        if entries > 1:
            found.append(PREFIX + f"{entries - 1} static constructor(s): .init_array entries "
                         "beyond nvcc's own registration (a namespace-scope object with a "
                         "dynamic initializer, or __attribute__((constructor)))")
        for name in (".preinit_array", ".ctors", ".dtors"):
            if sections.get(name):
                found.append(PREFIX + f"a {name} section: code that runs before or after main")
    defined = symbols.defined_and_undefined(obj, nm)[0]
    ifuncs = sorted(n for n, kind in defined.items() if kind == "i")
    if ifuncs:
        found.append(PREFIX + "IFUNC symbols, resolved by code that runs at load time: "
                     f"{', '.join(ifuncs[:5])}")
    return found


# Kernels of up to 16 instructions (16 bytes each from sm_70 on) are not
# compared: an untouched skeleton's kernels are 16 (a return, padded), all
# alike, and no reference kernel that is a lesson fits in so few.
SMALLEST_COMPARED_KERNEL = 17 * 16


def _elf_sections(data):
    """{name: bytes} of a little-endian ELF64 image (an object or a cubin)."""
    import struct
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        return {}
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    heads = [struct.unpack_from("<IIQQQQ", data, shoff + i * shentsize) for i in range(shnum)]
    names_at = heads[shstrndx][4] if shstrndx < shnum else 0
    sections = {}
    for name, kind, _, _, offset, size in heads:
        end = data.index(b"\0", names_at + name)
        if kind != 8:  # SHT_NOBITS holds no bytes
            sections[data[names_at + name:end].decode(errors="replace")] = \
                data[offset:offset + size]
    return sections


def _cubins(data):
    """The SASS images (cubins) in an object's or archive member's fat
    binaries; compressed images (no ELF header) are skipped."""
    import struct
    fatbins = _elf_sections(data).get(".nv_fatbin", b"")
    at = 0
    while at + 16 <= len(fatbins) and any(fatbins[at:at + 16]):
        magic, _, header_size, body_size = struct.unpack_from("<IHHQ", fatbins, at)
        if magic != 0xBA55ED50:
            return
        entry, end = at + header_size, at + header_size + body_size
        while entry < end:
            kind, _, entry_header, payload = struct.unpack_from("<HHII", fatbins, entry)
            image = fatbins[entry + entry_header:entry + entry_header + payload]
            if kind == 2 and image[:4] == b"\x7fELF":
                yield image
            entry += entry_header + payload
        at = (end + 7) & ~7


def _members(path):
    """The bytes of an object file, or of each member of an ar archive."""
    with open(path, "rb") as f:
        data = f.read()
    if not data.startswith(b"!<arch>\n"):
        yield data
        return
    at = 8
    while at + 60 <= len(data):
        size = int(data[at + 48:at + 58].decode().strip() or 0)
        yield data[at + 60:at + 60 + size]
        at += 60 + size + (size & 1)


def identical_kernels(obj):
    """Findings for two kernels with the same machine code: a renamed copy
    of a kernel has a name of its own, so only its code shows that a stage
    runs another stage's kernel (grader/harness/checks/stage_identity.h)."""
    found = []
    for member in _members(obj):
        for cubin in _cubins(member):
            alike = {}
            for name, code in _elf_sections(cubin).items():
                if name.startswith(".text.") and len(code) >= SMALLEST_COMPARED_KERNEL:
                    alike.setdefault(code, []).append(name[len(".text."):])
            for names in alike.values():
                if len(names) > 1:
                    found.append(PREFIX + "kernels with the same machine code: "
                                 f"{', '.join(sorted(names)[:4])} (a renamed copy of one "
                                 "kernel; each stage must run its own)")
    return sorted(set(found))


CONTRACT_LIBRARY = "liblabs_common.a"   # common/: the student contract's helpers


def contract_names(link_inputs, nm="nm"):
    """What the course's common/ library defines, among a link's inputs."""
    names = set()
    for path in link_inputs:
        if path.endswith("/" + CONTRACT_LIBRARY) or path == CONTRACT_LIBRARY:
            names |= set(symbols.defined_and_undefined(path, nm)[0])
    return names


def review(objects, contract_names, nm="nm", objdump="objdump", readelf="readelf"):
    """Every finding for a lab's compiled student objects."""
    found = unexpected_calls(objects, contract_names, nm)
    for obj in objects:
        found += raw_system_calls(obj, objdump) + before_main(obj, readelf, nm)
        found += identical_kernels(obj)
    return found
