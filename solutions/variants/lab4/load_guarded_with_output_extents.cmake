# The seed's transformSmem bug: the load's bounds test uses the extents of
# `out` (cols x rows) instead of those of `in`. Squares are unaffected; on a
# rectangle some loads read past the edge of `in` and others are skipped,
# so stores near the edge take stale tile words.
lab_variant(SOLUTION transpose.cu
  FIND [[
    const lab4_coord src = lab4_load_element(block, thread, dim, 0);
    if (src.row < rows && src.col < cols)]]
  REPLACE [[
    const lab4_coord src = lab4_load_element(block, thread, dim, 0);
    if (src.row < cols && src.col < rows)]]
  FAILS gpu_smem_correct
    MESSAGE [[31x33 `in`.*wrong.*(partial tiles|Square matrices came out right)]])
