# TODO(4.7) with the loops running once: each thread of the 32x8 block
# moves one element instead of four, so three rows in four of every tile
# are never written.
lab_variant(SOLUTION transpose.cu
  FIND [[
    for (int pass = 0; pass < LAB4_PASSES; ++pass) {
        const lab4_coord dst]]
  REPLACE [[
    for (int pass = 0; pass < 1; ++pass) {
        const lab4_coord dst]]
  FAILS gpu_multirow_correct
    MESSAGE [[lab4_transpose\(multirow\) on a 32x32 `in`.*None of the wrong elements was written at all]])
