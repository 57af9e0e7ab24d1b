#!/usr/bin/env bash
# Grades every known-wrong variant (solutions/variants) in full, as a student's
# submission would be, and prints for each its time, score line and failure
# messages: what a plausible wrong or hostile submission scores and reads.
#
#   grader/tools/grade_variants.sh [BUILD_DIR] [NAME_FILTER]
set -uo pipefail
cd "$(dirname "$0")/../.."
BUILD=${1:-build}
FILTER=${2:-}
found=0
for grader in $(find "$BUILD" -name 'lab*_variant_*' -type f -executable | sort); do
  name=$(basename "$grader")
  [[ "$name" == *_racecheck || "$name" == *_race_runner ]] && continue # a variant's race runner, not a grader
  [[ -n "$FILTER" && "$name" != *$FILTER* ]] && continue
  found=1
  start=$EPOCHREALTIME
  output=$("$grader" --group cpu --group gpu 2>&1)
  seconds=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
  echo "=== $name ($seconds s)"
  echo "$output" | grep -E "^lab[0-9]: .* Score"
  echo "$output" | sed -n '/^What to fix/,/^$/p' | grep -v "^What to fix\|^$" | cut -c1-400
done
[ "$found" = 1 ] || { echo "no variant graders under $BUILD (is solutions/ present and built?)"; exit 1; }
