# Hostile: the entry point ends the whole test process with exit(0) once
# its input is validated. A process that exits 0 must not count as a pass.
lab_variant(SOLUTION indexing.cu
  FIND [[
#include "cuda_check.h"]]
  REPLACE [[
#include "cuda_check.h"

#include <stdlib.h>]]
  FIND [[
    if (status != LAB_OK)
        return status;
    vector_add_kernel<<<]]
  REPLACE [[
    if (status != LAB_OK)
        return status;
    exit(0);
    vector_add_kernel<<<]]
  FAILS gpu_vector_add
    # A failure whose message says the process was ended.
    STATUS fail
    MESSAGE [[ended the process]])
