/* Lab 8 grader: the list of tests, their groups and their points (out of
 * 10). Thresholds and their calibration: lab8_rubric.h. */
#include "harness.h"
#include "lab8_checks.h"

static const grader_test tests[] = {
    /* CPU: the index helper on simulated launches. */
    GRADER_TEST(cpu_element_index_coverage, GROUP_CPU, 5), /* TODO(8.1) */
    /* GPU: the kernel. */
    GRADER_TEST(gpu_scale, GROUP_GPU, 5),
};

int main(int argc, char **argv)
{
    grader_suite suite = {"lab8", "Lab 8 - tensor cores", LAB8_HANDOUT,
                          GRADER_IMPLEMENTATION, tests, sizeof tests / sizeof tests[0],
                          .concurrent_streams = 0};
    return grader_main(&suite, argc, argv);
}
