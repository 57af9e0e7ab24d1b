# TODO(4.5) without the padding: both pitches are LAB4_TILE, so the
# "padded" tile keeps the 32-way bank conflict of the column read.
lab_variant(SOLUTION transpose.cu
  FIND [[
    return padded ? LAB4_TILE + 1 : LAB4_TILE;]]
  REPLACE [[
    return LAB4_TILE;]]
  FAILS cpu_bank_conflict_degree
    MESSAGE [[TODO\(4\.5\) lab4_tile_pitch\(1\) returned 32]]
  FAILS gpu_padded_speed_vs_unpadded
    MESSAGE [[lab4_transpose\(padded\) vs unpadded tile.*below the threshold]])
