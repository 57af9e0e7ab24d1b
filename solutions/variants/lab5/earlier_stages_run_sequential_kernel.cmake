# A cheat on the lesson: the divergent and strided stages launch the
# sequential stage's kernel. Every sum is right and the launch watch sees a
# kernel of the student's own file, so before stage identity both stages
# kept full marks, though what differs between those kernels is what lab 5
# teaches. Now each stage runs every stage once and compares the kernels:
# the stages that share one earn nothing, naming it (stage_identity.h).
lab_variant(SOLUTION reduction.cu
  FIND [[
    return launch_sum("lab5_sum_divergent", divergent_kernel, LAB5_BLOCK, in, out, n);]]
  REPLACE [[
    return launch_sum("lab5_sum_divergent", sequential_kernel, LAB5_BLOCK, in, out, n);]]
  FIND [[
    return launch_sum("lab5_sum_strided", strided_kernel, LAB5_BLOCK, in, out, n);]]
  REPLACE [[
    return launch_sum("lab5_sum_strided", sequential_kernel, LAB5_BLOCK, in, out, n);]]
  FAILS gpu_divergent_sums
    MESSAGE [[lab5_sum_divergent launched the kernel .*sequential_kernel.*lab5_sum_(strided|sequential) launches too.*kernel of its own]]
  FAILS gpu_strided_sums
    MESSAGE [[lab5_sum_strided launched the kernel .*sequential_kernel.*launches too.*kernel of its own]])
