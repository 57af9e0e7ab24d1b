# Hostile: the fixed grid of 128 blocks wherever a correctness test looks,
# but at the size the speed test times (2^22 + 3 elements) one thread per
# element, which is faster and just as right. The shape is judged on every
# timed call too (speed_spec's shape), so the speed test fails naming the
# timed run.
lab_variant(SOLUTION indexing.cu
  FIND [[
    scale_grid_stride_kernel<<<LAB1_STRIDE_BLOCKS, LAB1_STRIDE_THREADS>>>(in, out, factor, n);]]
  REPLACE [[
    if (n == (1 << 22) + 3)
        scale_grid_stride_kernel<<<lab1_blocks_for(n, LAB1_STRIDE_THREADS), LAB1_STRIDE_THREADS>>>(
            in, out, factor, n);
    else
        scale_grid_stride_kernel<<<LAB1_STRIDE_BLOCKS, LAB1_STRIDE_THREADS>>>(in, out, factor, n);]]
  FAILS gpu_grid_stride_bandwidth
    MESSAGE [[the timed run of .*launched a grid of 16385x1x1 blocks of 256x1x1 threads; the lab fixes 128x1x1 blocks.*not another one chosen for that size]])
