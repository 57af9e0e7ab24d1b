# TODO(7.6) with A stored as it comes, As[BM][BK], while the inner loop
# reads it as the transposed As[BK][BM]: every fragment of A is wrong.
lab_variant(SOLUTION warp_tiling.cu
  FIND [[
    return a.col * bm + a.row;]]
  REPLACE [[
    return a.row * LAB7_BT2_BK + a.col;]]
  FAILS cpu_float4_loads_cover_tiles
    MESSAGE [[TODO\(7\.6\) lab7_a_transposed_offset\(\(0,1\), bm=128\) returned 1, expected 128.*untransposed]]
  FAILS gpu_vectorised_correct
    MESSAGE [[lab7_sgemm\(vectorised\) on 128x128x16.*wrong]])
