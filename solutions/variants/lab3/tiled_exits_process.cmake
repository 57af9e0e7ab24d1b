# Hostile: the tiled entry point ends the whole test process with exit(0)
# once its input is validated. A process that exits 0 must not count as a
# pass.
lab_variant(SOLUTION shared_tiles.cu
  FIND [[
#include "cuda_check.h"]]
  REPLACE [[
#include "cuda_check.h"

#include <stdlib.h>]]
  FIND [[
    lab_status status = check_matmul_args("lab3_matmul_tiled", a, b, c, m, n, k);
    if (status != LAB_OK)
        return status;
    switch (tile) {]]
  REPLACE [[
    lab_status status = check_matmul_args("lab3_matmul_tiled", a, b, c, m, n, k);
    if (status != LAB_OK)
        return status;
    exit(0);
    switch (tile) {]]
  FAILS gpu_tiled_tile_edges
    # A failure whose message says the process was ended.
    STATUS fail
    MESSAGE [[ended the process]])
