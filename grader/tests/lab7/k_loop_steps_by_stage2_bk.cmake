# TODO(7.9) with the K loop advancing by stage 2's BK (8) instead of the
# warp tile's LAB7_WT_BK (16): each step loads 16 columns of A and rows of
# B but moves on by 8, so half the products are counted twice (and the
# last step reads past the end of a row of A).
lab_variant(SOLUTION warp_tiling.cu
  FIND [[
    for (int k0 = 0; k0 < k; k0 += BK) {
        if (CHECKED)]]
  REPLACE [[
    for (int k0 = 0; k0 < k; k0 += LAB7_BT2_BK) {
        if (CHECKED)]]
  FAILS gpu_warp_tile_correct
    MESSAGE [[lab7_sgemm\(warp_tile\) on 128x128x16.*wrong]])
