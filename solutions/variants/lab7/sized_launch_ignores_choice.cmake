# TODO(7.13) launching the large tile whatever lab7_choose_tile says: the
# helper is right (the CPU check passes), the launch is stage 4's. Caught by
# the launch the GPU check expects, and on a GPU by the speed test at 512.
lab_variant(SOLUTION warp_tiling.cu
  FIND [[
    if (lab7_choose_tile(m, n, sm_count) == LAB7_TILE_LARGE)]]
  REPLACE [[
    if (lab7_choose_tile(m, n, sm_count) == LAB7_TILE_LARGE || sm_count > 0)]]
  FAILS gpu_sized_correct
    MESSAGE [[lab7_sgemm\(sized\) launched a grid of 1x1x1 blocks of 256x1x1 threads.*small tile]]
  FAILS gpu_sized_speed_vs_lab3
    MESSAGE [[the timed run of lab7_sgemm\(sized\) vs .*launched a grid of .*small tile is the one to launch]])
