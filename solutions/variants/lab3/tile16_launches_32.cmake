# The tile-16 entry runs the 32x32 kernel: every value is right, but the
# 16-versus-32 comparison the entry exists for compares 32 with itself. The
# launch shape the lab fixes is checked (gpu_expect_launch_shape).
lab_variant(SOLUTION shared_tiles.cu
  FIND [[
    case 16: return launch_tiled<16>(a, b, c, m, n, k);]]
  REPLACE [[
    case 16: return launch_tiled<32>(a, b, c, m, n, k);]]
  FAILS gpu_tiled_tile_edges
    MESSAGE [[launched blocks of 32x32x1 threads; the lab fixes 16x16x1]])
