# The helpers are right (the CPU checks pass), but the kernel hard-codes the
# plain pitch instead of asking lab4_tile_pitch(PADDED): the padded version
# runs exactly like the plain one. Only the timing can tell.
lab_variant(SOLUTION transpose.cu
  FIND [[
    const int pitch = lab4_tile_pitch(PADDED);]]
  REPLACE [[
    const int pitch = LAB4_TILE;]]
  FAILS gpu_padded_speed_vs_unpadded
    MESSAGE [[lab4_transpose\(padded\) vs unpadded tile.*below the threshold]])
