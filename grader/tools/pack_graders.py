#!/usr/bin/env python3
"""The graders of a student copy, compiled (make dist-student, GRADERS=compiled).

  pack_graders.py programs BUILD N...   the student-side programs of labs N...
                                        in BUILD, one name a line: what
                                        dist-student.sh builds
  pack_graders.py pack BUILD OUT --answer-libraries "a b" --archs "90 ..." N...
                                        packs them into OUT (grader/prebuilt/graders/)

BUILD is a private build of the course repository (CMake's "Unix Makefiles"
generator: each program's link command is CMakeFiles/<program>.dir/link.txt,
with its objects and libraries in objects1 and linkLibs.rsp). A lab's
student-side programs are those of grader/labN/ that link the student's
library (liblabN_labs.a) or run it (the runner labN_check): the test program,
the runner, the race runner, the kernel driver and the lab's tools; never
one that links a solution.

For each, `pack` writes what the copy needs to link it again against the
student's own library, without a line of grader source:
  - the objects it linked as objects (the checks, the test table, the
    generated program names), one archive per object library, linked whole
    (lib<objects>.a);
  - the grader's static libraries it linked (harness, helpers, baselines),
    as they are (lib<name>.a); all stripped of debug information;
  - graders.cmake: for each program its archives, its libraries in link
    order (the student's library, an answer library and a toolkit or system
    library by name, for the copy's own: CUDA::cupti, CUDA::cublas, CMocka)
    and its link options (the CPU checks' --wrap, the runner's --gc-sections),
    and for a race runner the arguments make sanitize-labN gives it
    (bin/labN_racecheck.args), read by grader/cmake/PrebuiltGraders.cmake;
  - build-info.cmake: the toolkit, the sonames of CUPTI, cuBLAS and CMocka,
    and the glibc and libstdc++ versions the programs need (the highest
    GLIBC_ and GLIBCXX_ symbol versions of the linked programs), which the
    copy's configure checks.
"""
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

# Toolkit and system libraries, by file name: what the copy links instead
# (its own machine's), or None where CMake adds it itself (the CUDA runtime).
SYSTEM = [
    (r"libcupti\.so", "CUDA::cupti"),
    (r"libcublasLt\.so", "CUDA::cublasLt"),
    (r"libcublas\.so", "CUDA::cublas"),
    (r"libculibos\.a", "CUDA::culibos"),
    (r"libcudart_static\.a", "CUDA::cudart_static"),
    (r"libcmocka\.so", "lab_cmocka"),
    (r"librt\.(a|so)", "rt"),
    (r"^-lcudadevrt$", None),
    (r"^-lcudart_static$", None),
    (r"^-l(m|dl|rt|pthread)$", None),  # added once, at the end, below
    # Where this build found a library outside the system's folders (CMocka
    # unpacked under /opt, say): the copy finds its own and sets its own.
    (r"^-Wl,-rpath,", None),
]
TAIL = ["m", "dl", "rt", "Threads::Threads"]


def die(message):
    sys.exit(f"pack_graders: {message}")


def lab_dirs(build, numbers):
    for n in numbers:
        folder = os.path.join(build, "grader", f"lab{n}", "CMakeFiles")
        if not os.path.isdir(folder):
            die(f"{folder} is missing: was lab {n}'s grader configured?")
        yield n, folder


def programs(build, numbers):
    """(lab, name, CMakeFiles folder) of each student-side program."""
    for n, folder in lab_dirs(build, numbers):
        for entry in sorted(os.listdir(folder)):
            if not entry.endswith(".dir"):
                continue
            name = entry[:-4]
            link = os.path.join(folder, entry, "link.txt")
            libs = os.path.join(folder, entry, "linkLibs.rsp")
            if not os.path.exists(link) or not os.path.exists(libs):
                continue  # an object or static library
            with open(libs) as f:
                linked = f.read()
            if "_solutions.a" in linked or "solution" in name:
                continue
            if f"liblab{n}_labs.a" in linked or name == f"lab{n}_check":
                yield n, name, os.path.join(folder, entry)


