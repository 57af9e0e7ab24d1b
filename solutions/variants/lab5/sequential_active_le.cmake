# TODO(5.6) with t <= stride: one thread too many, thread `stride` adds
# s[2*stride], past the block in the first step and counted twice later.
lab_variant(SOLUTION reduction.cu
  FIND [[
    return thread_idx.x < stride;]]
  REPLACE [[
    return thread_idx.x <= stride;]]
  FAILS cpu_sequential_steps_convergent
    MESSAGE [[TODO\(5\.6\) lab5_sequential_active: .*thread 128 adds s\[256\].*Thread 128 must not work at all in this step.*t < stride]])
