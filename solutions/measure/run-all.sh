#!/usr/bin/env bash
# The GPU figures of issue 25, in one run on the course GPU (an H100 or H200):
#
#   source .deps/env.sh && make build JOBS=16      # once
#   bash solutions/measure/run-all.sh                 # from the repository root
#
# Each part writes one table to $OUT (default build/measure):
#   [1] lab4-control.txt        lab 4 section 7: copies with the transpose kernels'
#                               block shapes, beside the solution's transposes
#   [2] lab6-issue-order.txt    lab 6 section 5: depth- and breadth-first at 16x64,
#                               16x16 and 32x32 streams x chunks, the whole table with
#                               CUDA_DEVICE_MAX_CONNECTIONS unset (8), =16 and =32
#   [3] cublas-tf32.txt         cuBLAS SGEMM at 4096^3, FP32 and TF32 tensor cores
#   [4] <gpu>-lab7-profile.txt  lab 7 under Nsight Compute, per stage (committable as
#                               handouts/results/h100-lab7-profile.txt from an H100)
#   [5] lab5-divergence.txt     lab 5: what the modulo costs, what divergence costs
#   [6] lab7-async-copy.txt     lab 7 section 15: warp tiles fed by cp.async, and split
#                               K, beside stage 4, the final stage, lab 3 and cuBLAS
#   [7] instructions.txt        lab 5 section 9: integer % and / by a variable against a
#                               power of two, float division (IEEE, __fdividef, a*(1/b),
#                               -use_fast_math) with its accuracy, FP32 against FP64 FMA
#   [8] lab5-atomic-target.txt  lab 5: stage (4) against its sum's address and the clocks
#   [9] lab7-sweep.txt          lab 7: the reference's warp tile under each parameter set
#                               of lab7_tile_sweep.sh, at 4096^3 beside cuBLAS (its
#                               builds and runs in lab7-sweep.log)
#   run-all.log                 GPU, build, each part's status and time
# Every part runs whatever the others did, each under a time limit (1,120 s in
# all); a part that fails (or finds no GPU) says so in one line, and the exit
# status is non-zero only at the end. make measure runs this script.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
OUT=${OUT:-build/measure}
BUILD=${BUILD:-build}
JOBS=${JOBS:-16}
PYTHON=${PYTHON:-python3}
mkdir -p "$OUT"
LOG="$OUT/run-all.log"
: >"$LOG"
START=$(date +%s)

say() { printf '%s\n' "$*" | tee -a "$LOG"; }
TREE=$(git rev-parse --short HEAD 2>/dev/null || echo "unknown (no git here)")
if [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then
  TREE="$TREE with uncommitted changes"
fi
say "solutions/measure/run-all.sh: tree $TREE, $(date -u '+%Y-%m-%d %H:%M UTC'), output in $OUT"

GPU_NAME=""
if gpu_list=$(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu \
                --format=csv 2>&1) && nvidia-smi -L 2>/dev/null | grep -q "GPU [0-9]"; then
  say "$gpu_list"
  GPU_NAME=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
elif ! command -v nvidia-smi >/dev/null; then
  say "no CUDA device: nvidia-smi is not installed here; every part will say so"
else
  say "no CUDA device: nvidia-smi lists no GPU (${gpu_list%%$'\n'*}); every part will say so"
fi

# ---- build: each target on its own, so one that fails to build costs only its part.
if [ ! -f "$BUILD/CMakeCache.txt" ]; then
  say "configuring $BUILD (make build had not run)"
  cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release >>"$LOG" 2>&1 ||
    say "!! configuring $BUILD failed"
fi
for target in measure_lab4_control measure_lab6_order measure_cublas_tf32 lab7_kernels_solution \
              measure_lab5_divergence measure_lab7_async_copy measure_instructions \
              measure_lab5_atomic_target; do
  if ! cmake --build "$BUILD" -j "$JOBS" --target "$target" >"$OUT/build.tmp.log" 2>&1; then
    say "!! building $target failed (the part that needs it will fail too):"
    if grep -q "No rule to make target\|unknown target" "$OUT/build.tmp.log"; then
      say "   $BUILD has no target $target (the measure programs exist only beside solutions/)"
    fi
    tail -20 "$OUT/build.tmp.log" | tee -a "$LOG"
  fi
done
rm -f "$OUT/build.tmp.log"
say "build done after $(( $(date +%s) - START )) s"

# ---- the parts
FAILED=()
PARTS=9
# part N "what" file seconds command...: runs the command with a time limit, its
# output into $OUT/file (and onto the terminal), and records how it ended.
part() {
  local number=$1 what=$2 file=$3 limit=$4
  shift 4
  local began=$(date +%s) status
  say "[$number/$PARTS] $what -> $OUT/$file"
  # bash -c: the command may be one of the functions below (exported).
  timeout --kill-after=10 "$limit" bash -c '"$@"' part "$@" 2>&1 | tee -a "$OUT/$file"
  status=${PIPESTATUS[0]}
  local took=$(( $(date +%s) - began ))
  case $status in
    0) say "[$number/$PARTS] $what: done in $took s" ;;
    3) say "[$number/$PARTS] $what: no CUDA device, nothing measured"; FAILED+=("$number") ;;
    124|137) say "[$number/$PARTS] $what: stopped after the $limit s limit"; FAILED+=("$number") ;;
    *) say "[$number/$PARTS] $what: FAILED (exit status $status) after $took s"; FAILED+=("$number") ;;
  esac
}
fresh() { : >"$OUT/$1"; }
export BUILD PYTHON

