# The grid-stride entry launches one thread per element, so the loop body
# runs once and the lesson (a fixed grid covering any n) is skipped; the
# values are right. The fixed launch shape is checked.
lab_variant(SOLUTION indexing.cu
  FIND [[
    scale_grid_stride_kernel<<<LAB1_STRIDE_BLOCKS, LAB1_STRIDE_THREADS>>>(in, out, factor, n);]]
  REPLACE [[
    scale_grid_stride_kernel<<<(n + LAB1_STRIDE_THREADS - 1) / LAB1_STRIDE_THREADS,
                               LAB1_STRIDE_THREADS>>>(in, out, factor, n);]]
  FAILS gpu_scale_grid_stride
    MESSAGE [[launched a grid of [0-9]+x1x1 blocks of 256x1x1 threads; the lab fixes 128x1x1 blocks]])
