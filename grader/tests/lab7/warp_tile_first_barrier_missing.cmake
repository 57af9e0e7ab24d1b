# TODO(7.9) without the __syncthreads() between the tile loads and the
# inner loop: a warp reads words of As and Bs that other warps have not
# stored yet (in the first step, whatever shared memory held). Each of the
# 4 warps loads a quarter of each tile from global memory (hundreds of
# cycles) and reads all of it at once, so with thousands of blocks some
# results are always wrong.
lab_variant(SOLUTION warp_tiling.cu
  FIND [[
            load_tiles_float4<BM, BN, BK, THREADS>(a, b, n, k, block_row, block_col, k0, As,
                                                  Bs);
        __syncthreads();]]
  REPLACE [[
            load_tiles_float4<BM, BN, BK, THREADS>(a, b, n, k, block_row, block_col, k0, As,
                                                  Bs);]]
  FAILS gpu_warp_tile_correct
    MESSAGE [[lab7_sgemm\(warp_tile\) on .*wrong]])
