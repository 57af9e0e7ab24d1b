#!/usr/bin/env bash
# make dist-student OUT=dir   (or: grader/tools/dist-student.sh dir)
#
# Writes to dir a copy of the course for students, from a whitelist (in_copy
# below): labs/, common/, handouts/, the top-level CMake, the graders
# compiled (grader/tools/pack_graders.py) and what the student targets run,
# with a Makefile and README.md cut from the course's
# (grader/tools/student_text.py). Never solutions/, the batch grader, the
# project's tests, docs/, or an untracked file outside the whitelisted
# folders (a roster, a folder of submissions).
#
# Answer-shaped code a copy's grader links (each lab's
# grader/labN/labN_answer_libraries.list) ships as SASS only, no PTX:
# docs/design.md section 5 ("Answers stay in solutions/") says why.
# The copy is configured and built before it is called done, and refused
# if its text still names a file it lacks.
#
# Environment: DIST_ARCHS (compute capabilities, default below), CUDACXX
# (else nvcc on PATH, else /usr/local/cuda/bin/nvcc), PYTHON (else python3),
# GRADERS ("compiled", the default, or "source", which reveals the graders'
# reference models: docs/design.md sections 5.3 and 5.4), LABS (the labs
# to release, "1 2"; default all), GRADERS_BUILD (a folder that keeps the
# graders' build for the next copy; default a temporary one).
set -euo pipefail
# answer_libraries: the labs' answer-library lists, as CMake reads them.
source "$(dirname "${BASH_SOURCE[0]}")/answer_libraries.sh"

die() {
  echo "dist-student: $*" >&2
  exit 1
}

[ $# -eq 1 ] && [ -n "$1" ] || die "usage: $0 OUT_DIR   (or: make dist-student OUT=dir)"
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# Every major GPU family CUDA 13 targets (86, 100, 120 also serve 87/88, 103, 121):
# SASS runs on its own major version only, so a GPU outside this list cannot run the baseline.
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
python=${PYTHON:-python3}
"$python" -c '' 2>/dev/null || die "Python 3 is needed (grader/tools/fatbin_images.py); found no $python"
# The copy's make submit compares the students' files with the skeletons
# through grader/skeletons.manifest: it must describe the skeletons shipped.
"$python" "$repo/grader/tools/skeleton_manifest.py" --check --root "$repo" >/dev/null ||
  die "grader/skeletons.manifest does not match labs/: run make skeleton-manifest and commit it
$("$python" "$repo/grader/tools/skeleton_manifest.py" --check --root "$repo")"

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
# Untracked files reach the copy only inside its folders (a lab being added);
# anything else (a roster, a folder of submissions) is left out and named.
untracked=""
if git -C "$repo" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  untracked=$(git -C "$repo" ls-files --others --exclude-standard)
fi
is_untracked() { [ -n "$untracked" ] && grep -qxF -- "$1" <<<"$untracked"; }

graders=${GRADERS:-compiled}
case "$graders" in
compiled | source) ;;
*) die "GRADERS is compiled (the default: grader/prebuilt/graders/) or source (the graders' C
sources; docs/design.md section 5.3 says what that reveals), not '$graders'" ;;
esac

# LABS="1 2" releases those labs only (everything of theirs); default: every lab.
all_labs=$(ls -d "$repo"/labs/lab[0-9]*_*/ | sed 's|.*/lab\([0-9]*\)_.*|\1|' | sort -n |
  tr '\n' ' ')
lab_numbers=$all_labs
if [ -n "${LABS:-}" ]; then
  [ "$graders" = compiled ] ||
    die "LABS needs compiled graders: a GRADERS=source copy would hold every lab's grader source"
  lab_numbers=""
  for n in $(tr ' ,' '\n\n' <<<"$LABS" | sed '/^$/d' | sort -nu); do
    [[ " $all_labs" == *" $n "* ]] || die "LABS: there is no lab $n in labs/ (labs: ${all_labs% })"
    lab_numbers+="$n "
  done
