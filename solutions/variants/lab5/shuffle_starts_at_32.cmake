# TODO(5.9) with the first shuffle 32 lanes down: no lane 32 higher exists,
# so __shfl_down_sync returns each lane's own value and the warp sum doubles.
lab_variant(SOLUTION reduction.cu
  FIND [[
    for (int offset = LAB5_WARP / 2; offset > 0; offset >>= 1)]]
  REPLACE [[
    for (int offset = LAB5_WARP; offset > 0; offset >>= 1)]]
  FAILS gpu_warp_shuffle_sums
    MESSAGE [[twice the sum.*TODO\(5\.9\)]])
