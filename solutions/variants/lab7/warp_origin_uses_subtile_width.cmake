# TODO(7.8) with the warp tile's column taken from the sub-tile width
# (WSUBN) instead of the warp tile's (WN): the warps of a row of warp
# tiles overlap, and the right half of the block tile is computed by nobody.
lab_variant(SOLUTION warp_tiling.cu
  FIND [[
    lab7_coord e = {warp_row * LAB7_WT_WM, warp_col * LAB7_WT_WN};]]
  REPLACE [[
    lab7_coord e = {warp_row * LAB7_WT_WM, warp_col * LAB7_WT_WSUBN};]]
  FAILS cpu_warp_tile_coverage
    MESSAGE [[TODO\(7\.8\) lab7_warp_tile_output: .*(computed twice|computed by no thread)]]
  FAILS gpu_warp_tile_correct
    MESSAGE [[lab7_sgemm\(warp_tile\) on 128x128x16.*never written]])
