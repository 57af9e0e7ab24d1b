# TODO(2.1) swapped: x picks the row and y the column. The 32 lanes of a
# warp then sit in 32 different rows of C (and of A): every store becomes
# 32 separate sectors, which the CPU sector simulation sees.
lab_variant(SOLUTION naive_matmul.cu
  FIND [[
    return block_idx.y * block_dim.y + thread_idx.y;]]
  REPLACE [[
    return block_idx.x * block_dim.x + thread_idx.x;]]
  FIND [[
    return block_idx.x * block_dim.x + thread_idx.x;]]
  REPLACE [[
    return block_idx.y * block_dim.y + thread_idx.y;]]
  FAILS cpu_row_col_layout
    MESSAGE [[TODO\(2\.1\) lab2_row_of/lab2_col_of: .*Rows and columns are swapped]]
  FAILS cpu_warp_sectors_coalesced
    MESSAGE [[TODO\(2\.1\) stores of C.* are not coalesced]])
