# TODO(5.11) reading float4 from `in` itself: when in is not 16-byte aligned
# the wide loads fault (misaligned address).
lab_variant(SOLUTION reduction.cu
  FIND [[
    size_t head = ((16u - ((uintptr_t)in & 15u)) & 15u) / sizeof(float);]]
  REPLACE [[
    size_t head = 0;]]
  FAILS gpu_grid_stride_sums
    STATUS crash|fail
    MESSAGE [[lab5_sum_grid_stride.*not 16-byte aligned.*(misaligned|failed)]])
