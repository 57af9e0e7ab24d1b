# TODO(7.11) with "a full wave" for the rule: the large tile only when its
# blocks reach LAB7_WT_MIN_BLOCKS per SM. At 2048 on 132 SMs its 256 blocks
# are 8 short of 264, so the small tile is picked although every SM already
# has a large block (handout section 15.2: why one block per SM).
lab_variant(SOLUTION warp_tiling.cu
  FIND [[
    return lab7_tile_blocks(m, n, LAB7_WT_BM, LAB7_WT_BN) >= sm_count ? LAB7_TILE_LARGE]]
  REPLACE [[
    return lab7_tile_blocks(m, n, LAB7_WT_BM, LAB7_WT_BN) >= sm_count * LAB7_WT_MIN_BLOCKS
               ? LAB7_TILE_LARGE]]
  FAILS cpu_sized_tile_choice
    MESSAGE [[TODO\(7\.11\) lab7_choose_tile\(m=2048, n=2048, sm_count=132\) returned 1.*full wave]])
