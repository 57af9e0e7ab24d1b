# TODO(7.3) with one barrier per K step instead of two: nothing stops a fast
# warp from storing the next step's tiles while a slower warp of the block
# still reads this step's. With 16 warps that keep nearly in step, the
# output is usually right, so the output checks cannot be relied on;
# racecheck sees the hazard on every run.
lab_variant(SOLUTION warp_tiling.cu
  FIND [[
                acc[i] += As[(mine.row + i) * BK + p] * b_value;
        }
        __syncthreads();
    }]]
  REPLACE [[
                acc[i] += As[(mine.row + i) * BK + p] * b_value;
        }
    }]]
  FAILS gpu_stages_race_free
    MESSAGE [[racecheck found [0-9]+ shared-memory race.*lab7_sgemm.*TODO\(7\.3\)]])
