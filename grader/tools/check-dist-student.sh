#!/usr/bin/env bash
# ctest's dist.student_copy_builds_and_grades: make dist-student, end to end.
#
#   check-dist-student.sh WORK_DIR      (WORK_DIR is emptied first)
#
# Makes a student copy in WORK_DIR/course (compiled graders), a GRADERS=source
# one and a LABS="1 2" one, and checks that they hold no answers (no
# solutions/, no mutant, no solution-only line or PTX: check_student_copy.py),
# carry the student's README and Makefile, configure without solutions/,
# build the graders (answer-library and wrapped-call labs included), fail
# the untouched skeletons with exit status 1 (graded, not crashed), that
# make submit knows the skeletons, and that lab 1's reference passes there.
#
# Only what these checks need is built, for one GPU architecture (sm_90:
# DIST_ARCHS and CHECK_DIST_ARCH change it), to keep the test short.
# CUDACXX names the nvcc.
. "$(dirname "${BASH_SOURCE[0]}")/check_prologue.sh"
rm -rf "$work"
mkdir -p "$work"
export DIST_ARCHS=${DIST_ARCHS:-90}
# One build of the graders for the copies below (dist-student.sh's GRADERS_BUILD).
export GRADERS_BUILD=$work/graders-build
python=${PYTHON:-python3}

GRADERS=compiled "$repo/grader/tools/dist-student.sh" "$copy"

# ------------------------------------------- line by line, and binaries
"$python" "$repo/grader/tools/check_student_copy.py" --course "$repo" --archs "$DIST_ARCHS" \
  --graders compiled "$copy" || fail "the student copy holds what it must not (above)"
[ -f "$copy/grader/prebuilt/graders/graders.cmake" ] || fail "the copy has no compiled graders"

# GRADERS=source: today's kind of copy, the graders' sources; solution-only
# lines only in them (counted), and it configures with the course's CMake.
source_copy=$work/source_course
GRADERS=source "$repo/grader/tools/dist-student.sh" "$source_copy" >"$work/source_copy.log" 2>&1 ||
  fail "GRADERS=source make dist-student failed; see $work/source_copy.log"
"$python" "$repo/grader/tools/check_student_copy.py" --course "$repo" --archs "$DIST_ARCHS" \
  --graders source "$source_copy" || fail "the GRADERS=source copy holds what it must not (above)"
cmake -S "$source_copy" -B "$source_copy/build" -DCMAKE_BUILD_TYPE=Release \
  ${PYTHON:+-DPython3_EXECUTABLE:FILEPATH="$PYTHON"} \
  -DCMAKE_CUDA_ARCHITECTURES="${CHECK_DIST_ARCH:-90-real}" >"$work/source_configure.log" 2>&1 ||
  fail "configuring the GRADERS=source copy failed; see $work/source_configure.log"
# The binary check can fail: an object with PTX, where a copy would hold it.
probe_sm=${DIST_ARCHS%% *}
echo '__global__ void ptx_probe(float *x) { x[threadIdx.x] = 1.0f; }' >"$work/ptx_probe.cu"
mkdir -p "$work/ptx_copy/grader/prebuilt/probe"
"${CUDACXX:-nvcc}" -c -gencode="arch=compute_$probe_sm,code=compute_$probe_sm" \
  "$work/ptx_probe.cu" -o "$work/ptx_copy/grader/prebuilt/probe/probe.o" ||
  fail "could not compile the PTX probe"
if "$python" "$repo/grader/tools/check_student_copy.py" --course "$repo" --archs "$DIST_ARCHS" \
  "$work/ptx_copy" >"$work/ptx_probe.log" 2>&1 || ! grep -q 'holds PTX' "$work/ptx_probe.log"; then
  fail "check_student_copy.py did not catch an object holding PTX; see $work/ptx_probe.log"
fi

# LABS="1 2": labs 1 and 2 alone; dist-student has built it; their graders
# grade the untouched skeletons as failing.
labs_copy=$work/labs_1_2
LABS="1 2" "$repo/grader/tools/dist-student.sh" "$labs_copy" >"$work/labs_copy.log" 2>&1 ||
  fail "make dist-student LABS=\"1 2\" failed; see $work/labs_copy.log"
"$python" "$repo/grader/tools/check_student_copy.py" --course "$repo" --archs "$DIST_ARCHS" \
  --graders compiled --labs "1 2" "$labs_copy" ||
  fail "the LABS=\"1 2\" copy holds what it must not (above)"
cmake -S "$labs_copy" -B "$labs_copy/build" -DCMAKE_BUILD_TYPE=Release \
  ${PYTHON:+-DPython3_EXECUTABLE:FILEPATH="$PYTHON"} \
  -DCMAKE_CUDA_ARCHITECTURES="${CHECK_DIST_ARCH:-90-real}" >"$work/labs_configure.log" 2>&1 &&
  cmake --build "$labs_copy/build" --target lab1_check lab2_check >"$work/labs_build.log" 2>&1 ||
  fail "the LABS=\"1 2\" copy did not configure and build; see $work/labs_*.log"
for lab in 1 2; do
  status=0
  "$labs_copy/build/bin/lab${lab}_check" --group cpu >"$work/labs_lab${lab}.log" 2>&1 || status=$?
  [ "$status" -eq 1 ] ||
    fail "lab${lab}_check of the LABS copy exited $status on the skeleton, expected 1"
done