fi
# released PATH: whether a path that belongs to one lab (labs/labN_*,
# handouts/labN-*, grader/labN/, handouts/results/h100-labN-*) is of a released lab.
released() {
  [[ "$1" =~ (^|[/_-])lab([0-9]+)([/_.-]) ]] || return 0
  [[ " $lab_numbers" == *" ${BASH_REMATCH[2]} "* ]]
}

# in_copy PATH: whether a file of the course goes into a student copy.
in_copy() {
  case "$1" in
  */tests/* | */__pycache__/*) return 1 ;; # the project's own tests
  labs/* | common/* | handouts/*) return 0 ;;
  CMakeLists.txt | CMakePresets.json | .gitignore) return 0 ;;
  # What builds and runs the graders, whichever way they are shipped.
  grader/skeletons.manifest | grader/cmake/* | grader/calibration/*) return 0 ;;
  grader/lab[0-9]*/*_profile.metrics) return 0 ;;
  grader/lab6/plot_timeline.py | grader/lab7/plot_sizes.py) return 0 ;; # make plot-lab6/7
  # make profile-labN, sanitize-labN, plot-lab6/7, submit, and the first configure.
  grader/tools/ncu_profile.py | grader/tools/sanitize.sh) return 0 ;;
  grader/tools/need_matplotlib.py) return 0 ;;
  grader/tools/skeleton_manifest.py | grader/tools/check_todos.py) return 0 ;; # its C scanner
  grader/tools/ensure-deps.sh) return 0 ;;
  grader/tools/summarize_results.py) return 0 ;; # handouts/grading.md teaches it
  esac
  [ "$graders" = source ] || return 1
  case "$1" in
  # The graders as source (GRADERS=source), and the CMake that compiles them.
  grader/CMakeLists.txt | grader/support/* | grader/lab[0-9]*/*) return 0 ;;
  grader/tools/gen_calls.py) return 0 ;; # writes each lab's labN_calls.c in the build
  grader/harness/runner/* | grader/harness/checks/*) return 0 ;;
  grader/matmul/* | grader/baselines/* | grader/driver/* | grader/time/*) return 0 ;;
  esac
  return 1
}

left_out=()
declare -A left_out_by_folder=()
for f in "${files[@]}"; do
  [ -f "$repo/$f" ] || continue # tracked but deleted in the working tree
  if ! in_copy "$f" || ! released "$f"; then
    if is_untracked "$f"; then
      left_out+=("$f")
    else
      folder=${f%%/*}
      [ "$folder" != grader ] || { folder=${f#grader/}; folder=grader/${folder%%/*}; }
      left_out_by_folder[$folder]=$((${left_out_by_folder[$folder]:-0} + 1))
    fi
    continue
  fi
  mkdir -p "$out/$(dirname "$f")"
  cp -p "$repo/$f" "$out/$f"
done

if [ ${#left_out[@]} -gt 0 ]; then
  echo "dist-student: left out ${#left_out[@]} untracked file(s) outside the copy's whitelist:" \
    "${left_out[@]:0:5}" >&2
fi
summary=""
for folder in $(printf '%s\n' "${!left_out_by_folder[@]}" | sort); do
  summary+=" $folder (${left_out_by_folder[$folder]})"
done
echo "dist-student: not for students, left out:$summary"

# The copy's Makefile and README: the course's, without what is for
# instructors (their "course only" blocks).
"$python" "$repo/grader/tools/student_text.py" makefile "$repo/Makefile" "$out/Makefile"
"$python" "$repo/grader/tools/student_text.py" readme "$repo/README.md" "$out/README.md" \
  --labs "$lab_numbers"
# make submit's record of the skeletons: the released labs' lines only.
if [ "$lab_numbers" != "$all_labs" ]; then
  while IFS= read -r line; do
    released "$line"$'\t' && printf '%s\n' "$line"
  done <"$repo/grader/skeletons.manifest" >"$out/grader/skeletons.manifest"
fi
# Links to what the copy lacks (docs/, solutions/) become their text.
"$python" "$repo/grader/tools/student_text.py" links "$out" | sed 's/^/dist-student: /'

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# ------------------------------------------------ the graders, compiled
# The student-side programs built SASS-only and position-independent;
# pack_graders.py packs them into grader/prebuilt/graders/, and
# grader/cmake/PrebuiltGraders.cmake links them again in the copy.
if [ "$graders" = compiled ]; then
  echo "dist-student: compiling the graders of labs ${lab_numbers% } for sm_${archs// /, sm_}"
  real_archs=$(for a in $archs; do printf '%s-real;' "$a"; done)
  # GRADERS_BUILD=dir keeps that build for the next copy (one per release, say).
  build=${GRADERS_BUILD:-$work/graders}
  cmake -S "$repo" -B "$build" -G "Unix Makefiles" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CUDA_ARCHITECTURES="${real_archs%;}" -DCMAKE_POSITION_INDEPENDENT_CODE=ON \
    -DPython3_EXECUTABLE:FILEPATH="$(command -v "$python")" >"$work/graders-configure.log" 2>&1 ||
    die "configuring the graders' build failed:"$'\n'"$(tail -20 "$work/graders-configure.log")"
  # shellcheck disable=SC2086 # lab numbers and program names are words
  programs=$("$python" "$repo/grader/tools/pack_graders.py" programs "$build" $lab_numbers) ||
    die "could not list the graders' programs"
  # shellcheck disable=SC2086
  cmake --build "$build" -j "$(nproc 2>/dev/null || echo 2)" --target $programs \
    >"$work/graders-build.log" 2>&1 ||
    die "building the graders failed:"$'\n'"$(grep -m 20 -iE 'error' "$work/graders-build.log")"
  # shellcheck disable=SC2086
  "$python" "$repo/grader/tools/pack_graders.py" pack "$build" "$out/grader/prebuilt/graders" \
    --answer-libraries "$(answer_libraries "$repo" | awk '{print $1}' | tr '\n' ' ')" \
    --archs "$archs" $lab_numbers | sed 's/^/dist-student: /' ||
    die "packing the graders failed"
fi

# ----------------------------------- answer libraries, machine code only
gencode=()
for a in $archs; do
  gencode+=("-gencode=arch=compute_$a,code=sm_$a") # code=sm_XX only: no PTX
done
cuda_version=$("$nvcc" --version | sed -n 's/.*, V\([0-9][0-9.]*\).*/\1/p')
commit=$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown)
want_images=$(for a in $archs; do echo "sass sm_$a"; done | sort)

