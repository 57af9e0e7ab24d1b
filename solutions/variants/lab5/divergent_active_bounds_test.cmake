# The wrong fix of divergent_active_t_mod_stride: t % stride with a bounds
# test added. Nothing reads past the block any more, but odd threads still
# work: thread 1 adds s[2] into s[1] while thread 0 reads s[1], a race. The
# message must say that thread 1 must not work at all.
lab_variant(SOLUTION reduction.cu
  FIND [[
    return thread_idx.x % (2 * stride) == 0;]]
  REPLACE [[
    return thread_idx.x % stride == 0 && thread_idx.x + stride < LAB5_BLOCK;]]
  FAILS cpu_divergent_steps_add_up
    MESSAGE [[TODO\(5\.1\) lab5_divergent_active: .*race.*Thread 1 must not work at all in this step]])
