# Stage 1 launched over a grid twice as wide as its block tiles need, the
# extra blocks returning at once: C is right, but the launch is not the
# lab's (one block per block tile, given code in lab7_sgemm). The launch
# shape is checked with the stage's correctness.
lab_variant(SOLUTION warp_tiling.cu
  FIND [[
        return launch(block_tile_1d_kernel, LAB7_BT1_BM, LAB7_BT1_BN, LAB7_BT1_THREADS, m, n, k,]]
  REPLACE [[
        return launch(block_tile_1d_kernel, LAB7_BT1_BM, LAB7_BT1_BN / 2, LAB7_BT1_THREADS, m, n, k,]]
  FIND [[
    const int block_row = blockIdx.y * BM, block_col = blockIdx.x * BN;
    const lab7_coord mine = lab7_block_tile_1d_output(t, 0);]]
  REPLACE [[
    const int block_row = blockIdx.y * BM, block_col = blockIdx.x * BN;
    if (block_col >= n)
        return; /* the extra blocks of a too-wide grid */
    const lab7_coord mine = lab7_block_tile_1d_output(t, 0);]]
  FAILS gpu_block_tile_1d_correct
    MESSAGE [[launched a grid of 20x4x1 blocks of 512x1x1 threads; the lab fixes 10x4x1 blocks of 512x1x1 threads \(40 blocks of 512 threads, in any layout.*lab7_sgemm's launch is given code]])
