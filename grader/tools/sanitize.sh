#!/usr/bin/env bash
# make sanitize-labN: YOUR lab N under compute-sanitizer, built with line
# information (-lineinfo) so that each finding names a file and line.
#   grader/tools/sanitize.sh N BUILD_DIR [grader options]
# memcheck on the lab's GPU tests; for a lab with a race runner
# (labN_racecheck, the program the graded race check runs) also racecheck
# and synccheck, with the arguments the build wrote in labN_racecheck.args.
# The tools slow kernels 10-100 times: a test reported hung or too slow
# under them is not a finding; narrow the run with SANITIZE_ARGS="--only TEST".
#
#   grader/tools/sanitize.sh --preflight N
# says in one line why nothing can run here (no GPU, no compute-sanitizer)
# and exits 3, or exits 0, so that make builds nothing it cannot use; a
# missing GPU or tool is not the student's failure: make exits 0.
set -u

find_sanitizer() {
  sanitizer=$(command -v compute-sanitizer 2>/dev/null)
  if [ -z "$sanitizer" ]; then
    for dir in "$(dirname "$(command -v nvcc 2>/dev/null || echo /usr/local/cuda/bin/nvcc)")" \
               /usr/local/cuda/bin; do
      [ -x "$dir/compute-sanitizer" ] && sanitizer=$dir/compute-sanitizer && break
    done
  fi
}

# Returns 3, with one line, when nothing can run here.
preflight() {
  if ! nvidia-smi -L >/dev/null 2>&1; then
    echo "make sanitize-lab$lab: needs a CUDA GPU, and none is visible here (nothing was built or run)."
    return 3
  fi
  find_sanitizer
  if [ -z "$sanitizer" ]; then
    echo "make sanitize-lab$lab: compute-sanitizer is not installed here (looked on PATH and next to nvcc); it comes with the CUDA Toolkit (nothing was built or run)."
    return 3
  fi
  return 0
}

if [ "${1:-}" = --preflight ]; then
  lab=${2:?usage: $0 --preflight N}
  preflight
  exit $?
fi

lab=$1
build=$2
shift 2
grader_args=("$@")
[ ${#grader_args[@]} -eq 0 ] && grader_args=(--group gpu)
preflight || exit 0

status=0
run() { # tool, then the command
  local tool=$1
  shift
  echo "=== compute-sanitizer --tool $tool: $*"
  # --target-processes all: the grader's runner starts its test program once
  # per test, and the student's kernels run there.
  if ! "$sanitizer" --tool "$tool" --target-processes all --error-exitcode 99 \
      --show-backtrace no "$@"; then
    echo "=== $tool: findings above (or the run failed): each names the kernel, and with -lineinfo the file:line" >&2
    status=1
  fi
}

grader=$build/bin/lab${lab}_check
# The sanitizer takes CUPTI's one subscriber slot, so the launch watch would
# fail every judged call; this run is for findings, not a grade: watch off.
echo "=== the grader's tests under memcheck: its kernel identity check is off here (compute-sanitizer holds CUPTI); grade with make check-lab$lab"
GRADER_NO_LAUNCH_WATCH=1 run memcheck "$grader" "${grader_args[@]}"
race=$build/bin/lab${lab}_racecheck
if [ -f "$race.args" ]; then
  mapfile -t race_args <"$race.args"
  run racecheck "$race" "${race_args[@]}"
  run synccheck "$race" "${race_args[@]}"
elif [ -e "$race" ]; then
  echo "=== $race has no $race.args beside it: configure it again (cmake -S . -B $build)" >&2
  status=1
else
  echo "=== lab $lab has no race runner (no shared-memory kernels to check): racecheck and synccheck not run"
fi
[ $status -eq 0 ] && echo "=== sanitize-lab$lab: no findings"
exit $status
