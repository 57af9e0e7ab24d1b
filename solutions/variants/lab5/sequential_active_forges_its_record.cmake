# Hostile: TODO(5.6) wrong (every thread works in every step: divergent and
# racing), and the helper, on its first call, finds the harness's record of
# the test in /proc/self/maps, marks the test function as returned and ends
# the process with status 0. Lab 5's lesson is graded on these CPU checks,
# so the runner runs them again itself on the helper results the test
# program recorded (harness/runner/call_log.h): the record ends at the first call.
include(${VARIANTS_SOURCE_DIR}/forge_record.cmake)
lab_variant(SOLUTION reduction.cu
  FIND [[
#include "cuda_check.h"]]
  REPLACE "#include \"cuda_check.h\"\n\n${FORGE_RECORD_AND_LEAVE}"
  FIND [[
    return thread_idx.x < stride;]]
  REPLACE [[
#ifndef __CUDA_ARCH__
    forge_record_and_leave();
#endif
    return stride > 0;]]
  FAILS cpu_sequential_steps_convergent
    MESSAGE [[the test program reported a pass, but .*ends before call 1 \(lab5_sequential_active\)]])
