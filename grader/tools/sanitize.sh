#!/usr/bin/env bash
# make sanitize-labN: YOUR lab N under compute-sanitizer, built with line
# information (-lineinfo) so that each finding names a file and line.
#   grader/tools/sanitize.sh N BUILD_DIR [grader options]
# memcheck (out-of-bounds and misaligned accesses) on the lab's GPU tests;
# for the labs with shared memory (3, 4, 5, 7) also racecheck (shared-memory
# races: a missing __syncthreads()) and synccheck (barriers not every thread
# reaches), on the lab's small race runner (labN_racecheck: each
# shared-memory kernel once, extensions included; the graded race check
# runs the same program). The tools slow kernels 10-100 times: a test the
# grader reports as hung or too slow under them is not a finding; narrow
# the run with SANITIZE_ARGS="--only TEST".
set -u
lab=$1
build=$2
shift 2
grader_args=("$@")
[ ${#grader_args[@]} -eq 0 ] && grader_args=(--group gpu)

sanitizer=$(command -v compute-sanitizer 2>/dev/null)
if [ -z "$sanitizer" ]; then
  for dir in "$(dirname "$(command -v nvcc 2>/dev/null || echo /usr/local/cuda/bin/nvcc)")" \
             /usr/local/cuda/bin; do
    [ -x "$dir/compute-sanitizer" ] && sanitizer=$dir/compute-sanitizer && break
  done
fi
if [ -z "$sanitizer" ]; then
  echo "make sanitize-lab$lab: compute-sanitizer not found (on PATH or next to nvcc); it ships with the CUDA Toolkit." >&2
  exit 1
fi
if ! nvidia-smi -L >/dev/null 2>&1; then
  echo "make sanitize-lab$lab: no NVIDIA GPU visible here; compute-sanitizer runs your kernels, so it needs one." >&2
  exit 1
fi

status=0
run() { # tool, then the command
  local tool=$1
  shift
  echo "=== compute-sanitizer --tool $tool: $*"
  if ! "$sanitizer" --tool "$tool" --error-exitcode 99 --show-backtrace no "$@"; then
    echo "=== $tool: findings above (or the run failed): each names the kernel, and with -lineinfo the file:line" >&2
    status=1
  fi
}

grader=$build/bin/lab${lab}_check
run memcheck "$grader" "${grader_args[@]}"
case $lab in
  3) runner=("$build/bin/lab3_racecheck" --size 64 64 96 --runs 1) ;;
  4) runner=("$build/bin/lab4_racecheck") ;;
  5|7) runner=("$build/bin/lab${lab}_racecheck" --all) ;;
  *) runner=() ;;
esac
if [ ${#runner[@]} -gt 0 ]; then
  run racecheck "${runner[@]}"
  run synccheck "${runner[@]}"
fi
[ $status -eq 0 ] && echo "=== sanitize-lab$lab: no findings"
exit $status
