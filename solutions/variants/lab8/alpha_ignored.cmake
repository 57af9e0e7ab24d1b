# TODO(8.2) without alpha when beta == 0: C = A*B. Right whenever alpha is
# 1, which is every call but the alpha/beta cases.
lab_variant(SOLUTION tensor_cores.cu
  FIND [[
            out.x[i] = alpha * acc.x[i];]]
  REPLACE [[
            out.x[i] = acc.x[i];]]
  FAILS gpu_wmma_global_correct
    MESSAGE [[lab8_wmma_global on 48x80x32 .*alpha 2\.5.*alpha was ignored]])