# prebuild LIBRARY SOURCE LAB_DIR: one line of a lab's answer-library list.
prebuild() {
  local name=$1 source=$2 lab_dir=$3
  local prebuilt=$out/grader/prebuilt/$name
  mkdir -p "$prebuilt"
  echo "dist-student: compiling $name (solutions/$source) for sm_${archs// /, sm_}"
  # -fPIC: links into PIE and non-PIE programs. A neutral name, because nvcc
  # records the source's path in the object.
  cp "$repo/solutions/$source" "$work/$name.cu"
  (cd "$work" && "$nvcc" -c -O3 -DNDEBUG -std=c++17 -Xcompiler=-fPIC --threads 0 \
    "${gencode[@]}" -I "$repo/common" -I "$repo/labs/$lab_dir" "$name.cu" -o "$name.o")
  # Exactly one SASS image per architecture asked for, and nothing else (no PTX).
  local got
  got=$("$python" "$repo/grader/tools/fatbin_images.py" "$work/$name.o" | sort)
  [ "$got" = "$want_images" ] ||
    die "$name's GPU code is not SASS-only for '$archs':"$'\n'"$got"
  ar rcs "$prebuilt/lib$name.a" "$work/$name.o"
  cp -p "$repo/labs/$lab_dir"/*.h "$prebuilt/"
  cat >"$prebuilt/build-info.cmake" <<EOF
# Written by grader/tools/dist-student.sh; read by grader/cmake/AnswerLibraries.cmake.
set(PREBUILT_CUDA_VERSION "$cuda_version")
set(PREBUILT_PROCESSOR "$(uname -m)")
set(PREBUILT_ARCHITECTURES "${archs// /;}")
set(PREBUILT_SOURCE_COMMIT "$commit")
EOF
  cat >"$prebuilt/README.md" <<EOF
# $name, prebuilt

\`lib$name.a\` is answer-shaped code a grader times your kernels against,
compiled to machine code only (SASS for sm_${archs// /, sm_}; no PTX, no
source), with the lab header it includes (from \`labs/$lab_dir/\`). It was
built with CUDA $cuda_version on $(uname -m) from commit $commit of the
course; see docs/design.md, "Answers stay in solutions/".
EOF
}

declared=$(answer_libraries "$repo") || die "the labs' answer-library lists are not readable"
# The libraries the copy's graders link: those the compiled programs name, or
# with GRADERS=source every one declared; each with its lab's list, which
# AnswerLibraries.cmake reads.
needed=""
if [ "$graders" = compiled ]; then
  needed=$(grep -o 'TARGET:[a-z0-9_]*' "$out/grader/prebuilt/graders/graders.cmake" |
    sed 's/^TARGET://' | sort -u | tr '\n' ' ')
fi
prebuilt_names=()
while read -r name source lab_dir; do
  [ -n "$name" ] || continue # no lab declares one
  [ "$graders" = source ] || [[ " $needed" == *" $name "* ]] || continue
  list=grader/${lab_dir%%_*}/${lab_dir%%_*}_answer_libraries.list
  if [ ! -f "$out/$list" ]; then
    cp -p "$repo/$list" "$out/$list"
  fi
  prebuild "$name" "$source" "$lab_dir"
  prebuilt_names+=("$name")
done <<<"$declared"

# --------------------------------------------------------------- checks

[ ! -e "$out/solutions" ] || die "solutions/ ended up in the copy"
dead=$("$python" "$repo/grader/tools/student_text.py" check "$out") ||
  die "the copy's text names files it does not hold (reword the course's text):"$'\n'"$dead"
# A solution file copied elsewhere (into labs/ by mistake, say) is caught here.
solution_sums=$(cd "$repo" && find solutions -type f -exec sha256sum {} + | cut -d' ' -f1 | sort -u)
leaked=$(cd "$out" && find . -type f -exec sha256sum {} + | sort |
  join -o 1.2 - <(echo "$solution_sums") || true)
[ -z "$leaked" ] || die "these files are copies of files in solutions/: $leaked"

# The calibration files grade the students' own runs as they grade the batch's.
for f in "$repo"/grader/calibration/*.json; do
  [ -e "$f" ] || continue
  cmp -s "$f" "$out/grader/calibration/${f##*/}" ||
    die "grader/calibration/${f##*/} is not in the copy as it is in the course"
