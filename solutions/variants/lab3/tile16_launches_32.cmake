# The tile-16 entry runs the 32x32 kernel: every value is right, but the
# 16-versus-32 comparison the entry exists for compares 32 with itself. The
# launch shape the lab fixes is checked (gpu_expect_launch_shape): 1024 threads
# per block where the lab fixes 256, one block per 32x32 tile of C where it
# fixes one per 16x16 tile.
lab_variant(SOLUTION shared_tiles.cu
  FIND [[
    case 16: return launch_tiled<16>(a, b, c, m, n, k);]]
  REPLACE [[
    case 16: return launch_tiled<32>(a, b, c, m, n, k);]]
  FAILS gpu_tiled_tile_edges
    MESSAGE [[blocks of 32x32x1 threads; the lab fixes [0-9]+x[0-9]+x1 blocks of 16x16x1 threads]])
