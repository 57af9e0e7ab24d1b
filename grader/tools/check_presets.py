#!/usr/bin/env python3
"""ctest docs.presets: CMakePresets.json says what the Makefile does.

The presets (release, sanitize, ci) are for IDEs and for people who drive
CMake themselves; the Makefile stays the front door (the README teaches its
BUILD= and CMAKE_ARGS=). So the two must not drift apart:
  - CMake accepts the file (`cmake --list-presets=all`);
  - release builds into the Makefile's default BUILD folder with its build
    type, sanitize into SANITIZE_BUILD with the option make sanitize-labN
    turns on;
  - every cache variable a preset sets is CMake's own (CMAKE_*) or an
    option() of this project, so a renamed option cannot leave a preset
    setting nothing;
  - with --configure DIR: `cmake --preset sanitize -B DIR` configures, and
    the cache holds what the preset asked for.

  check_presets.py --root SOURCE [--configure DIR] [--cmake CMAKE]
  check_presets.py --self-test"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys


def makefile_defaults(text):
    """What the Makefile configures: {BUILD, SANITIZE_BUILD, build_type,
    sanitize_option}."""
    def default(name):
        m = re.search(rf"^{name}\s*\?=\s*(\S+)\s*$", text, re.M)
        return m.group(1) if m else None
    build_type = re.search(r"cmake -S \. -B \$\(BUILD\) -DCMAKE_BUILD_TYPE=(\w+)", text)
    option = re.search(r"sanitize-lab%:.*?-D(\w+)=ON", text, re.S)
    return {"BUILD": default("BUILD"), "SANITIZE_BUILD": default("SANITIZE_BUILD"),
            "build_type": build_type.group(1) if build_type else None,
            "sanitize_option": option.group(1) if option else None}


def project_options(root):
    names = set()
    for folder, _, files in os.walk(root):
        if "/build" in folder.replace(root, "", 1) or "/.git" in folder:
            continue
        for f in files:
            if f == "CMakeLists.txt" or f.endswith(".cmake"):
                with open(os.path.join(folder, f), encoding="utf-8") as fh:
                    names.update(re.findall(r"^\s*option\(\s*(\w+)", fh.read(), re.M))
    return names


def resolved(presets, name):
    """A configure preset with what it inherits (one level of inherits is
    all the file uses, but follow the chain anyway)."""
    by_name = {p["name"]: p for p in presets["configurePresets"]}
    chain, p = [], by_name[name]
    while True:
        chain.append(p)
        parent = p.get("inherits")
        if not parent:
            break
        p = by_name[parent if isinstance(parent, str) else parent[0]]
    out = {"binaryDir": None, "cacheVariables": {}}
    for p in reversed(chain):
        out["binaryDir"] = p.get("binaryDir", out["binaryDir"])
        out["cacheVariables"].update(p.get("cacheVariables", {}))
    return out


def check(presets, makefile, options):
    """The differences between the presets and the Makefile, in words."""
    problems = []
    make = makefile_defaults(makefile)
    release, sanitize = resolved(presets, "release"), resolved(presets, "sanitize")
    for preset, folder in ((release, make["BUILD"]), (sanitize, make["SANITIZE_BUILD"])):
        if preset["binaryDir"] != "${sourceDir}/" + str(folder):
            problems.append(f"binaryDir {preset['binaryDir']} is not the Makefile's {folder}")
    for name, preset in (("release", release), ("sanitize", sanitize)):
        if preset["cacheVariables"].get("CMAKE_BUILD_TYPE") != make["build_type"]:
            problems.append(f"{name}: CMAKE_BUILD_TYPE is not the Makefile's {make['build_type']}")
    if sanitize["cacheVariables"].get(str(make["sanitize_option"])) != "ON":
        problems.append(f"sanitize does not turn on {make['sanitize_option']}, "
                        "which make sanitize-labN does")
    for p in presets["configurePresets"]:
        for var in p.get("cacheVariables", {}):
            if not var.startswith("CMAKE_") and var not in options:
                problems.append(f"preset {p['name']} sets {var}, which no option() defines")
    return problems


def configure(root, cmake, work):
    shutil.rmtree(work, ignore_errors=True)
    out = subprocess.run([cmake, "--preset", "sanitize", "-B", work], cwd=root,
                         capture_output=True, text=True)
    if out.returncode != 0:
        return [f"cmake --preset sanitize failed:\n{out.stdout[-2000:]}{out.stderr[-2000:]}"]
    with open(os.path.join(work, "CMakeCache.txt"), encoding="utf-8") as f:
        cache = f.read()
    return [f"the cache lacks {want}" for want in ("CUDA_LABS_LINEINFO:BOOL=ON",
                                                    "CMAKE_BUILD_TYPE:STRING=Release")
            if want not in cache]


def self_test(root):
    with open(os.path.join(root, "CMakePresets.json"), encoding="utf-8") as f:
        presets = json.load(f)
    with open(os.path.join(root, "Makefile"), encoding="utf-8") as f:
        makefile = f.read()
    options = {"CUDA_LABS_LINEINFO"}
    assert check(presets, makefile, options) == [], check(presets, makefile, options)
    moved = makefile.replace("BUILD ?= build\n", "BUILD ?= out\n", 1)
    assert any("binaryDir" in p for p in check(presets, moved, options))
    assert any("no option()" in p for p in check(presets, makefile, set()))
    debug = makefile.replace("-DCMAKE_BUILD_TYPE=Release", "-DCMAKE_BUILD_TYPE=Debug", 1)
    assert any("CMAKE_BUILD_TYPE" in p for p in check(presets, debug, options))
    print("check_presets self-test: a moved build folder, an unknown option and another "
          "build type are caught")
    return 0


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--root", default=os.path.join(os.path.dirname(__file__), "..", ".."))
    p.add_argument("--configure", metavar="DIR")
    p.add_argument("--cmake", default="cmake")
    p.add_argument("--self-test", action="store_true")
    args = p.parse_args(argv)
    root = os.path.abspath(args.root)
    if args.self_test:
        return self_test(root)
    listed = subprocess.run([args.cmake, "--list-presets=all"], cwd=root,
                            capture_output=True, text=True)
    problems = [] if listed.returncode == 0 else \
        [f"cmake --list-presets=all rejected CMakePresets.json:\n{listed.stderr[-2000:]}"]
    with open(os.path.join(root, "CMakePresets.json"), encoding="utf-8") as f:
        presets = json.load(f)
    with open(os.path.join(root, "Makefile"), encoding="utf-8") as f:
        problems += check(presets, f.read(), project_options(root))
    if args.configure and not problems:
        problems += configure(root, args.cmake, os.path.abspath(args.configure))
    for line in problems:
        print("FAIL: " + line)
    if not problems:
        print("CMakePresets.json agrees with the Makefile" +
              (" and configures" if args.configure else ""))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
