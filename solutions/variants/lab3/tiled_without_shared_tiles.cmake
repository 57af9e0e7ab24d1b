# Hostile: lab 2's naive dot product under the tiled kernel's name: every
# operand straight from global memory, no shared tiles. The results are
# right, so the correctness tests pass; the mechanism test must see that the
# kernel declares no shared memory, and the correctness tests, gated on it,
# must give it no points.
lab_variant(SOLUTION shared_tiles.cu
  FIND [[
    /* Sized at compile time: 2 * TILE * TILE * 4 bytes (8 KiB for 32). */
    __shared__ float a_tile[TILE][TILE];
    __shared__ float b_tile[TILE][TILE];
]]
  REPLACE ""
  FIND [[
    int phases = lab3_phase_count(k, TILE);
    for (int phase = 0; phase < phases; ++phase) {
        lab3_coord ea = lab3_tile_a_element(block, thread, TILE, phase);
        lab3_coord eb = lab3_tile_b_element(block, thread, TILE, phase);
        /* Outside a matrix, store 0: it adds nothing to the dot product, so
         * the loop below needs no bounds test. */
        a_tile[ty][tx] = (ea.row < m && ea.col < k) ? a[ea.row * k + ea.col] : 0.0f;
        b_tile[ty][tx] = (eb.row < k && eb.col < n) ? b[eb.row * n + eb.col] : 0.0f;
        /* Read after write: the loop reads elements other threads stored. */
        __syncthreads();
#pragma unroll
        for (int q = 0; q < TILE; ++q)
            sum += a_tile[ty][q] * b_tile[q][tx];
        /* Write after read: the next phase overwrites the tiles while a
         * slower warp may still be reading this phase's values. */
        __syncthreads();
    }]]
  REPLACE [[
    int row_of_c = block.y * TILE + ty, col_of_c = block.x * TILE + tx;
    if (row_of_c < m && col_of_c < n)
        for (int p = 0; p < k; ++p)
            sum += a[row_of_c * k + p] * b[p * n + col_of_c];]]
  FAILS cpu_tiled_uses_shared_tiles
    MESSAGE [[shared memory]]
  FAILS gpu_tiled_tile_edges
    STATUS gated
    MESSAGE [[^cpu_tiled_uses_shared_tiles$]]
  FAILS gpu_tiled_awkward_shapes
    STATUS gated
    MESSAGE [[^cpu_tiled_uses_shared_tiles$]])
