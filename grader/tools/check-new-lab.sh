#!/usr/bin/env bash
# ctest's docs.new_lab_scaffold: grader/tools/new-lab.sh, end to end.
#
#   check-new-lab.sh WORK_DIR      (WORK_DIR is emptied first)
#
# Copies the repository (its tracked and unignored files) to WORK_DIR/course,
# runs new-lab.sh there for the next free lab number and checks that the
# lab needs nothing else to be a lab: it changed only what it lists (its
# folders, skeletons.manifest, the lists of labs between their markers);
# the docs checks pass; its two graders, kernel driver and placeholder
# variant build without warnings; its CPU ctests pass (the skeleton's CPU
# group exits 1 naming TODO(N.1)); its runners hold no student code.
# CUDACXX names the nvcc, PYTHON the interpreter, NM the nm of the build.
. "$(dirname "${BASH_SOURCE[0]}")/check_prologue.sh"
python=${PYTHON:-python3}
rm -rf "$work"
mkdir -p "$copy"

# ------------------------------------------------------------------ copy
if git -C "$repo" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  (cd "$repo" && git ls-files -z --cached --others --exclude-standard |
    while IFS= read -r -d '' f; do [ -f "$f" ] && printf '%s\0' "$f"; done |
    tar --null -T - -cf -) | tar -xf - -C "$copy"
else
  (cd "$repo" && tar --exclude=.git --exclude='./build*' -cf - .) | tar -xf - -C "$copy"
fi

# The next lab number: the test keeps working once a real lab 8 exists.
last=$(ls -d "$copy"/labs/lab[0-9]*_*/ | sed 's|.*/lab\([0-9]*\)_.*|\1|' | sort -n | tail -1)
n=$((last + 1))
lab=lab$n

# ------------------------------------------------------------- scaffold
# Every file's hash (Python's caches aside): what new-lab.sh changed against what it says.
snapshot() {
  (cd "$copy" && find . -type f ! -path '*/__pycache__/*' -print0 | sort -z | xargs -0 sha256sum |
    sed 's|  \./|  |')
}
before=$(snapshot)
PYTHON=$python bash "$copy/grader/tools/new-lab.sh" "$n" example >"$work/new-lab.log" 2>&1 ||
  fail "new-lab.sh $n example failed; see $work/new-lab.log"
after=$(snapshot)
# It lists what it created (two-space indented paths) and what it regenerated.
regenerated=$(sed -n 's/^and regenerated: //p' "$work/new-lab.log" | tr ' ' '\n')
said=$( (sed -n 's/^  \(\(labs\|solutions\|grader\|handouts\)\/[^ ]*\)$/\1/p' "$work/new-lab.log"
  echo "$regenerated") | sort -u)
changed=$(diff <(echo "$before") <(echo "$after") | sed -n 's/^[<>] [0-9a-f]*  //p' | sort -u || true)
[ "$changed" = "$said" ] || fail "new-lab.sh changed other files than it lists:
$(diff <(echo "$said") <(echo "$changed") || true)"
for f in labs/${lab}_example/$lab.h labs/${lab}_example/example.cu \
  solutions/${lab}_example/example.cu grader/$lab/CMakeLists.txt grader/$lab/${lab}_grader.c \
  handouts/$lab-example.md; do
  grep -qxF "$f" <<<"$changed" || fail "new-lab.sh did not make $f"
done
grep -q "labs/${lab}_example/example.cu" "$copy/grader/skeletons.manifest" ||
  fail "grader/skeletons.manifest does not list the new skeleton"
# The regenerated lists of labs changed only between their markers, and name the new lab.
outside() { sed '/<!-- lab-lists: /,/<!-- \/lab-lists -->/d' "$1"; }
for f in README.md docs/design.md handouts/glossary.md; do
  grep -qxF "$f" <<<"$regenerated" || fail "new-lab.sh did not regenerate $f"
done
for f in $regenerated; do
  [[ $f == *.md ]] || continue # the others are whole generated files
  cmp -s <(outside "$repo/$f") <(outside "$copy/$f") ||
    fail "new-lab.sh changed $f outside its lab-lists markers"
done
grep -qF "| $n | \`${lab}_example\` |" "$copy/README.md" || fail "the README's lab table lacks lab $n"
"$python" "$copy/grader/tools/lab_lists.py" --root "$copy" --check >"$work/lab_lists.log" 2>&1 ||
  fail "lab_lists.py --check fails after new-lab.sh; see $work/lab_lists.log"
