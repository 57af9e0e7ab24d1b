# TODO(7.1) as alpha * acc + beta * C always: with beta == 0 the old C is
# still read, and the grader's NaN in C turns every result into NaN
# (0 * NaN is NaN). The BLAS rule says C is not read when beta == 0.
lab_variant(SOLUTION warp_tiling.cu
  FIND [[
    *c = beta == 0.0f ? alpha * acc : alpha * acc + beta * *c;]]
  REPLACE [[
    *c = alpha * acc + beta * *c;]]
  FAILS gpu_block_tile_1d_correct
    MESSAGE [[lab7_sgemm\(block_tile_1d\) on 128x128x16.*NaN although A and B hold no NaN.*BLAS rule]])
