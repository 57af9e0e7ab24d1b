# TODO(3.5) forgotten: no __syncthreads() between storing the tiles and
# reading them, so warps read tile elements that other warps have not stored
# yet (last phase's values, or whatever shared memory held). A race, so the
# wrong elements vary from run to run; but with 32 warps per block and 64
# shapes some are always wrong. (Without the OTHER barrier, TODO(3.7), the
# results are too often right by luck: the racecheck demo shows that one.)
lab_variant(SOLUTION shared_tiles.cu
  FIND [[
        /* Read after write: the loop reads elements other threads stored. */
        __syncthreads();]]
  REPLACE ""
  FAILS gpu_tiled_tile_edges
    MESSAGE [[lab3_matmul_tiled.* on .*both barriers]])
