# TODO(5.11) without the 0-3 elements after the last whole float4.
lab_variant(SOLUTION reduction.cu
  FIND [[
    size_t tail_start = head + 4 * quads;
]]
  REPLACE ""
  FIND [[
    if (tid < (size_t)n - tail_start)
        v += in[tail_start + tid];]]
  REPLACE ""
  FAILS gpu_grid_stride_sums
    MESSAGE [[lab5_sum_grid_stride.*TODO\(5\.11\)]])
