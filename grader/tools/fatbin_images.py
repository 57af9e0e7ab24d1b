#!/usr/bin/env python3
"""List the GPU code images nvcc embedded in a host object file.

    fatbin_images.py file.o     prints one line per image: "sass sm_90", "ptx sm_75"

dist-student.sh uses it to prove that the prebuilt lab 2 reference holds
machine code (SASS) only: PTX is a readable assembly of the kernel that any
driver can compile, which a student copy must not ship. cuobjdump --list-ptx
would say the same, but cuobjdump is missing from minimal CUDA installs.

An object keeps its images in the .nv_fatbin section: one or more fat
binaries (magic 0xBA55ED50, a 16-byte header, then entries). Each entry
starts with its kind (1 = PTX, 2 = ELF/SASS), the size of its own header and
of its padded payload, and names its compute capability at byte 28.
Only little-endian ELF64 objects (what nvcc writes on x86-64 and arm64).
"""
import struct
import sys

FATBIN_MAGIC = 0xBA55ED50
KINDS = {1: "ptx", 2: "sass"}


def section(data, wanted):
    """The bytes of the ELF64 section named `wanted`, or None."""
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        sys.exit("fatbin_images: not a little-endian ELF64 object")
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)

    def header(i):
        name, _, _, _, offset, size = struct.unpack_from("<IIQQQQ", data, shoff + i * shentsize)
        return name, offset, size

    _, names_at, _ = header(shstrndx)
    for i in range(shnum):
        name, offset, size = header(i)
        end = data.index(b"\0", names_at + name)
        if data[names_at + name:end].decode() == wanted:
            return data[offset:offset + size]
    return None


def images(fatbins):
    """(kind, sm) for every entry of every fat binary in the section."""
    at = 0
    while at + 16 <= len(fatbins) and any(fatbins[at:at + 16]):
        magic, _, header_size, body_size = struct.unpack_from("<IHHQ", fatbins, at)
        if magic != FATBIN_MAGIC:
            sys.exit(f"fatbin_images: no fat binary header at byte {at}")
        entry, end = at + header_size, at + header_size + body_size
        while entry < end:
            kind, _, entry_header, payload = struct.unpack_from("<HHII", fatbins, entry)
            sm, = struct.unpack_from("<I", fatbins, entry + 28)
            yield KINDS.get(kind, f"kind{kind}"), sm
            entry += entry_header + payload
        at = (end + 7) & ~7  # fat binaries are 8-byte aligned in the section


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.split("\n\n")[1])
    with open(sys.argv[1], "rb") as f:
        fatbins = section(f.read(), ".nv_fatbin")
    if fatbins is None:
        sys.exit(f"fatbin_images: {sys.argv[1]} has no .nv_fatbin section")
    for kind, sm in images(fatbins):
        print(f"{kind} sm_{sm}")


if __name__ == "__main__":
    main()
