# TODO(4.11) with a pitch of 68 (four words of padding, the probe's middle
# case, 0.959 of cudaMemcpy): the gather's lanes fall 16 * tx banks apart,
# 8 per bank, where an odd pitch such as 65 leaves 2. The speed test cannot
# tell this from 65 (lab4_rubric.h); the CPU check counts the conflicts.
lab_variant(SOLUTION transpose.cu
  FIND [[
    return padded ? LAB4_VEC_TILE + 1 : LAB4_VEC_TILE;]]
  REPLACE [[
    return padded ? LAB4_VEC_TILE + 4 : LAB4_VEC_TILE;]]
  FAILS cpu_vector_bank_conflict_degree
    MESSAGE [[TODO\(4\.11\) the padded 64-float tile \(pitch 68\) still has 8-way bank conflicts: in the tile gather]])
