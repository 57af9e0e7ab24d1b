# Hostile: right at every size, with the lesson's 32 x 32 tiles wherever a
# correctness test looks, but at the timed size (2048^3) another launch:
# 16 x 16 tiles. The shape is judged on the timed calls too (speed_spec's
# shape), so the speed test fails naming the timed run.
lab_variant(SOLUTION shared_tiles.cu
  FIND [[
    case 32: return launch_tiled<32>(a, b, c, m, n, k);]]
  REPLACE [[
    case 32:
        if (m == 2048 && n == 2048 && k == 2048)
            return launch_tiled<16>(a, b, c, m, n, k);
        return launch_tiled<32>(a, b, c, m, n, k);]]
  FAILS gpu_tiled_speed_vs_naive
    MESSAGE [[the timed run of .*launched a grid of 128x128x1 blocks of 16x16x1 threads; the lab fixes 64x64x1 blocks of 32x32x1 threads.*not another one chosen for that size]])