# The count the issue asks for: how many files adding a lab touches.
echo "new-lab.sh $n example touched $(wc -l <<<"$changed") files:"
sed 's/^/  /' <<<"$changed"

# ------------------------------------------------ the course's own checks
tools=$copy/grader/tools
"$python" "$tools/check_todos.py" "$copy" --strict >"$work/docs.log" 2>&1 ||
  fail "check_todos.py --strict fails on the new lab; see $work/docs.log"
"$python" "$tools/skeleton_manifest.py" --check --root "$copy" >>"$work/docs.log" 2>&1 ||
  fail "skeleton_manifest.py --check fails on the new lab; see $work/docs.log"
"$python" "$tools/check_given_code.py" --root "$copy" >>"$work/docs.log" 2>&1 ||
  fail "check_given_code.py fails on the new lab; see $work/docs.log"
"$python" "$copy/grader/bench/handout_numbers.py" --check "$copy/README.md" "$copy"/handouts/lab*.md \
  >>"$work/docs.log" 2>&1 || fail "handout_numbers.py --check fails with the new lab; see $work/docs.log"

# ---------------------------------------------- configure, build, grade
build=$copy/build
cmake -S "$copy" -B "$build" -DCMAKE_BUILD_TYPE=Release \
  -DPython3_EXECUTABLE:FILEPATH="$(command -v "$python")" \
  -DCMAKE_CUDA_ARCHITECTURES="${CHECK_NEW_LAB_ARCH:-80-real}" >"$work/configure.log" 2>&1 ||
  fail "configuring the copy with lab $n failed; see $work/configure.log"
variant=${lab}_variant_index_ignores_block
cmake --build "$build" -j "$(nproc 2>/dev/null || echo 2)" --target "${lab}_check" "${lab}_check_solution" \
  "${lab}_kernels_solution" "${variant}_ctest" >"$work/build.log" 2>&1 ||
  fail "building ${lab}_check, ${lab}_check_solution, ${lab}_kernels_solution and ${variant} failed;" \
    "see $work/build.log"
if grep -i "warning" "$work/build.log"; then
  fail "the new lab builds with the warnings above"
fi

# Every ctest of the lab is registered, the GPU ones too.
listing=$(cd "$build" && ctest -N -R "^$lab\\.")
for t in solution.cpu_element_index_coverage solution.gpu_scale skeleton.cpu_checks_fail \
  skeleton.gpu_checks_fail kernel_table_lists variant.index_ignores_block; do
  grep -q " $lab\\.$t\$" <<<"$listing" || fail "ctest has no $lab.$t:
$listing"
done
# The CPU group, as make test runs it.
(cd "$build" && ctest -R "^$lab\\." -L cpu --output-on-failure) >"$work/ctest.log" 2>&1 ||
  fail "the new lab's CPU ctests failed; see $work/ctest.log"
# By name, not by count: what else carries the cpu label differs between machines.
for t in solution.cpu_element_index_coverage skeleton.cpu_checks_fail kernel_table_lists \
  variant.index_ignores_block; do
  grep -qE " $lab\\.$t \.+ +Passed" "$work/ctest.log" ||
    fail "expected $lab.$t to pass; $work/ctest.log says:
$(tail -n 30 "$work/ctest.log")"
done

status=0
"$build/bin/${lab}_check" --group cpu >"$work/skeleton.log" 2>&1 || status=$?
[ "$status" -eq 1 ] || fail "${lab}_check --group cpu on the skeleton exited $status, expected 1" \
  "(checks failed); see $work/skeleton.log"
grep -q "TODO($n.1) ${lab}_element_index" "$work/skeleton.log" ||
  fail "the skeleton's failure does not name TODO($n.1); see $work/skeleton.log"

"$python" "$tools/check_runner_boundary.py" "${NM:-nm}" \
  "$build/bin/${lab}_check" "$build/bin/${lab}_check_tests.symbols" "$build/grader/$lab/${lab}_calls.c" -- \
  "$build/bin/${lab}_check_solution" "$build/bin/${lab}_check_solution_tests.symbols" \
  "$build/grader/$lab/${lab}_calls.c" >"$work/boundary.log" 2>&1 ||
  fail "the new lab's runners hold student code; see $work/boundary.log"

echo "PASS: new-lab.sh $n example made a lab that passes the course's checks, builds," \
  "passes on its solution and fails on its skeleton"
