# Sourced by the check-*.sh ctests that build a copy of the course in a
# work folder (check-dist-student.sh, check-new-lab.sh, check-t4-recipe.sh):
# strict mode, fail(), their one argument, and where the course is.
#   . "$(dirname "${BASH_SOURCE[0]}")/check_prologue.sh"
# sets repo (the course), work (the argument) and copy ($work/course).
set -euo pipefail

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

[ $# -eq 1 ] || fail "usage: $0 WORK_DIR"
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
work=$1
copy=$work/course
