#!/usr/bin/env bash
# Lab 7's tile sweep: which stage-4 parameters suit this GPU?
#
#   solutions/measure/lab7_tile_sweep.sh OUTFILE [size] [runs]
#
# For each parameter set below, compiles the REFERENCE's warp-tile kernel
# (solutions/lab7_warp_tiling/warp_tiling.cu) with -DLAB7_WARP_TILE_SWEEP,
# against a copy of lab7.h holding the set's LAB7_WT_* values (the A tile's
# padding, -DLAB7_WT_A_PAD), links it with solutions/measure/lab7_sweep_main.c,
# and runs it: stage 4 and cuBLAS FP32 (pedantic, no TF32) timed in the same
# process at size^3 (default 4096), the result checked against cuBLAS. Sets
# that break the kernel's divisibility rules are skipped with the reason.
# Builds run in parallel (one per core), runs one at a time. Prints and
# writes to OUTFILE a table sorted by GFLOP/s, best first.
#
# SWEEP_CONFIGS="BM BN BK WM WN WNITER TM TN MIN_BLOCKS;..." replaces the
# list below, e.g. the small block tiles that fill more SMs at 256 .. 1024
# (handouts/results/h100-lab7-small-tiles.txt).
#
# Needs only the CUDA toolkit (nvcc on PATH, CUDACXX, or /usr/local/cuda/bin)
# and a GPU; SWEEP_ARCH (default: the GPU's own, from nvidia-smi, else 90)
# picks the architecture. The lab's own parameters live in labs/lab7_warp_tiling/lab7.h.
set -euo pipefail