fresh lab4-control.txt
part 1 "lab 4 control copies" lab4-control.txt 60 "$BUILD/bin/measure_lab4_control"

# The variable is read when the CUDA context is made: one process per setting.
fresh lab6-issue-order.txt
lab6_all() {
  local rc=0 setting
  for setting in unset 16 32; do
    echo "=== CUDA_DEVICE_MAX_CONNECTIONS $setting"
    if [ "$setting" = unset ]; then
      env -u CUDA_DEVICE_MAX_CONNECTIONS "$BUILD/bin/measure_lab6_order" || rc=$?
    else
      env CUDA_DEVICE_MAX_CONNECTIONS="$setting" "$BUILD/bin/measure_lab6_order" || rc=$?
    fi
    echo
    if [ "$rc" = 3 ] || [ "$rc" = 127 ]; then break; fi # no device, no program: once is enough
  done
  return "$rc"
}
export -f lab6_all
part 2 "lab 6 issue order x CUDA_DEVICE_MAX_CONNECTIONS" lab6-issue-order.txt 120 lab6_all

# NVIDIA_TF32_OVERRIDE=1 would turn the default-math row into TF32: leave it out.
fresh cublas-tf32.txt
part 3 "cuBLAS SGEMM FP32 and TF32" cublas-tf32.txt 60 \
  env -u NVIDIA_TF32_OVERRIDE "$BUILD/bin/measure_cublas_tf32"

case "$GPU_NAME" in
  *H100*) PROFILE=h100-lab7-profile.txt ;;
  *H200*) PROFILE=h200-lab7-profile.txt ;;
  *) PROFILE=gpu-lab7-profile.txt ;;
esac
fresh "$PROFILE"
# ncu ships in the toolkit's bin/, which need not be on PATH: the one the build used.
if [ -z "${NCU:-}" ] && ! command -v ncu >/dev/null; then
  nvcc=$(sed -n 's/^CMAKE_CUDA_COMPILER:FILEPATH=//p' "$BUILD/CMakeCache.txt" 2>/dev/null)
  [ -n "$nvcc" ] && [ -x "$(dirname "$nvcc")/ncu" ] && export NCU="$(dirname "$nvcc")/ncu"
fi
lab7_profile() {
  if [ -z "$GPU_NAME" ]; then
    echo "lab7_ncu_profile: no CUDA device, nothing profiled"
    return 3
  fi
  "$PYTHON" solutions/measure/lab7_ncu_profile.py "$BUILD/bin/lab7_kernels_solution" profile
}
export -f lab7_profile
export GPU_NAME
part 4 "lab 7 Nsight Compute profile" "$PROFILE" 200 lab7_profile

fresh lab5-divergence.txt
part 5 "lab 5 divergence experiment" lab5-divergence.txt 60 "$BUILD/bin/measure_lab5_divergence"

fresh lab7-async-copy.txt
part 6 "lab 7 cp.async and split K" lab7-async-copy.txt 90 "$BUILD/bin/measure_lab7_async_copy"

fresh instructions.txt
part 7 "lab 5 instruction throughput" instructions.txt 30 "$BUILD/bin/measure_instructions"

fresh lab5-atomic-target.txt
part 8 "lab 5 atomic target and clocks" lab5-atomic-target.txt 100 \
  "$BUILD/bin/measure_lab5_atomic_target"

# The sweep compiles its own programs (one per parameter set, in parallel), so
# without a GPU it stops before spending minutes in nvcc.
fresh lab7-sweep.log
lab7_sweep() {
  if [ -z "$GPU_NAME" ]; then
    echo "lab7_tile_sweep: no CUDA device, nothing swept"
    return 3
  fi
  bash solutions/measure/lab7_tile_sweep.sh "$OUT/lab7-sweep.txt"
}
export -f lab7_sweep
export OUT
part 9 "lab 7 tile sweep" lab7-sweep.log 400 lab7_sweep

say "all parts done after $(( $(date +%s) - START )) s; tables in $OUT"
if [ ${#FAILED[@]} -gt 0 ]; then
  say "FAILED or not measured: part(s) ${FAILED[*]} (see above)"
  exit 1
fi
