# Positive twin: the tiled kernel as SGEMM_CUDA's shared-memory kernel
# writes it. A 1D block of TILE * TILE threads takes its place in the tile
# from threadIdx.x (column = x % TILE, row = x / TILE: the same warps as the
# 2D block), and the grid runs x over C's rows and y over its columns. Each
# block still computes one TILE x TILE tile of C with one thread per
# element, which is what the lesson fixes (handout section 2.2), so every
# graded and timed call keeps its marks.
lab_variant(SOLUTION shared_tiles.cu
  FIND [[
    lab_dim3 block = lab_block_idx(), thread = lab_thread_idx();
    int ty = thread.y, tx = thread.x;]]
  REPLACE [[
    lab_dim3 block = lab_block_idx(), thread = lab_thread_idx();
    int linear = thread.x, tile_row = block.x;
    thread.x = linear % TILE;
    thread.y = linear / TILE;
    block.x = block.y; /* the grid is transposed: x walks the rows of C */
    block.y = tile_row;
    int ty = thread.y, tx = thread.x;]]
  FIND [[
    dim3 block(TILE, TILE);
    tiled_matmul_kernel<TILE><<<lab_to_dim3(grid), block>>>(a, b, c, m, n, k);]]
  REPLACE [[
    dim3 block(TILE * TILE);
    tiled_matmul_kernel<TILE><<<dim3(grid.y, grid.x), block>>>(a, b, c, m, n, k);]]
  PASSES gpu_tiled_tile_edges
  PASSES gpu_tiled_awkward_shapes
  PASSES gpu_tiled_speed_vs_naive)
