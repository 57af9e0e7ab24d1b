# TODO(1.2) as a plain division: n / block_size rounds down, so whenever n
# is not a multiple of the block size the last elements get no thread.
lab_variant(SOLUTION indexing.cu
  FIND [[
    return n / block_size + (n % block_size != 0);]]
  REPLACE [[
    return n / block_size;]]
  FAILS cpu_blocks_for_is_ceil_div
    MESSAGE [[TODO\(1\.2\) lab1_blocks_for.*too few blocks]])
