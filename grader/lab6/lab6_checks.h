/* Lab 6 grader: the tests (CPU helpers, GPU pipeline, overlap, speed). */
#ifndef LAB6_CHECKS_H
#define LAB6_CHECKS_H

#include "lab6.h"

#ifdef __cplusplus
extern "C" {
#endif

#define LAB6_HANDOUT "handouts/lab6-streams-overlap.md"

/* CPU: the student's helpers. */
void cpu_chunk_ranges(void **state);
void cpu_issue_orders(void **state);

/* GPU: the pipeline. */
void gpu_pipeline_holds_pinned_streams(void **state);
void gpu_pipeline_overlaps(void **state);
void gpu_pipeline_correct(void **state);
void gpu_pipeline_events_time_the_run(void **state);
void gpu_pipeline_releases_everything(void **state);
void gpu_rejects_bad_input(void **state);
/* GPU: speed (lab6_speed_checks.c). */
void gpu_streamed_speedup(void **state);
void gpu_overlap_efficiency(void **state);
void gpu_overlap_cases_metrics(void **state);
void gpu_stream_count_metrics(void **state);
void gpu_host_memory_metrics(void **state);
void selftest_serial_below_thresholds(void **state);

#ifdef __cplusplus
}
#endif

#endif
