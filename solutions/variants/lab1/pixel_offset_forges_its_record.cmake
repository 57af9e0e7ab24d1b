# Hostile (issue: the student's own work): TODO(1.4) wrong (x picks the row),
# and the helper, on its first call, finds the harness's record of the test
# in /proc/self/maps, marks the test function as returned and ends the
# process with status 0. The test program's record says "passed"; the
# runner's own run of the CPU check on the helper results the test program
# recorded (harness/runner/call_log.h) finds the record ends at the first call.
include(${VARIANTS_SOURCE_DIR}/forge_record.cmake)
lab_variant(SOLUTION indexing.cu
  FIND [[
#include "cuda_check.h"]]
  REPLACE "#include \"cuda_check.h\"\n\n${FORGE_RECORD_AND_LEAVE}"
  FIND [[
    int col = block_idx.x * block_dim.x + thread_idx.x;
    int row = block_idx.y * block_dim.y + thread_idx.y;]]
  REPLACE [[
#ifndef __CUDA_ARCH__
    forge_record_and_leave();
#endif
    int row = block_idx.x * block_dim.x + thread_idx.x;
    int col = block_idx.y * block_dim.y + thread_idx.y;]]
  FAILS cpu_pixel_offset_coverage
    MESSAGE [[the test program reported a pass, but the grader's own check .*record of your helpers' results ends before call 1 \(lab1_pixel_offset\)]]
  FAILS cpu_pixel_offset_layout
    MESSAGE [[the test program reported a pass, but .*ends before call 1 \(lab1_pixel_offset\)]])
