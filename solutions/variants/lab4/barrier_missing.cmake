# TODO(4.6) without the __syncthreads(): a warp reads a column of the tile
# that 31 other warps are still filling, so it stores stale words. A race,
# but with 32 warps per block and a 67-million-element matrix some stores
# are always wrong.
lab_variant(SOLUTION transpose.cu
  FIND [[
    /* Every thread reaches the barrier, inside the matrix or not. */
    __syncthreads();]]
  REPLACE ""
  FAILS gpu_smem_correct
    MESSAGE [[lab4_transpose\(smem\) on a .* elements of `out` are wrong]])
