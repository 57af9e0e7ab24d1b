# TODO(4.12) with float4 loads wherever four columns lie inside `in`,
# without the entry point's vector_loads: on a 31 x 33 `in` the rows start
# 132 bytes apart, so every odd row's float4s are misaligned and the kernel
# faults (cudaErrorMisalignedAddress).
lab_variant(SOLUTION transpose.cu
  FIND [[
        if (vector_loads && src.col + LAB4_VEC_WIDTH <= cols) {]]
  REPLACE [[
        if (src.col + LAB4_VEC_WIDTH <= cols) {]]
  FAILS gpu_vector_correct
    STATUS fail|crash
    MESSAGE [[misaligned address|lab4_transpose\(vector\) on a 31x33]])
