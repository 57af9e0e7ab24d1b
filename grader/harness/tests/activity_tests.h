/* Tests of the activity recorder: the log on synthetic events (CPU, run in
 * CI) and the recorder on real copies and kernels (GPU, skipped without). */
#ifndef ACTIVITY_TESTS_H
#define ACTIVITY_TESTS_H

#include "harness.h"

void cpu_kernel_short_names(void **state);
void cpu_log_sorts_counts_and_frees(void **state);
void cpu_describe_lists_each_kind(void **state);
void cpu_describe_says_what_is_missing(void **state);
void cpu_host_flow_accepted(void **state);
void cpu_host_flow_rejections_name_what_is_missing(void **state);

void gpu_records_copy_kernel_copy(void **state);
void gpu_recorder_restarts_cleanly(void **state);

#endif
