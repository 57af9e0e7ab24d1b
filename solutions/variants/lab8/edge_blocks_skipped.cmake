# TODO(8.3) sending home every warp of a block that does not fit whole
# inside C, instead of only the warps whose own tile lies outside: with M
# or N a multiple of 16 but not of the block's 32, the last row or column
# of tiles is never written. On 16 x 16 x 16 (one partial block) nothing is.
lab_variant(SOLUTION tensor_cores.cu
  FIND [[
    if (tile.row >= m || tile.col >= n)
        return;]]
  REPLACE [[
    if ((int)(blockIdx.y + 1) * LAB8_G_BM > m || (int)(blockIdx.x + 1) * LAB8_G_BN > n)
        return;]]
  FAILS gpu_wmma_global_correct
    MESSAGE [[lab8_wmma_global on 16x16x16 .*never written]])
