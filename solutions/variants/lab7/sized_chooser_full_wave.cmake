# TODO(7.11) with "a full wave" for the rule: the large tile only when its
# blocks reach LAB7_WT_MIN_BLOCKS per SM. At 1280 on 132 SMs its 100 blocks
# are far from 264, so the small tile is picked although its busiest SM
# runs 4 small blocks where the large tile's runs one (handout section
# 11.2: the busiest SM decides).
lab_variant(SOLUTION warp_tiling.cu
  FIND [[
    return large_rounds * LAB7_WT_BM * LAB7_WT_BN * LAB7_TILE_RATE_SMALL <=
                   small_rounds * LAB7_WTS_BM * LAB7_WTS_BN * LAB7_TILE_RATE_LARGE
               ? LAB7_TILE_LARGE]]
  REPLACE [[
    (void)large_rounds;
    (void)small_rounds;
    return large >= (long long)sms * LAB7_WT_MIN_BLOCKS
               ? LAB7_TILE_LARGE]]
  FAILS cpu_sized_tile_choice
    MESSAGE [[TODO\(7\.11\) lab7_choose_tile\(m=1280, n=1280, sm_count=132\) returned 1.*full wave]])
