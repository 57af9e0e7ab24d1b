/* Lab 6 grader: the list of tests, their groups and their points (out of
 * 50). Thresholds, partial-credit floors and
 * their calibration: lab6_rubric.h. */
#include "harness.h"
#include "lab6_checks.h"
#include "lab6_rubric.h"

static const grader_test tests[] = {
    /* CPU: the helpers. */
    GRADER_TEST(cpu_chunk_ranges, GROUP_CPU, 6, "6.1"),
    GRADER_TEST(cpu_issue_orders, GROUP_CPU, 6, "6.5"),
    /* GPU. The lesson is the overlap: right results from a pipeline whose
     * copies never overlap its kernels earn none of the correctness points. */
    GRADER_TEST(gpu_pipeline_holds_pinned_streams, GROUP_GPU, 4, "6.2, 6.3"),
    GRADER_TEST(gpu_pipeline_overlaps, GROUP_GPU, 8, "6.4"),             /* CUPTI */
    GRADER_GATED(gpu_pipeline_correct, GROUP_GPU, 10, gpu_pipeline_overlaps),
    GRADER_TEST(gpu_pipeline_events_time_the_run, GROUP_GPU, 3, "6.6"),
    GRADER_TEST(gpu_pipeline_releases_everything, GROUP_GPU, 4, "6.7"),
    GRADER_TEST(gpu_rejects_bad_input, GROUP_GPU, 2),             /* validation (given code) */
    GRADER_SPEED(gpu_streamed_speedup, GROUP_GPU, 4, "speedup",
                 LAB6_STREAMED_SPEEDUP_FLOOR, LAB6_STREAMED_SPEEDUP_REFERENCE),
    GRADER_SPEED(gpu_overlap_efficiency, GROUP_GPU, 3, "overlap_efficiency",
                 LAB6_OVERLAP_EFFICIENCY_FLOOR, LAB6_OVERLAP_EFFICIENCY_REFERENCE),
    /* Measured for the handout's tables, never judged. */
    GRADER_TEST(gpu_overlap_cases_metrics, GROUP_GPU, 0),
    GRADER_TEST(gpu_stream_count_metrics, GROUP_GPU, 0),
    GRADER_TEST(gpu_host_memory_metrics, GROUP_GPU, 0),
    GRADER_TEST(selftest_serial_below_thresholds, GROUP_SELFTEST, 0),
};

int main(int argc, char **argv)
{
    grader_suite suite = {"lab6", "Lab 6 - overlapping copies and kernels with streams",
                          LAB6_HANDOUT, GRADER_IMPLEMENTATION, tests,
                          sizeof tests / sizeof tests[0], .concurrent_streams = 1,
                          .orders_by_legacy_stream = 1};
    return grader_main(&suite, argc, argv);
}
