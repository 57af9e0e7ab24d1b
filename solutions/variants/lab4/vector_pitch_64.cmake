# TODO(4.11) without the padding: the final stage's "padded" pitch is 64, the
# probe's slowest float4 variant (0.941 of cudaMemcpy against 0.962 at 65):
# the gather of a float4 store reads four tile rows of one column, and at
# pitch 64 the 16 lanes of a block row all read one bank. The CPU check
# refuses the pitch before it counts the conflicts.
lab_variant(SOLUTION transpose.cu
  FIND [[
    return padded ? LAB4_VEC_TILE + 1 : LAB4_VEC_TILE;]]
  REPLACE [[
    return LAB4_VEC_TILE;]]
  FAILS cpu_vector_bank_conflict_degree
    MESSAGE [[TODO\(4\.11\) lab4_vec_tile_pitch\(1\) returned 64]])
