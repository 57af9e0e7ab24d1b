#!/usr/bin/env bash
# Every number the handouts still mark with <!-- MEASURE ... -->, in one run
# on the course GPU, printed with labels (and kept in $OUT_DIR):
#
#   OUT_DIR=/tmp/measure grader/tools/handout_measurements.sh
#
#  [A] lab 1, section 6.1: the grid-stride kernel with 1056 blocks instead
#      of 128 (a scratch copy with LAB1_STRIDE_BLOCKS = 1056):
#      student_GBps, fraction_of_copy_bandwidth
#  [B] lab 1, section 4, "Misaligned and strided access": lab1_stride_bench
#      (GB/s for offsets 0..32 and strides 1..32, predicted sectors)
#  [C] lab 2, section 5.2: gpu_timing_matches_device (both medians, their
#      ratio, GFLOP/s) to calibrate LAB2_TIMING_RATIO_MIN/MAX
#  [D] lab 3, section 3.1: gpu_resident_blocks_match_runtime (blocks per SM
#      of the three kernels, as the runtime reports them)
#  [E] lab 3, section 7: the tiled kernel with `#pragma unroll 1` on its
#      inner product (a scratch copy): student_GFLOPs, speedup_over_naive
#  [F] lab 3, section 11: the constant-memory exercise (four times)
#
# Uses build/ (configured if needed) for B-D and scratch copies under
# $OUT_DIR for A and E; nothing in the repository is changed.
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
OUT_DIR=${OUT_DIR:-build/handout_measurements}
mkdir -p "$OUT_DIR"
OUT_DIR=$(cd "$OUT_DIR" && pwd)
JOBS=${JOBS:-$(nproc)}
LOG="$OUT_DIR/measurements.txt"
: >"$LOG"

say() { printf '%s\n' "$*" | tee -a "$LOG"; }
metrics() { grep -E "metric:|note:|PASS|FAIL|SKIP" | tee -a "$LOG"; }

# A copy of the tracked and unignored files, with one edit, built apart.
scratch_copy() { # name file sed-expression
  local dir="$OUT_DIR/$1"
  rm -rf "$dir" && mkdir -p "$dir"
  if git rev-parse --git-dir >/dev/null 2>&1; then
    git ls-files -co --exclude-standard -z | (cd "$ROOT" && xargs -0 cp --parents -t "$dir")
  else # a copy of the course without its git history
    tar -C "$ROOT" --exclude=./build --exclude=./build-sanitize --exclude=./.deps -cf - . | tar -C "$dir" -xf -
  fi
  sed -i "$3" "$dir/$2"
  if ! grep -q "${4:-.}" "$dir/$2"; then say "!! the edit of $2 did not apply"; fi
  # No variants: they are edits of the solution as committed.
  cmake -S "$dir" -B "$dir/build" -DCMAKE_BUILD_TYPE=Release -DCUDA_LABS_VARIANTS=OFF \
    >"$dir/configure.log" 2>&1 || say "!! configuring the copy failed: $dir/configure.log"
  echo "$dir"
}

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu \
  --format=csv 2>&1 | tee -a "$LOG"

[ -f build/Makefile ] || cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >"$OUT_DIR/configure.log" 2>&1
cmake --build build -j "$JOBS" --target lab1_stride_bench_solution lab2_check_solution \
  lab3_check_solution >"$OUT_DIR/build.log" 2>&1 || { cat "$OUT_DIR/build.log"; exit 1; }

say "=== [A] lab 1 section 6.1: grid-stride kernel with 1056 blocks of 256 threads"
dir=$(scratch_copy lab1_1056_blocks labs/lab1_indexing/lab1.h \
  's/LAB1_STRIDE_BLOCKS = 128,/LAB1_STRIDE_BLOCKS = 1056,/' 'LAB1_STRIDE_BLOCKS = 1056,')
cmake --build "$dir/build" -j "$JOBS" --target lab1_check_solution >"$dir/build.log" 2>&1 \
  || say "!! build failed: $dir/build.log"
(cd "$dir" && build/bin/lab1_check_solution --only gpu_grid_stride_bandwidth --verbose) 2>&1 | metrics

say "=== [B] lab 1 section 4: misaligned and strided reads"
build/bin/lab1_stride_bench_solution 21 2>&1 | tee -a "$LOG"

say "=== [C] lab 2 section 5.2: the student's timing against CUPTI"
build/bin/lab2_check_solution --only gpu_timing_matches_device --verbose 2>&1 | metrics

say "=== [D] lab 3 section 3.1: resident blocks per SM, runtime and TODO(3.2)"
build/bin/lab3_check_solution --only gpu_resident_blocks_match_runtime --verbose 2>&1 | metrics

say "=== [E] lab 3 section 7: tiled kernel with #pragma unroll 1 on the inner product"
dir=$(scratch_copy lab3_unroll_1 solutions/lab3_shared_tiles/shared_tiles.cu \
  '0,/^#pragma unroll$/{/^#pragma unroll$/{N;s/^#pragma unroll\n\( *for (int q = 0; q < TILE; ++q)\)/#pragma unroll 1\n\1/}}' \
  '#pragma unroll 1')
cmake --build "$dir/build" -j "$JOBS" --target lab3_check_solution >"$dir/build.log" 2>&1 \
  || say "!! build failed: $dir/build.log"
(cd "$dir" && build/bin/lab3_check_solution --only cpu_tiled_uses_shared_tiles --verbose) 2>&1 | metrics
(cd "$dir" && build/bin/lab3_check_solution --only gpu_tiled_speed_vs_naive --verbose) 2>&1 | metrics

say "=== [F] lab 3 section 11: constant memory, measured"
nvcc -O3 -arch=native -o "$OUT_DIR/constant_memory" grader/tools/measure/constant_memory.cu \
  && "$OUT_DIR/constant_memory" 2>&1 | tee -a "$LOG"

say "=== all of it: $LOG"
