# Hostile: stage 4 right at every size, with its own launch wherever a
# correctness test looks, but at the timed size (LAB7_SPEED_SIZE = 4096)
# the stage 1 kernel's launch (64 x 64 tiles, 512 threads). The shape is
# judged on the timed calls too, so the speed test fails naming the timed
# run.
lab_variant(SOLUTION warp_tiling.cu
  FIND [[
        return launch(warp_tile_kernel<false>, LAB7_WT_BM, LAB7_WT_BN, LAB7_WT_THREADS, m, n, k,
                      alpha, a, b, beta, c);
    case LAB7_STAGE_SIZED:]]
  REPLACE [[
        if (m == 4096 && n == 4096 && k == 4096)
            return launch(block_tile_1d_kernel, LAB7_BT1_BM, LAB7_BT1_BN, LAB7_BT1_THREADS, m,
                          n, k, alpha, a, b, beta, c);
        return launch(warp_tile_kernel<false>, LAB7_WT_BM, LAB7_WT_BN, LAB7_WT_THREADS, m, n, k,
                      alpha, a, b, beta, c);
    case LAB7_STAGE_SIZED:]]
  FAILS gpu_warp_tile_speed_vs_lab3
    MESSAGE [[the timed run of lab7_sgemm\(warp_tile\).*launched a grid of 64x64x1 blocks of 512x1x1 threads; the lab fixes 32x32x1 blocks of 256x1x1 threads.*not another one chosen for that size]])
