# TODO(7.1) without alpha in the float4 epilogue: C = A*B + beta*C. Right
# whenever alpha is 1, which is every call but the alpha/beta cases.
lab_variant(SOLUTION warp_tiling.cu
  FIND [[
    float4 out = make_float4(alpha * acc.x, alpha * acc.y, alpha * acc.z, alpha * acc.w);]]
  REPLACE [[
    float4 out = acc;]]
  FAILS gpu_vectorised_correct
    MESSAGE [[lab7_sgemm\(vectorised\) on 384x384x384 .*alpha 2\.5.*alpha was ignored]])