def link_parts(program_dir):
    """(options, objects, libraries) of a program's link command."""
    with open(os.path.join(program_dir, "link.txt")) as f:
        words = shlex.split(f.read())
    options = []
    for word in words[1:]:
        if word.startswith("@") or word == "-o":
            break
        if word.startswith("-Wl,-rpath,"):
            continue  # the copy's own CUPTI folder is added where CUPTI is linked
        if word.startswith("-Wl,--dependency-file="):
            continue  # newer CMake's record of the link's inputs, for its own rebuilds
        if word.startswith("-Wl,--wrap=") or word == "-Wl,--gc-sections":
            options.append(word)
        else:
            die(f"{program_dir}/link.txt: the link option {word} is not one the copy knows")
    # The response files the command names: objects1 (CMake 3.x) or
    # objects1.rsp (4.x) for the objects, linkLibs.rsp for the libraries.
    named = {os.path.basename(w[1:]) for w in words if w.startswith("@")}
    objects_file = next((n for n in sorted(named) if n.startswith("objects")), None)
    if objects_file is None or "linkLibs.rsp" not in named:
        die(f"{program_dir}/link.txt: no objects or libraries response file in it")
    with open(os.path.join(program_dir, objects_file)) as f:
        objects = shlex.split(f.read())
    with open(os.path.join(program_dir, "linkLibs.rsp")) as f:
        libraries = shlex.split(f.read())
    return options, objects, libraries


def strip_debug(path):
    subprocess.run(["strip", "--strip-debug", path], check=True)


def archive_objects(lab_build, objects, out, packed):
    """Each object library's objects, as one archive: its names, in order."""
    groups = {}
    for obj in objects:
        found = re.match(r"CMakeFiles/([^/]+)\.dir/", obj)
        if not found:
            die(f"{obj}: not an object of an object library")
        groups.setdefault(found.group(1), []).append(os.path.join(lab_build, obj))
    names = []
    for group, files in groups.items():
        names.append(group)
        if group in packed:
            continue
        packed.add(group)
        with tempfile.TemporaryDirectory() as tmp:
            members = []
            for i, path in enumerate(files):
                member = os.path.join(tmp, f"{i:02d}_{os.path.basename(path)}")
                shutil.copy(path, member)
                strip_debug(member)
                members.append(member)
            archive = os.path.join(out, f"lib{group}.a")
            subprocess.run(["ar", "qcs", archive] + members, check=True)
    return names


def libraries_for_copy(lab_build, libraries, number, answer_libraries, out, packed):
    """The link items the copy gives: STUDENT, archive names, targets."""
    items, system = [], []
    for word in libraries:
        base = os.path.basename(word)
        if base == f"liblab{number}_labs.a":
            items.append("STUDENT")
            continue
        if not word.startswith("-") and not os.path.isabs(word):
            name = re.sub(r"^lib(.*)\.a$", r"\1", base)
            if name in answer_libraries:
                items.append(f"TARGET:{name}")  # grader/prebuilt/<name>/, SASS-checked
            elif name == "labs_common":
                items.append("TARGET:labs_common")  # common/, built in the copy
            else:
                if name not in packed:
                    packed.add(name)
                    target = os.path.join(out, base)
                    shutil.copy(os.path.join(lab_build, word), target)
                    strip_debug(target)
                items.append(f"ARCHIVE:{name}")
            continue
        for pattern, replacement in SYSTEM:
            if re.search(pattern, base if not word.startswith("-") else word):
                if replacement and replacement not in system:
                    system.append(replacement)
                break
        else:
            die(f"{lab_build}: the copy does not know how to link {word}")
    return items, system


def symbol_versions(paths, prefix):
    """The highest prefix_x.y.z version the files' dynamic symbols need."""
    best = ()
    for path in paths:
        dump = subprocess.run(["objdump", "-T", path], capture_output=True, text=True).stdout
        for found in re.finditer(rf"\b{prefix}_([0-9]+(?:\.[0-9]+)*)\b", dump):
            best = max(best, tuple(int(x) for x in found.group(1).split(".")))
    return ".".join(map(str, best))


def needed_sonames(paths):
    found = set()
    for path in paths:
        dump = subprocess.run(["objdump", "-p", path], capture_output=True, text=True).stdout
        found.update(re.findall(r"NEEDED\s+(\S+)", dump))
    return found


def soname_of(found, stem):
    names = sorted(n for n in found if n.startswith(stem + ".so"))
    return names[0] if names else ""


def cmake_list(values):
    return '"' + ";".join(values) + '"'