# ------------------------------------------------ the student's own text
course_only='\(solutions/|solutions/lab|check-solution|## For instructors|docs/instructors'
if grep -nE "$course_only" "$copy/README.md"; then
  fail "the copy's README.md speaks of what only the course repository has (above)"
fi
said=$(cd "$copy" && make --no-print-directory check-solution-lab1 2>&1) &&
  fail "make check-solution-lab1 worked in the copy"
[ "$(wc -l <<<"$said")" -eq 1 ] && grep -q 'not in this student copy' <<<"$said" ||
  fail "make check-solution-lab1 in the copy did not say in one line that it is not there: $said"

# ------------------------------------------------------ no answers shipped
[ ! -e "$copy/solutions" ] || fail "the copy has a solutions/ folder"
[ -z "$(find "$copy" -name race_demo_kernel.cu)" ] || fail "the race-demo mutant was copied"
# The mutant's kernel, by the name its source in solutions/ gives it,
# wherever it might have been pasted.
mutant=$(sed -n 's/^__global__ void \([A-Za-z0-9_]*\).*/\1/p' \
  "$repo/solutions/lab3_shared_tiles/race_demo_kernel.cu")
[ -n "$mutant" ] || fail "found no kernel in solutions/lab3_shared_tiles/race_demo_kernel.cu"
if grep -rlw "$mutant" "$copy"; then
  fail "the files above contain the race-demo mutant ($mutant)"
fi
# Every answer library a lab declares in its folder, shipped prebuilt.
source "$repo/grader/tools/answer_libraries.sh"
declared=$(answer_libraries "$repo") || fail "the labs' answer-library lists are not readable"
[ -n "$declared" ] || fail "no lab declares an answer library (grader/labN/labN_answer_libraries.list)"
while read -r name _; do
  [ -f "$copy/grader/prebuilt/$name/lib$name.a" ] || fail "no prebuilt $name"
done <<<"$declared"

# The calibration files, as the course has them: the copy's graders read them.
[ -f "$copy/grader/calibration/rules.json" ] || fail "grader/calibration/rules.json was not copied"
for f in "$repo"/grader/calibration/*.json; do
  cmp -s "$f" "$copy/grader/calibration/${f##*/}" || fail "grader/calibration/${f##*/} differs or is missing"
done

# ------------------------------------------------ configures without them
cmake -S "$copy" -B "$copy/build" -DCMAKE_BUILD_TYPE=Release \
  ${PYTHON:+-DPython3_EXECUTABLE:FILEPATH="$PYTHON"} \
  -DCMAKE_CUDA_ARCHITECTURES="${CHECK_DIST_ARCH:-90-real}" >"$work/configure.log" ||
  fail "configuring the copy failed; see $work/configure.log"
tests=$(cd "$copy/build" && ctest -N)
if grep -E 'solution|lab[0-9]+\.racecheck|dist\.' <<<"$tests"; then
  fail "the copy registers the tests above, which need solutions/"
fi
grep -q 'lab1.skeleton.cpu_checks_fail' <<<"$tests" || fail "the skeleton tests are missing"

# ------------------------------------------- builds and grades like here
cmake --build "$copy/build" -j "$(nproc 2>/dev/null || echo 2)" \
  --target lab1_check lab3_check lab4_check lab5_check lab6_check lab7_check >"$work/build.log" 2>&1 ||
  fail "building lab1_check, lab3_check, lab4_check, lab5_check, lab6_check and lab7_check in the copy failed; see $work/build.log"
for lab in 1 3 4 5 6 7; do
  status=0
  "$copy/build/bin/lab${lab}_check" --group cpu >"$work/lab${lab}_check.log" 2>&1 || status=$?
  [ "$status" -eq 1 ] ||
    fail "lab${lab}_check --group cpu on the untouched skeleton exited $status, expected 1" \
      "(checks failed); see $work/lab${lab}_check.log"
done
# ------------------------- make submit knows the skeletons it was shipped
# (no git in a student's copy: grader/skeletons.manifest); untouched, each
# lab file is reported as still the skeleton, with a warning, and packed.
submitted=$(cd "$copy" && make --no-print-directory submit ${PYTHON:+PYTHON="$PYTHON"} 2>&1) ||
  fail "make submit in the copy failed: $submitted"
[ -f "$copy/submission.tar.gz" ] || fail "make submit wrote no submission.tar.gz"
labs=$(ls -d "$copy"/labs/lab[0-9]*_*/ | wc -l)
unchanged=$(grep -c 'UNCHANGED: still the skeleton' <<<"$submitted" || true)
[ "$unchanged" -eq "$labs" ] && grep -q '^warning: .*still the skeleton' <<<"$submitted" ||
  fail "make submit on the untouched copy did not call all $labs lab files the skeleton:
$submitted"
# ------------------------------ the copy grades: lab 1's reference passes
cp "$repo/solutions/lab1_indexing/indexing.cu" "$copy/labs/lab1_indexing/indexing.cu"
cmake --build "$copy/build" --target lab1_check >>"$work/build.log" 2>&1 ||
  fail "building lab1_check on lab 1's reference in the copy failed; see $work/build.log"
"$copy/build/bin/lab1_check" --group cpu >"$work/lab1_reference_check.log" 2>&1 ||
  fail "lab 1's reference in the copy failed its CPU checks; see $work/lab1_reference_check.log"
echo "PASS: the student copy has no answers, builds, grades its skeletons as failing and lab 1's reference as passing, and make submit calls them untouched"
