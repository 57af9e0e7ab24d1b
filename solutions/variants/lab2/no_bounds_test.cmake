# TODO(2.2) without its bounds test: the threads of the last blocks that lie
# outside C compute and store anyway, past the end of C (into the grader's
# canary guard zone) or onto the next row's elements.
lab_variant(SOLUTION naive_matmul.cu
  FIND [[
    if (row >= m || col >= n)
        return;]]
  REPLACE ""
  FAILS gpu_naive_awkward_shapes
    MESSAGE [[lab2_matmul_naive on .*(check (the|your) bounds test|TODO\(2\.2\))]])
