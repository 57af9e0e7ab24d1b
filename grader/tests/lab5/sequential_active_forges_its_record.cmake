# Hostile: TODO(5.6) wrong (every thread works in every step: divergent and
# racing), and the helper, on its first call, finds the harness's record of
# the test in /proc/self/maps, marks the test function as returned and ends
# the process with status 0. Lab 5's lesson is graded on these CPU checks,
# so the runner runs them again itself on the helper results the test
# program recorded (harness/call_log.h): the record ends at the first call.
lab_variant(SOLUTION reduction.cu
  FIND [[
#include "cuda_check.h"]]
  REPLACE [[
#include "cuda_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void forge_record_and_leave(void)
{
    FILE *maps = fopen("/proc/self/maps", "r");
    char line[512];
    while (maps && fgets(line, sizeof line, maps))
        if (strstr(line, "grader-record")) {
            *(volatile int *)strtoul(line, NULL, 16) = 1; /* result_record.returned */
            _exit(0);
        }
}]]
  FIND [[
    return thread_idx.x < stride;]]
  REPLACE [[
#ifndef __CUDA_ARCH__
    forge_record_and_leave();
#endif
    return stride > 0;]]
  FAILS cpu_sequential_steps_convergent
    MESSAGE [[the test program reported a pass, but .*ends before call 1 \(lab5_sequential_active\)]])
