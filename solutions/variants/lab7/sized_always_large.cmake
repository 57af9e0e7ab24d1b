# TODO(7.11), the final stage's chooser, always picking the large tile: the
# stage is then stage 4 at every size. The CPU check catches the rule (256
# on 132 SMs gives the large tile 4 blocks), and on a GPU the stage loses
# its speed bonus at 512, where the 128 x 128 tile gives 16 blocks to the
# SMs (the baseline of LAB7_SIZED_SPEEDUP_MIN).
lab_variant(SOLUTION warp_tiling.cu
  FIND [[
    return large_rounds * LAB7_WT_BM * LAB7_WT_BN * LAB7_TILE_RATE_SMALL <=
                   small_rounds * LAB7_WTS_BM * LAB7_WTS_BN * LAB7_TILE_RATE_LARGE
               ? LAB7_TILE_LARGE
               : LAB7_TILE_SMALL;]]
  REPLACE [[
    (void)large_rounds;
    (void)small_rounds;
    return LAB7_TILE_LARGE;]]
  FAILS cpu_sized_tile_choice
    MESSAGE [[TODO\(7\.11\) lab7_choose_tile\(m=256, n=256, sm_count=132\) returned 0.*expected LAB7_TILE_SMALL]]
  FAILS gpu_sized_correct
    MESSAGE [[lab7_sgemm\(sized\) launched a grid of 1x1x1 blocks of 256x1x1 threads.*small tile]]
  FAILS gpu_sized_speed_vs_lab3
    MESSAGE [[the timed run of lab7_sgemm\(sized\) vs .*launched a grid of .*small tile is the one to launch]])