die() { echo "lab7_tile_sweep: $*" >&2; exit 1; }
[ $# -ge 1 ] && [ $# -le 3 ] || die "usage: $0 OUTFILE [size] [runs]"
out=$1
size=${2:-4096}
runs=${3:-15}
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
[ -f "$repo/solutions/lab7_warp_tiling/warp_tiling.cu" ] ||
  die "no solutions/lab7_warp_tiling/warp_tiling.cu: the sweep tunes the reference"
nvcc=${CUDACXX:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
[ -x "$nvcc" ] || die "no nvcc (looked at CUDACXX, PATH, /usr/local/cuda/bin)"
arch=${SWEEP_ARCH:-$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null |
  head -1 | tr -d '. ' || true)}
arch=${arch:-90}

# BM BN BK WM WN WNITER TM TN MIN_BLOCKS [A_PAD] (threads = (BM/WM)*(BN/WN)*32;
# WMITER derived; MIN_BLOCKS is __launch_bounds__'s blocks per SM, which caps
# the registers at 65536 / (threads * MIN_BLOCKS); A_PAD, default 0, pads each
# row of the transposed A tile by that many words, a multiple of 4: with 4
# the two threads that store one row of A no longer share a bank, handout
# section 7's 2-way conflict. Only sweep builds can pad: the lab's layout is
# lab7_a_transposed_offset's). The first sweep on an
# H100 (handouts/results/h100-lab7-sweep.txt) put 256-thread blocks of
# 64x32 warp tiles at BK = 8, two blocks per SM, ahead of the rest.
configs=(
  "128 128 8 64 32 2 4 4 2"    # 2x2 sub-tiles of 4x4 per thread (the lab's choice)
  "128 128 8 32 64 2 4 4 2"    # the same, warp tiles 32x64
  "128 128 8 64 32 1 8 4 2"    # 2x1 sub-tiles of 8x4
  "128 128 16 64 32 2 4 4 2"   # BK 16: registers capped at 128
  "128 128 16 64 32 2 4 4 1"
  "128 128 8 64 64 4 8 4 1"    # 128 threads, 128 results each
  "128 128 16 64 64 4 8 4 1"   # siboehm's kernel 10 shape
  "128 128 16 64 64 1 8 8 1"
  "64 128 16 32 64 2 4 4 2"    # 128 threads, 64 results each
  "128 64 16 64 32 2 4 4 2"
  "64 64 16 32 32 2 4 4 4"
  "128 128 8 64 32 2 4 4 1"    # the lab's choice without the register cap
  "128 128 8 64 32 2 4 4 2 4"  # the lab's choice, A's rows padded: no store conflicts
  "128 128 8 32 64 2 4 4 2 4"  # the same with 32x64 warp tiles
)
if [ -n "${SWEEP_CONFIGS:-}" ]; then
  IFS=';' read -r -a configs <<<"$SWEEP_CONFIGS"
fi

# Why a set cannot compile (the static_asserts of warp_tiling.cu), or "".
invalid_reason() {
  local bm=$1 bn=$2 bk=$3 wm=$4 wn=$5 wniter=$6 tm=$7 tn=$8 min_blocks=$9 a_pad=${10:-0}
  ((a_pad >= 0 && a_pad % 4 == 0)) || { echo "A_PAD must be a multiple of 4 (float4 reads)"; return; }
  ((bm % wm == 0 && bn % wn == 0)) || { echo "warp tiles do not divide the block tile"; return; }
  local threads=$(((bm / wm) * (bn / wn) * 32))
  local wmiter=$(((wm * wn) / (32 * tm * tn * wniter)))
  ((wmiter >= 1 && wmiter * wniter * 32 * tm * tn == wm * wn)) ||
    { echo "32 thread tiles x WMITER x WNITER do not make the warp tile (WMITER=$wmiter)"; return; }
  ((wm % wmiter == 0 && wn % wniter == 0)) || { echo "sub-tiles do not divide the warp tile"; return; }
  local wsubm=$((wm / wmiter)) wsubn=$((wn / wniter))
  ((wsubm % tm == 0 && wsubn % tn == 0 && (wsubm / tm) * (wsubn / tn) == 32)) ||
    { echo "a sub-tile is not 32 thread tiles"; return; }
  ((tm % 4 == 0 && tn % 4 == 0 && bk % 4 == 0 && bn % 4 == 0)) || { echo "float4 fragments need TM, TN, BK multiples of 4"; return; }
  (((bm * bk / 4) % threads == 0 && (bk * bn / 4) % threads == 0)) ||
    { echo "the tiles do not load in whole rounds of $threads float4s"; return; }
  ((threads <= 1024)) || { echo "$threads threads per block"; return; }
  ((2 * (bm + a_pad + bn) * bk * 4 <= 49152)) || { echo "more than 48 KiB of static shared memory (two buffers)"; return; }
  ((threads * min_blocks <= 2048)) || { echo "$min_blocks blocks of $threads threads do not fit an SM"; return; }
  ((size % bm == 0 && size % bn == 0 && size % bk == 0)) || { echo "size $size is not a multiple of the block tile"; return; }
  echo ""
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
build() { # index BM BN BK WM WN WNITER TM TN MIN_BLOCKS [A_PAD]
  local i=$1; shift
  local names=(BM BN BK WM WN WNITER TM TN MIN_BLOCKS) edits=() j
  # The contract header with this shape's values in place of the lab's, in
  # a folder searched before labs/: lab7.h itself knows nothing of sweeps.
  for j in 0 1 2 3 4 5 6 7 8; do
    edits+=(-e "s/^#define LAB7_WT_${names[$j]} [0-9]+/#define LAB7_WT_${names[$j]} ${@:$((j + 1)):1}/")
  done
  mkdir -p "$work/header$i"
  sed -E "${edits[@]}" "$repo/labs/lab7_warp_tiling/lab7.h" >"$work/header$i/lab7.h"
  "$nvcc" -O3 -std=c++17 -arch=sm_"$arch" -DLAB7_WARP_TILE_SWEEP "-DLAB7_WT_A_PAD=${10:-0}" \
    -Xptxas -v -I "$repo/common" -I "$work/header$i" -I "$repo/labs/lab7_warp_tiling" -I "$repo/grader/lab7" \
    "$repo/solutions/lab7_warp_tiling/warp_tiling.cu" "$repo/solutions/measure/lab7_sweep_main.c" \
    "$repo/grader/lab7/lab7_cublas.c" "$repo/common/lab_status.c" "$repo/common/cuda_check.c" \
    -lcublas -o "$work/sweep$i" >"$work/build$i.log" 2>&1 || echo "build failed" >"$work/failed$i"
}
export -f build
export nvcc arch repo work

valid=()
: >"$work/skipped"
for i in "${!configs[@]}"; do
  read -r -a p <<<"${configs[$i]}"
  reason=$(invalid_reason "${p[@]}")
  if [ -n "$reason" ]; then
    echo "BM=${p[0]} BN=${p[1]} BK=${p[2]} WM=${p[3]} WN=${p[4]} WNITER=${p[5]} TM=${p[6]} TN=${p[7]} MIN_BLOCKS=${p[8]} A_PAD=${p[9]:-0} SKIPPED $reason" >>"$work/skipped"
  else
    valid+=("$i ${configs[$i]}")
  fi
done
jobs=$(nproc 2>/dev/null || echo 2)
echo "lab7_tile_sweep: building ${#valid[@]} sets for sm_$arch, $jobs at a time" >&2
printf '%s\n' "${valid[@]}" | xargs -P "$jobs" -L 1 bash -c 'build "$@"' _

: >"$work/results"
for entry in "${valid[@]}"; do
  read -r i _ <<<"$entry"
  if [ -e "$work/failed$i" ]; then
    echo "${configs[$i]} BUILD FAILED: $(grep -m1 -i error "$work/build$i.log" || true)" >>"$work/skipped"
    continue
  fi
  echo "lab7_tile_sweep: running set $i (${configs[$i]})" >&2
  "$work/sweep$i" "$size" "$runs" >>"$work/results" || true
done

{
  echo "# lab7_tile_sweep: stage 4 vs cuBLAS FP32 (pedantic) at ${size}^3, median of $runs runs, sm_$arch"
  echo "# $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo 'GPU unknown')"
  # Best first: sort on the gflops= field.
  awk '{ g = 0; for (i = 1; i <= NF; ++i) if ($i ~ /^gflops=/) g = substr($i, 8); print g "\t" $0 }' \
    "$work/results" | sort -t$'\t' -k1,1 -gr | cut -f2-
  cat "$work/skipped"
} | tee "$out"
