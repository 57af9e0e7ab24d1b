# TODO(8.6) loading B's fragments from shared memory with A's row length
# (A_LD, 40 halves) instead of B's (B_LD, 136): the 16 rows of each
# fragment come from the wrong places of the shared tile.
lab_variant(SOLUTION tensor_cores.cu
  FIND [[
                wmma::load_matrix_sync(b_frag[fn], bs + kk * B_LD + at.col, B_LD);]]
  REPLACE [[
                wmma::load_matrix_sync(b_frag[fn], bs + kk * B_LD + at.col, A_LD);]]
  FAILS gpu_wmma_shared_correct
    MESSAGE [[lab8_wmma_shared on 128x128x32 .*elements wrong]])
