# TODO(7.9), the two-buffer loop, prefetching the tiles of the step being
# computed (k0) instead of the next one (k0 + BK): from the second step on,
# the block multiplies the first step's tiles again, so every result with
# K > BK is wrong (K = 16 is already two steps).
lab_variant(SOLUTION warp_tiling.cu
  FIND [[
                fetch_tiles_float4(a, b, n, k, block_row, block_col, k0 + BK, next);]]
  REPLACE [[
                fetch_tiles_float4(a, b, n, k, block_row, block_col, k0, next);]]
  FAILS gpu_warp_tile_correct
    MESSAGE [[lab7_sgemm\(warp_tile\) on .*wrong]])
