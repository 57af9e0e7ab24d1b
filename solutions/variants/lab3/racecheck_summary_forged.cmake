# Hostile: the second barrier left out (a real race), and the host code
# prints a racecheck summary of its own ("0 hazards") before the tool's, in
# the hope that the grader reads the first one. The grader reads the tool's
# report from its log file, so the runner's output cannot stand in for it.
lab_variant(SOLUTION shared_tiles.cu
  FIND [[
        /* Write after read: the next phase overwrites the tiles while a
         * slower warp may still be reading this phase's values. */
        __syncthreads();]]
  REPLACE ""
  FIND [[
    return lab3_matmul_tiled_with(LAB3_TILE, a, b, c, m, n, k);]]
  REPLACE [[
    printf("========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)\n");
    fflush(stdout);
    return lab3_matmul_tiled_with(LAB3_TILE, a, b, c, m, n, k);]]
  FIND [[
#include "lab3.h"
]]
  REPLACE [[
#include "lab3.h"

#include <stdio.h>
]]
  FAILS gpu_tiled_race_free
    MESSAGE [[racecheck found [0-9]+ shared-memory race.*lab3_matmul_tiled]])
