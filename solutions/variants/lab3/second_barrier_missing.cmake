# TODO(3.7) forgotten: no __syncthreads() after the inner loop, so a fast
# warp stores the next phase's tiles while a slower warp is still reading
# this phase's. The output is right in most runs (the warps of a block
# seldom drift a whole phase apart on 32x32 tiles), so the output checks
# cannot be relied on; racecheck sees the hazard on every run.
lab_variant(SOLUTION shared_tiles.cu
  FIND [[
        /* Write after read: the next phase overwrites the tiles while a
         * slower warp may still be reading this phase's values. */
        __syncthreads();]]
  REPLACE ""
  FAILS gpu_tiled_race_free
    MESSAGE [[racecheck found [0-9]+ shared-memory race.*lab3_matmul_tiled.*TODO\(3\.7\)]])
