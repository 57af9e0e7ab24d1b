#!/usr/bin/env bash
# ctest's docs.t4_recipe: the README's recipe for a notebook GPU (an NVIDIA
# T4, compute capability 7.5; README "Without a GPU of your own"), as far
# as a machine without a GPU can follow it.
#
#   check-t4-recipe.sh WORK_DIR      (WORK_DIR is emptied first)
#
# Runs make check-lab1 with CMAKE_ARGS=-DCMAKE_CUDA_ARCHITECTURES=75 in
# BUILD=WORK_DIR/build, then check-solution-lab1 and -lab3 (which links lab
# 2's answer library), and checks: sm_75 SASS and PTX only; the solutions
# pass every CPU check and lab 1's skeleton fails them (graded, not
# crashed); every GPU check is a SKIP and the score line says so.
# CUDA_VISIBLE_DEVICES is empty, so that a GPU machine finds no device too.
# CUDACXX names the nvcc, PYTHON the interpreter (both optional).
. "$(dirname "${BASH_SOURCE[0]}")/check_prologue.sh"
build=$work/build
rm -rf "$work"
mkdir -p "$work"
python=${PYTHON:-python3}
export CUDA_VISIBLE_DEVICES=

# The recipe's make, as a student's shell runs it: not as a sub-make of the
# make test that may have started this ctest (its MAKEFLAGS would carry that
# make's variables).
recipe_make() {
  env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -C "$repo" --no-print-directory \
    BUILD="$build" CMAKE_ARGS=-DCMAKE_CUDA_ARCHITECTURES=75 GRADER_ARGS= \
    ${PYTHON:+PYTHON="$PYTHON"} "$@"
}

# graded_without_gpu LOG PROGRAM: each GPU test of PROGRAM (from its --list)
# is a SKIP line in LOG, and the score line counts them as skipped.
graded_without_gpu() {
  local log=$1 program=$2 name gpu_tests
  gpu_tests=$("$program" --list | awk '$1 == "gpu" { print $2 }')
  [ -n "$gpu_tests" ] || fail "$program --list names no GPU test"
  for name in $gpu_tests; do
    grep -qE "^  SKIP +$name " "$log" || fail "$name was not reported SKIP; see $log"
  done
  grep -qE "^lab[0-9]+: [0-9]+ passed, [0-9]+ failed, $(wc -w <<<"$gpu_tests") skipped\. .*GPU not graded" \
    "$log" || fail "the score line does not count the GPU checks as skipped and not graded; see $log"
}

# ------------------------------------------ the recipe's command, lab 1
status=0
recipe_make check-lab1 >"$work/check-lab1.log" 2>&1 || status=$?
[ -f "$build/CMakeCache.txt" ] || fail "make check-lab1 did not configure $build; see $work/check-lab1.log"
grep -qE '^CMAKE_CUDA_ARCHITECTURES:[A-Z]+=75$' "$build/CMakeCache.txt" ||
  fail "CMAKE_ARGS=-DCMAKE_CUDA_ARCHITECTURES=75 did not reach CMake: $(grep '^CMAKE_CUDA_ARCHITECTURES' "$build/CMakeCache.txt")"
[ -x "$build/bin/lab1_check" ] || fail "make check-lab1 built no lab1_check; see $work/check-lab1.log"
# The untouched skeleton: its CPU checks fail, so make fails too.
[ "$status" -ne 0 ] || fail "make check-lab1 on the untouched skeleton succeeded; see $work/check-lab1.log"
grep -qE '^lab1: [0-9]+ passed, [1-9][0-9]* failed,' "$work/check-lab1.log" ||
  fail "make check-lab1 did not grade the skeleton as failing; see $work/check-lab1.log"
graded_without_gpu "$work/check-lab1.log" "$build/bin/lab1_check"

# ------------------------------------- the reference solutions, labs 1 and 3
for lab in 1 3; do
  log=$work/check-solution-lab$lab.log
  recipe_make "check-solution-lab$lab" >"$log" 2>&1 ||
    fail "make check-solution-lab$lab failed; see $log"
  program=$build/bin/lab${lab}_check_solution
  for name in $("$program" --list | awk '$1 == "cpu" { print $2 }'); do
    grep -qE "^  PASS +$name " "$log" || fail "$name did not pass; see $log"
  done
  grep -qE "^lab$lab: [0-9]+ passed, 0 failed, " "$log" || fail "lab $lab's reference failed a check; see $log"
  graded_without_gpu "$log" "$program"
  # GPU code for a T4 only: sm_75 machine code, and its PTX.
  images=$("$python" "$repo/grader/tools/fatbin_images.py" "$build/bin/lab${lab}_check_solution_tests" | sort -u)
  [ "$images" = $'ptx sm_75\nsass sm_75' ] ||
    fail "lab${lab}_check_solution_tests holds other GPU code than sm_75's:"$'\n'"$images"
done

echo "PASS: built for sm_75 with the README's CMAKE_ARGS; labs 1 and 3 pass their CPU checks" \
  "and report every GPU check as skipped"
