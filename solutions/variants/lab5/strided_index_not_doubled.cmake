# TODO(5.4) with stride * t instead of 2 * stride * t: thread t adds s[t + 1]
# into s[t] while thread t + 1 adds into s[t + 1], a race in every step.
lab_variant(SOLUTION reduction.cu
  FIND [[
    return 2 * stride * thread_idx.x;]]
  REPLACE [[
    return stride * thread_idx.x;]]
  FAILS cpu_strided_steps_contiguous
    MESSAGE [[TODO\(5\.4\) lab5_strided_index: .*race]])
