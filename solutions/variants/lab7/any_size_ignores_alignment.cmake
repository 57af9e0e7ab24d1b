# TODO(7.10) without the alignment test: the any-size path takes the fast
# kernel (float4 loads and stores) whenever the sizes fit it, also for a, b
# and c one float past a 16-byte boundary ("any float alignment", lab7.h).
# The float4 accesses fault (misaligned address) or read the wrong words.
lab_variant(SOLUTION warp_tiling.cu
  FIND [[
    if (m % LAB7_WT_BM == 0 && n % LAB7_WT_BN == 0 && k % LAB7_WT_BK == 0 &&
        ((uintptr_t)a | (uintptr_t)b | (uintptr_t)c) % 16 == 0)]]
  REPLACE [[
    if (m % LAB7_WT_BM == 0 && n % LAB7_WT_BN == 0 && k % LAB7_WT_BK == 0)]]
  FAILS gpu_any_size_correct
    MESSAGE [[one float past a 16-byte boundary.*(misaligned|float4|TODO\(7\.10\))]])
