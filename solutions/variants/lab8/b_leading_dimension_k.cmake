# TODO(8.3) with B's leading dimension K instead of N: right whenever N == K
# (the 16^3, 512^3 and 1024^3 squares), wrong on the rectangles, the first
# of which is 48 x 80 x 32.
lab_variant(SOLUTION tensor_cores.cu
  FIND [[
        wmma::load_matrix_sync(b_frag, b + (size_t)k0 * n + tile.col, n);]]
  REPLACE [[
        wmma::load_matrix_sync(b_frag, b + (size_t)k0 * n + tile.col, k);]]
  FAILS gpu_wmma_global_correct
    MESSAGE [[lab8_wmma_global on 48x80x32 .*elements wrong]])