def pack(build, out, answer_libraries, numbers, nvcc, archs):
    os.makedirs(out, exist_ok=True)
    packed_objects, packed_archives = set(), set()
    lines = ["# Written by grader/tools/pack_graders.py (make dist-student); read by",
             "# grader/cmake/PrebuiltGraders.cmake. Each program: its objects (archives",
             "# linked whole), its libraries in link order, its link options.", ""]
    built = []
    lab_programs = {}
    for n, name, program_dir in programs(build, numbers):
        lab_build = os.path.dirname(os.path.dirname(program_dir))
        options, objects, libraries = link_parts(program_dir)
        groups = archive_objects(lab_build, objects, out, packed_objects)
        items, system = libraries_for_copy(lab_build, libraries, n, answer_libraries, out,
                                           packed_archives)
        lab_programs.setdefault(n, []).append(name)
        lines += [f"set(PREBUILT_{name}_LAB {n})",
                  f"set(PREBUILT_{name}_OBJECTS {cmake_list(groups)})",
                  f"set(PREBUILT_{name}_LIBRARIES {cmake_list(items)})",
                  f"set(PREBUILT_{name}_SYSTEM {cmake_list(system + TAIL)})",
                  f"set(PREBUILT_{name}_OPTIONS {cmake_list(options)})"]
        if name == f"lab{n}_racecheck":
            args = os.path.join(build, "bin", name + ".args")
            if not os.path.exists(args):
                die(f"{args} is missing: configure {build} again")
            with open(args) as f:
                lines.append(f"set(PREBUILT_{name}_RUN_ARGS {cmake_list(f.read().splitlines())})")
        lines.append("")
        binary = os.path.join(build, "bin", name)
        if os.path.exists(binary):
            built.append(binary)
    if not lab_programs:
        die(f"no student-side program found in {build} for labs {' '.join(numbers)}")
    for n in numbers:
        if f"lab{n}_check" not in lab_programs.get(n, []):
            die(f"lab {n} has no runner lab{n}_check in {build}")
    lines.insert(4, f"set(PREBUILT_GRADER_LABS {cmake_list(numbers)})")
    for n, names in lab_programs.items():
        lines.insert(5, f"set(PREBUILT_LAB{n}_PROGRAMS {cmake_list(names)})")
    with open(os.path.join(out, "graders.cmake"), "w") as f:
        f.write("\n".join(lines) + "\n")

    if len(built) < len(sum(lab_programs.values(), [])):
        die(f"some programs were not built in {build}/bin (built: {len(built)})")
    sonames = needed_sonames(built)
    said = subprocess.run([nvcc, "--version"], capture_output=True, text=True).stdout
    release = re.search(r"^.*release [0-9.]+, V([0-9][0-9.]*).*$", said, re.M)
    nvcc_version = release.group(0).strip() if release else said.strip().splitlines()[-1]
    cuda = release
    cmocka = subprocess.run(["pkg-config", "--modversion", "cmocka"], capture_output=True,
                            text=True).stdout.strip()
    info = {
        "CUDA_VERSION": cuda.group(1) if cuda else "",
        "NVCC": nvcc_version,
        "CUPTI_SONAME": soname_of(sonames, "libcupti"),
        "CUBLAS_SONAME": soname_of(sonames, "libcublas"),
        "CMOCKA_SONAME": soname_of(sonames, "libcmocka"),
        "CMOCKA_VERSION": cmocka,
        "GLIBC": symbol_versions(built, "GLIBC"),
        "GLIBCXX": symbol_versions(built, "GLIBCXX"),
        "PROCESSOR": os.uname().machine,
        "ARCHITECTURES": ";".join(archs.split()),
    }
    with open(os.path.join(out, "build-info.cmake"), "w") as f:
        f.write("# Written by grader/tools/pack_graders.py; checked by "
                "grader/cmake/PrebuiltGraders.cmake.\n")
        for key, value in info.items():
            f.write(f'set(PREBUILT_GRADERS_{key} "{value}")\n')
    return info


def main(argv):
    if len(argv) >= 3 and argv[1] == "programs":
        for _, name, _ in programs(argv[2], argv[3:]):
            print(name)
        return 0
    if len(argv) >= 8 and argv[1] == "pack" and argv[4] == "--answer-libraries" \
            and argv[6] == "--archs":
        nvcc = os.environ.get("CUDACXX") or shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
        info = pack(argv[2], argv[3], set(argv[5].split()), argv[8:], nvcc, argv[7])
        print(f"pack_graders: CUDA {info['CUDA_VERSION']}, {info['CUPTI_SONAME']}, "
              f"{info['CUBLAS_SONAME'] or 'no cuBLAS'}, {info['CMOCKA_SONAME']} "
              f"(CMocka {info['CMOCKA_VERSION'] or '?'}), glibc >= {info['GLIBC']}, "
              f"libstdc++ GLIBCXX >= {info['GLIBCXX'] or '-'}")
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
