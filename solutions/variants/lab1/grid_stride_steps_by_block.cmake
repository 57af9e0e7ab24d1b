# Hostile: the grid-stride loop advances by one block's width instead of the
# grid's, while lab1_grid_stride_step itself stays right (so the CPU check
# passes). Each of the 128 blocks then walks the whole array: the results
# are right, the kernel does 128 times the work. Only a GPU speed test of
# the grid-stride kernel can tell (gpu_grid_stride_bandwidth).
lab_variant(SOLUTION indexing.cu
  FIND [[
    int step = lab1_grid_stride_step(lab_grid_dim(), lab_block_dim());]]
  REPLACE [[
    int step = lab_block_dim().x;]]
  FAILS gpu_grid_stride_bandwidth
    MESSAGE [[grid-stride]])
