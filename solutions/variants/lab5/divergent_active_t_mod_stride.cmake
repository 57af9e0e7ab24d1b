# TODO(5.1) with t % stride instead of t % (2*stride): in the first step every
# thread adds its right neighbour, the last one from past the block's end,
# and neighbours overwrite what the next thread reads. The fix is to keep the
# odd threads idle, not a bounds test: the message must say so.
lab_variant(SOLUTION reduction.cu
  FIND [[
    return thread_idx.x % (2 * stride) == 0;]]
  REPLACE [[
    return thread_idx.x % stride == 0;]]
  FAILS cpu_divergent_steps_add_up
    MESSAGE [[TODO\(5\.1\) lab5_divergent_active: .*thread 255 adds s\[256\].*Thread 255 must not work at all in this step.*no bounds test is needed]])
