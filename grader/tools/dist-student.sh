#!/usr/bin/env bash
# make dist-student OUT=dir   (or: grader/tools/dist-student.sh dir)
#
# Writes to dir a copy of the course for students: every file of the course
# repository (tracked, or untracked and not ignored) except solutions/, plus
# grader/prebuilt/lab2/, lab 2's reference compiled to machine code only.
# Lab 3's speed checks time the student's kernels against lab 2's reference
# kernel, so the copy needs that kernel, but not its source: the library
# holds SASS for the GPU architectures in DIST_ARCHS and no PTX.
# docs/design.md ("Answers stay in solutions/") explains the choice.
#
# The copy configures, builds and grades with `make check-labN` like the
# course repository; CMake notices that solutions/ is absent (no
# labN_check_solution, no lab3_race_demo) and imports the prebuilt library.
#
# Environment: DIST_ARCHS (compute capabilities, default below), CUDACXX
# (the nvcc to use; else nvcc on PATH, else /usr/local/cuda/bin/nvcc).
set -euo pipefail

die() {
  echo "dist-student: $*" >&2
  exit 1
}

[ $# -eq 1 ] && [ -n "$1" ] || die "usage: $0 OUT_DIR   (or: make dist-student OUT=dir)"
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# Real GPU code for Turing, Ampere (A100; 86 also serves 87/88), Ada, Hopper,
# Blackwell datacenter (100 also serves 103), Thor and Blackwell consumer
# (120 also serves 121): what CUDA 13 can target. SASS runs on its own
# major version only, so a GPU outside this list cannot run the baseline.
archs=${DIST_ARCHS:-"75 80 86 89 90 100 110 120"}

[ -d "$repo/solutions" ] ||
  die "$repo has no solutions/: a student copy is made from the course repository"
out=$1
if [ -e "$out" ] && [ -n "$(ls -A "$out")" ]; then
  die "$out exists and is not empty; give a new or empty folder"
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)

nvcc=${CUDACXX:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
[ -x "$nvcc" ] || die "no nvcc (looked at CUDACXX, PATH, /usr/local/cuda/bin)"
command -v python3 >/dev/null || die "python3 is needed (grader/tools/fatbin_images.py)"

# ---------------------------------------------------------------- files

# Everything the repository holds, listed before anything is written (OUT
# may lie inside the repository).
course_files() {
  if git -C "$repo" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git -C "$repo" ls-files -z --cached --others --exclude-standard
  else
    (cd "$repo" && find . \( -name .git -o -name 'build*' -o -name .deps \) -prune \
      -o -type f -print0 | sed -z 's|^\./||')
  fi
}
mapfile -d '' files < <(course_files)

copied=0
for f in "${files[@]}"; do
  case "$f" in
  solutions/* | grader/prebuilt/*) continue ;; # answers; the prebuilt is made below
  esac
  [ -f "$repo/$f" ] || continue # tracked but deleted in the working tree
  mkdir -p "$out/$(dirname "$f")"
  cp -p "$repo/$f" "$out/$f"
  copied=$((copied + 1))
done

# ------------------------------------------ lab 2's reference, SASS only

prebuilt=$out/grader/prebuilt/lab2
mkdir -p "$prebuilt"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

gencode=()
for a in $archs; do
  gencode+=("-gencode=arch=compute_$a,code=sm_$a") # code=sm_XX only: no PTX
done
echo "dist-student: compiling lab 2's reference for sm_${archs// /, sm_}"
# The project's Release flags; -fPIC so it links into PIE and non-PIE
# programs. Compiled under a neutral relative name, because nvcc records the
# source's path in the object.
cp "$repo/solutions/lab2_naive_matmul/naive_matmul.cu" "$work/lab2_reference.cu"
(cd "$work" && "$nvcc" -c -O3 -DNDEBUG -std=c++17 -Xcompiler=-fPIC --threads 0 \
  "${gencode[@]}" -I "$repo/common" -I "$repo/labs/lab2_naive_matmul" \
  lab2_reference.cu -o lab2_reference.o)
ar rcs "$prebuilt/liblab2_reference.a" "$work/lab2_reference.o"
cp -p "$repo/labs/lab2_naive_matmul/lab2.h" "$prebuilt/lab2.h"

cuda_version=$("$nvcc" --version | sed -n 's/.*, V\([0-9][0-9.]*\).*/\1/p')
commit=$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown)
cat >"$prebuilt/build-info.cmake" <<EOF
# Written by grader/tools/dist-student.sh; read by grader/cmake/LabReference.cmake.
set(PREBUILT_CUDA_VERSION "$cuda_version")
set(PREBUILT_PROCESSOR "$(uname -m)")
set(PREBUILT_ARCHITECTURES "${archs// /;}")
set(PREBUILT_SOURCE_COMMIT "$commit")
EOF
cat >"$prebuilt/README.md" <<EOF
# Lab 2's reference, prebuilt

\`liblab2_reference.a\` is lab 2's reference solution compiled to machine
code only (SASS for sm_${archs// /, sm_}; no PTX, no source), with the
header it implements (\`lab2.h\`, the same as \`labs/lab2_naive_matmul/\`).
Lab 3's grader times your kernels against its naive kernel. It was built
with CUDA $cuda_version on $(uname -m) from commit $commit of the course;
see docs/design.md, "Answers stay in solutions/".
EOF

# --------------------------------------------------------------- checks

[ ! -e "$out/solutions" ] || die "solutions/ ended up in the copy"
# Exactly one SASS image per architecture asked for, and nothing else (no PTX).
got=$(python3 "$repo/grader/tools/fatbin_images.py" "$work/lab2_reference.o" | sort)
want=$(for a in $archs; do echo "sass sm_$a"; done | sort)
[ "$got" = "$want" ] ||
  die "the prebuilt library's GPU code is not SASS-only for '$archs':"$'\n'"$got"
# A solution file copied elsewhere (into labs/ by mistake, say) is caught here.
solution_sums=$(cd "$repo" && find solutions -type f -exec sha256sum {} + | cut -d' ' -f1 | sort -u)
leaked=$(cd "$out" && find . -type f -exec sha256sum {} + | sort |
  join -o 1.2 - <(echo "$solution_sums") || true)
[ -z "$leaked" ] || die "these files are copies of files in solutions/: $leaked"

echo "dist-student: $copied files and grader/prebuilt/lab2/ in $out"
echo "dist-student: students grade with: cd $out && make check-lab1"
