/* A suite whose tests pass, fail, crash, hang and skip on purpose: the
 * harness must report each as exactly that and keep going. The gpu_* tests
 * do it with real kernels (a hang, a fault, then a clean launch); without a
 * GPU they are skipped. Run by check_harness_demo.cmake, which reads the
 * results file. */
#include <signal.h>
#include <unistd.h>

#include "harness.h"

int demo_launch_hang(void);
int demo_launch_fault(void);
int demo_launch_ok(void);

static void passes(void **state)
{
    (void)state;
    grader_metric("answer", 42.0, "x");
}

static void fails(void **state)
{
    (void)state;
    GRADER_CHECK(1 + 1 == 3, "arithmetic is broken: %d", 1 + 1);
}

static void crashes(void **state)
{
    (void)state;
    raise(SIGSEGV);
}

static void hangs(void **state)
{
    (void)state;
    for (;;)
        pause();
}

static void exits_early(void **state)
{
    (void)state;
    _exit(3);
}

static void skips(void **state)
{
    (void)state;
    skip(); /* CMocka's own skip must be reported as SKIP too, GPU or not */
}

static void gpu_kernel_hangs(void **state)
{
    (void)state;
    grader_require_gpu();
    demo_launch_hang();
}

static void gpu_kernel_faults(void **state)
{
    (void)state;
    grader_require_gpu();
    demo_launch_fault();
}

static void gpu_works_after_fault(void **state)
{
    (void)state;
    grader_require_gpu();
    GRADER_CHECK(demo_launch_ok() == 42, "a clean launch after the fault gave a wrong result");
}

static const grader_test tests[] = {
    {"passes", GROUP_CPU, passes, 1, 0},
    {"fails", GROUP_CPU, fails, 2, 0},
    {"crashes", GROUP_CPU, crashes, 3, 0},
    {"hangs", GROUP_CPU, hangs, 4, 1},
    {"exits_early", GROUP_CPU, exits_early, 5, 0},
    {"skips", GROUP_CPU, skips, 6, 0},
    {"gpu_kernel_hangs", GROUP_GPU, gpu_kernel_hangs, 7, 5},
    {"gpu_kernel_faults", GROUP_GPU, gpu_kernel_faults, 8, 0},
    {"gpu_works_after_fault", GROUP_GPU, gpu_works_after_fault, 9, 0},
};

int main(int argc, char **argv)
{
    grader_suite suite = {"demo", "harness demo", "grader/harness/harness.h", "self-test",
                          tests, sizeof tests / sizeof tests[0]};
    return grader_main(&suite, argc, argv);
}
