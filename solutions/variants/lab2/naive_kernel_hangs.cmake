# Hostile: the naive kernel never finishes, whatever the shape, so every GPU
# test that runs it (shapes, host flow, speed, the CPU comparison) hangs.
# Each call's watchdog must stop it in seconds and name the call: the whole
# lab is graded in well under 30 s. (The loop re-reads global memory through
# a volatile pointer, so the compiler keeps it; the inputs are finite.)
lab_variant(SOLUTION naive_matmul.cu
  FIND [[
    int row = lab2_row_of(lab_block_idx(), lab_block_dim(), lab_thread_idx());]]
  REPLACE [[
    const volatile float *watched = a;
    while (watched[0] == watched[0]) {
    }
    int row = lab2_row_of(lab_block_idx(), lab_block_dim(), lab_thread_idx());]]
  FAILS gpu_naive_awkward_shapes
    STATUS timeout
    TIME_LIMIT 30
    MESSAGE [[hung: lab2_matmul_naive on 1x1x1 .* did not finish within]])
