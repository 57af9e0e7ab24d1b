# The fragment of A declared col_major while A is row-major: every
# load_matrix_sync of A reads the 16 x 16 piece transposed, so each tile of
# C is A^T * B piece by piece. It compiles and runs; only the numbers are
# wrong, on every shape (both stages share the type).
lab_variant(SOLUTION tensor_cores.cu
  FIND [[
typedef wmma::fragment<wmma::matrix_a, LAB8_FRAG, LAB8_FRAG, LAB8_FRAG, __half, wmma::row_major>
    a_fragment;]]
  REPLACE [[
typedef wmma::fragment<wmma::matrix_a, LAB8_FRAG, LAB8_FRAG, LAB8_FRAG, __half, wmma::col_major>
    a_fragment;]]
  FAILS gpu_wmma_global_correct
    MESSAGE [[lab8_wmma_global on 16x16x16 .*elements wrong]])
