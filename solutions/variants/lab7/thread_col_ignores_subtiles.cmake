# TODO(7.8) with the lanes laid out over the whole warp tile width (WN / TN
# threads across) instead of one sub-tile's (WSUBN / TN): the WNITER
# sub-tiles are forgotten, so lanes run past the warp tile and collide.
lab_variant(SOLUTION warp_tiling.cu
  FIND [[
    const int threads_across = LAB7_WT_WSUBN / LAB7_WT_TN;]]
  REPLACE [[
    const int threads_across = LAB7_WT_WN / LAB7_WT_TN;]]
  FAILS cpu_warp_tile_coverage
    MESSAGE [[TODO\(7\.8\) lab7_warp_tile_output.*(computed twice|outside the 128x128 block tile)]])
