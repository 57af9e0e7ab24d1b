#!/usr/bin/env bash
# grader/tools/new-lab.sh N TOPIC    (e.g. new-lab.sh 8 sparse_matvec)
#
# Makes a working, empty lab N: one placeholder exercise (scale a vector)
# with one TODO, whose grader passes on the solution and fails on the
# skeleton, in the places a lab lives (docs/design.md, section 6): labs/,
# solutions/ (and one variant), grader/labN/ and handouts/. Then regenerates
# grader/skeletons.manifest and the lists of labs (lab_lists.py, from
# grader/labN/lab.ini), and prints as a checklist what is still by hand.
# Templates: grader/tools/new_lab/*.in, and the lab's own file (skeleton and
# answer) solutions/new_lab/topic.cu.in. ctest docs.new_lab_scaffold runs
# this in a copy (check-new-lab.sh).
#
# Environment: PYTHON (the project's interpreter; else python3 on PATH).
set -euo pipefail

die() {
  echo "new-lab: $*" >&2
  exit 1
}

[ $# -eq 2 ] || die "usage: $0 N TOPIC   (TOPIC: lower case, digits, underscores: warp_tiling)"
number=$1
topic=$2
[[ "$number" =~ ^[1-9][0-9]*$ ]] || die "N must be a lab number (1, 2, ...), not '$number'"
# The folder name labN_TOPIC is the lab's identity everywhere (Makefile,
# batch whitelist, check_todos), and C identifiers are made from TOPIC.
[[ "$topic" =~ ^[a-z][a-z0-9]*(_[a-z0-9]+)*$ ]] ||
  die "TOPIC must be lower case words joined by underscores (warp_tiling), not '$topic'"

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
templates=$repo/grader/tools/new_lab
# The template answer (topic.cu.in, the solution half of the lab's file) is kept
# under solutions/ with every other answer: a student copy has neither.
answer_templates=$repo/solutions/new_lab
python=${PYTHON:-python3}
"$python" -c '' 2>/dev/null || die "Python 3 is needed (skeleton_manifest.py); found no $python"

lab=lab$number
dir=${lab}_$topic
handout=$lab-${topic//_/-}.md
title=${topic//_/ }

# Lab N must not exist in any of its places, under any topic.
shopt -s nullglob
taken=("$repo/labs/${lab}_"* "$repo/solutions/${lab}_"* "$repo/grader/$lab" "$repo/handouts/$lab-"*)
shopt -u nullglob
for path in "${taken[@]}"; do
  [ -e "$path" ] && die "lab $number exists already: ${path#"$repo"/}"
done

created=()
# render TEMPLATE DEST [skeleton|solution]: @N@, @TOPIC@, @TITLE@, @HANDOUT@
# filled in. //@skeleton, //@solution and //@end lines mark where skeleton and
# solution differ, so their given code is one text (docs.given_code_equal).
render() {
  local template=$1 dest=$2 side=${3:-}
  local source=$templates/$template
  [ -f "$source" ] || source=$answer_templates/$template
  mkdir -p "$(dirname "$repo/$dest")"
  awk -v side="$side" '
    $0 == "//@skeleton" { part = "skeleton"; next }
    $0 == "//@solution" { part = "solution"; next }
    $0 == "//@end"      { part = ""; next }
    part == "" || part == side' "$source" |
    sed -e "s/@N@/$number/g" -e "s/@TOPIC@/$topic/g" -e "s/@TITLE@/$title/g" \
      -e "s/@HANDOUT@/$handout/g" >"$repo/$dest"
  created+=("$dest")
}

render lab.h.in "labs/$dir/$lab.h"
render topic.cu.in "labs/$dir/$topic.cu" skeleton
render topic.cu.in "solutions/$dir/$topic.cu" solution
render CMakeLists.txt.in "grader/$lab/CMakeLists.txt"
render grader.c.in "grader/$lab/${lab}_grader.c"
render checks.h.in "grader/$lab/${lab}_checks.h"
render rubric.h.in "grader/$lab/${lab}_rubric.h"
render cpu_checks.c.in "grader/$lab/${lab}_cpu_checks.c"
render gpu_checks.c.in "grader/$lab/${lab}_gpu_checks.c"
render kernels.c.in "grader/$lab/${lab}_kernels.c"
render lab.ini.in "grader/$lab/lab.ini"
render variant.cmake.in "solutions/variants/$lab/index_ignores_block.cmake"
render handout.md.in "handouts/$handout"

# Derived from the labs, so generated: make submit's manifest and the lists of labs.
"$python" "$repo/grader/tools/skeleton_manifest.py" --write --root "$repo" >/dev/null
regenerated=$("$python" "$repo/grader/tools/lab_lists.py" --write --root "$repo" |
  sed -n 's/^lab_lists: .* rewrote //p' | sed 's/^nothing$//; s/,//g')

echo "new-lab: lab $number ($dir) created:"
printf '  %s\n' "${created[@]}"
echo "and regenerated: grader/skeletons.manifest $regenerated"
cat <<EOF

Try it: make check-solution-$lab (passes; the GPU test is skipped without a
GPU) and make check-$lab (fails); make test registers $lab.solution.* and
$lab.skeleton.{cpu,gpu}_checks_fail.

Still by hand (docs/design.md, sections 6.2 and 6.3: the lab itself, and the
central lists that name every lab):
  [ ] replace the placeholder exercise with the lab's own: labs/$dir/,
      solutions/$dir/ (given code byte for byte as in the skeleton),
      grader/$lab/ (tests, checks, failure messages naming TODO and section),
      handouts/$handout; after editing the skeleton make skeleton-manifest
  [ ] solutions/variants/$lab/*.cmake: at least six known-wrong variants (the
      placeholder's one shows the form); after a
      GPU run of ctest -L variant, their rows in grader/tests/outcomes.tsv
      (grader/tools/outcome_table.py)
  [ ] speed tests: thresholds calibrated on a GPU in grader/$lab/${lab}_rubric.h,
      each with its partial-credit floor beside it, and a GRADER_SPEED row in
      grader/$lab/${lab}_grader.c; each threshold CALIBRATED(NAME, default)
      with its rule in grader/$lab/${lab}_calibration_rules.json (make
      lab-lists gathers it into grader/calibration/rules.json); a baseline that is
      an answer goes in solutions/$dir/ with a line in
      grader/$lab/${lab}_answer_libraries.list
  [ ] the kernel table grader/$lab/${lab}_kernels.c: the lab's kernels, their
      yardsticks and work (make time-$lab, make profile-$lab, the speed
      checks); ${lab}_profile.metrics for make profile-$lab; KERNEL_RACE rows
      and RACE_FROM_TABLE in grader/$lab/CMakeLists.txt for shared memory
  [ ] grader/$lab/lab.ini: the lab's summary, status, yardstick and headline
      (its row in the README's "What good looks like"), then make lab-lists
      (the README's, design.md's, grading.md's and the glossary's lists of
      labs; the ctest docs.lab_lists checks them)
  [ ] handouts/glossary.md: the lab's terms
  [ ] make bench: the bench columns of grader/$lab/${lab}_kernels.c's rows
      and its table's bench problems (bench.py finds ${lab}_kernels itself);
      then make bench
      LAB=$number on a GPU and make handout-numbers (handout_numbers.py reads
      every handouts/lab*.md and grader/lab*/lab*_rubric.h itself)
  [ ] solutions/fixtures/: fixtures whose expectations list labs or
      gradebook columns (batch.fixture_corpus grades every lab)
  [ ] on a GPU: make check-solutions, ctest -R '^$lab\.' (the skeleton's GPU
      group fails), make dist-student OUT=/tmp/copy
EOF
