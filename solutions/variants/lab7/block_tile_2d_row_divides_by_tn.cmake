# TODO(7.4) with the thread's row of thread tiles computed as t / TN2 (the
# thread tile's width) instead of t / (BN2 / TN2) (the number of thread
# tiles across the block tile): rows overlap and run past the block tile.
lab_variant(SOLUTION warp_tiling.cu
  FIND [[
    lab7_coord e = {(thread / threads_across) * LAB7_BT2_TM + i,]]
  REPLACE [[
    lab7_coord e = {(thread / LAB7_BT2_TN) * LAB7_BT2_TM + i,]]
  FAILS cpu_block_tile_2d_outputs
    MESSAGE [[TODO\(7\.4\) lab7_block_tile_2d_output.*(computed twice|outside the 128x128 block tile)]])
