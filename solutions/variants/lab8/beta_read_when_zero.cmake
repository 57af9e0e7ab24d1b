# TODO(8.2) reading C always, alpha * acc + beta * C even when beta == 0:
# the grader's NaN in C turns every result into NaN (0 * NaN is NaN). The
# BLAS rule says C is not read when beta == 0.
lab_variant(SOLUTION tensor_cores.cu
  FIND [[
    if (beta == 0.0f) {]]
  REPLACE [[
    if (beta != beta) {]]
  FAILS gpu_wmma_global_correct
    MESSAGE [[lab8_wmma_global on 16x16x16.*NaN although A and B hold no NaN.*BLAS rule]])
