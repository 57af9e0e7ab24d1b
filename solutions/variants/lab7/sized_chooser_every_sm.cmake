# TODO(7.11) with "every SM has a large block" for the rule (this stage's
# rule before the tile boundary was measured). At 1280 on 132 SMs the large
# tile's 100 blocks leave 32 SMs idle, so the small tile is picked, yet its
# busiest SM runs 4 small blocks, time 4 x 4096 / 4 = 4096 against the
# large tile's 16384 / 5 = 3277 (handout section 11.2: 16% slower measured
# on an H100).
lab_variant(SOLUTION warp_tiling.cu
  FIND [[
    return large_rounds * LAB7_WT_BM * LAB7_WT_BN * LAB7_TILE_RATE_SMALL <=
                   small_rounds * LAB7_WTS_BM * LAB7_WTS_BN * LAB7_TILE_RATE_LARGE
               ? LAB7_TILE_LARGE]]
  REPLACE [[
    (void)large_rounds;
    (void)small_rounds;
    return large >= sms ? LAB7_TILE_LARGE]]
  FAILS cpu_sized_tile_choice
    MESSAGE [[TODO\(7\.11\) lab7_choose_tile\(m=1280, n=1280, sm_count=132\) returned 1.*every SM has a large block]])
