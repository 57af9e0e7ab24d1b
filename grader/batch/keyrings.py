"""Keeps the instructor's kernel keyrings out of every build and grader.

A red team's graded code listed and read the session keyring the batch was
started in (Kerberos KEYRING: caches and cifscreds keys live there) and
printed a key into its results; setpriv leaves keyrings as they are. So
every command the batch starts (runner.run) first joins a fresh, empty,
anonymous session keyring, and then installs a seccomp filter under which
keyctl, add_key and request_key fail with EPERM: a pool uid's user
keyring, which outlives the process that filled it, can then be neither
filled by one grader nor read by the next. Both happen in the child
before exec, so bubblewrap, setpriv and everything below inherit them.

The filter is classic BPF built here (no libseccomp): check the
architecture, then the system call number. System calls of another ABI
(x32, or 32-bit code on a 64-bit kernel) fail with EPERM altogether:
CUDA has no such code."""
import ctypes
import platform
import struct

PR_SET_NO_NEW_PRIVS = 38
PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2
KEYCTL_JOIN_SESSION_KEYRING = 1
EPERM = 1
ENOSYS = 38

# machine: (AUDIT_ARCH_*, keyctl's own number, [add_key, request_key, keyctl], x32 bit)
ARCHES = {
    "x86_64": (0xC000003E, 250, [248, 249, 250], 0x40000000),
    "aarch64": (0xC00000B7, 219, [217, 218, 219], None),
}

BPF_LD_W_ABS = 0x20
BPF_JEQ_K = 0x15
BPF_JGE_K = 0x35
BPF_RET_K = 0x06
RET_ALLOW = 0x7FFF0000
RET_EPERM = 0x00050000 | EPERM
OFFSET_NR, OFFSET_ARCH = 0, 4   # struct seccomp_data


class Unsupported(Exception):
    """No filter for this machine's architecture."""


def _arch():
    arch = ARCHES.get(platform.machine())
    if arch is None:
        raise Unsupported(f"no keyring filter for {platform.machine()} (only {', '.join(ARCHES)})")
    return arch


def filter_program():
    """The filter's instructions, packed as struct sock_filter."""
    audit_arch, _keyctl, denied, x32_bit = _arch()
    tests = [(BPF_JGE_K, x32_bit)] if x32_bit else []
    tests += [(BPF_JEQ_K, nr) for nr in denied]
    code = [(BPF_LD_W_ABS, 0, 0, OFFSET_ARCH),
            (BPF_JEQ_K, 1, 0, audit_arch),
            (BPF_RET_K, 0, 0, RET_EPERM),
            (BPF_LD_W_ABS, 0, 0, OFFSET_NR)]
    for i, (op, value) in enumerate(tests):
        # Jump, when it matches, over the remaining tests and the allow.
        code.append((op, len(tests) - i, 0, value))
    code += [(BPF_RET_K, 0, 0, RET_ALLOW), (BPF_RET_K, 0, 0, RET_EPERM)]
    return b"".join(struct.pack("HBBI", *ins) for ins in code)


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


class Confinement:
    """What a child does before exec. Built in the parent (no allocation
    between fork and exec beyond the call itself)."""
    def __init__(self):
        self.libc = ctypes.CDLL(None, use_errno=True)
        self.keyctl_nr = _arch()[1]
        self.program = ctypes.create_string_buffer(filter_program())
        self.fprog = _SockFprog(len(self.program.raw) // 8,
                                ctypes.cast(self.program, ctypes.c_void_p))

    def apply(self):
        """In the child: a fresh session keyring, then the filter. Raises
        OSError when either fails (the command must not run then)."""
        # ENOSYS: a kernel without keyrings has none to keep out.
        if self.libc.syscall(self.keyctl_nr, KEYCTL_JOIN_SESSION_KEYRING, None) < 0 and \
                ctypes.get_errno() != ENOSYS:
            raise OSError(ctypes.get_errno(), "keyctl(JOIN_SESSION_KEYRING) failed")
        if self.libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(NO_NEW_PRIVS) failed")
        if self.libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(self.fprog), 0,
                           0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(SECCOMP) failed")
