# TODO(2.11) without the warm-up launches: the first timed run pays for
# loading the module and cold caches. The launches counted on the GPU give
# it away.
lab_variant(SOLUTION naive_matmul.cu
  FIND [[
    for (int i = 0; i < warmups; ++i) {]]
  REPLACE [[
    for (int i = 0; i < 0 * warmups; ++i) {]]
  FAILS gpu_timing_matches_device
    MESSAGE [[TODO\(2\.11\) lab2_time_naive on 2048x2048x2048, 2 warm-ups, 7 runs launched 7 kernels; expected 9]])