done

# ------------------------------------- it configures, builds and grades
# In a folder of its own (the copy keeps no build), for the first architecture;
# each lab's grader must list its tests.
first=${archs%% *}
echo "dist-student: test-building the copy (labs ${lab_numbers% }, sm_$first)"
cmake -S "$out" -B "$work/copy-build" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CUDA_ARCHITECTURES="$first-real" \
  -DPython3_EXECUTABLE:FILEPATH="$(command -v "$python")" >"$work/copy-configure.log" 2>&1 ||
  die "the copy does not configure:"$'\n'"$(grep -A5 'CMake Error' "$work/copy-configure.log" |
    head -20)"
targets=""
for n in $lab_numbers; do targets+="lab${n}_check lab${n}_kernels "; done
# shellcheck disable=SC2086 # target names are words
cmake --build "$work/copy-build" -j "$(nproc 2>/dev/null || echo 2)" --target $targets \
  >"$work/copy-build.log" 2>&1 ||
  die "the copy does not build:"$'\n'"$(grep -m 20 -iE 'error' "$work/copy-build.log")"
for n in $lab_numbers; do
  "$work/copy-build/bin/lab${n}_check" --list >/dev/null ||
    die "lab ${n}'s grader, built in the copy, does not run"
done

files_in_copy=$(find "$out" -type f | wc -l)
echo "dist-student: $files_in_copy files (graders: $graders; labs ${lab_numbers% };" \
  "answer libraries: ${prebuilt_names[*]:-none}) in $out"
echo "dist-student: students grade with: cd $out && make check-lab${lab_numbers%% *}"
