# TODO(1.10) with an int index: right for every n a test of ordinary size
# uses, but with n close to INT_MAX, i + step passes INT_MAX in the last
# pass and wraps to a negative index that is still below n (nvcc's unrolled
# loop compares the wrapped value): the kernel writes below out, faults or
# never ends.
lab_variant(SOLUTION indexing.cu
  FIND [[
    for (long long i = lab1_global_index_1d(lab_block_idx(), lab_block_dim(), lab_thread_idx());]]
  REPLACE [[
    for (int i = lab1_global_index_1d(lab_block_idx(), lab_block_dim(), lab_thread_idx());]]
  FAILS gpu_scale_grid_stride_near_int_max
    STATUS fail|timeout
    MESSAGE [[lab1_scale_grid_stride\(n=2147483645, close to INT_MAX]])
