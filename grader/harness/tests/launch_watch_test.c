/* The kernel-identity rule of launch_watch.h on symbol lists as `nm -P`
 * writes them for nvcc objects: which launched kernels count as the
 * student's. No GPU needed. */
#include "harness.h"
#include "launch_watch.h"

#define TEST(fn) GRADER_TEST(fn, GROUP_CPU, 0)

/* A student library: two kernels (one extern "C"), one template
 * instantiation, a CUB kernel compiled in from the headers, data, a name
 * it only uses. */
static const char *const SYMBOLS =
    "liblab9_labs.a[stages.cu.o]:\n"
    "_Z9my_kernelPf T 0 10\n"
    "_Z28__device_stub__Z9my_kernelPfPf T 20 40\n"
    "c_style_kernel T 90 10\n"
    "_Z7tiled_kILi16EEvPf t a0 40\n"
    "_Z7tiled_kILi16EEvPf.cold t b0 10\n"
    "_ZN3cub18CUB_300000_SM_900_NS11EmptyKernelIvEEvv W c0 8\n"
    "lab9_helper T f0 20\n"
    "lab9_table D 100 20\n"
    "_Z12extern_stuffv U\n";

static void cpu_own_kernels_count(void **state)
{
    (void)state;
    GRADER_CHECK(launch_watch_is_students("_Z9my_kernelPf", SYMBOLS), "a mangled kernel");
    GRADER_CHECK(launch_watch_is_students("c_style_kernel", SYMBOLS), "an extern \"C\" kernel");
    GRADER_CHECK(launch_watch_is_students("_Z7tiled_kILi16EEvPf", SYMBOLS),
                 "a template instance");
}

static void cpu_library_and_grader_kernels_do_not(void **state)
{
    (void)state;
    GRADER_CHECK(!launch_watch_is_students("_ZN3cub18CUB_300000_SM_900_NS11EmptyKernelIvEEvv",
                                           SYMBOLS),
                 "a CUB kernel compiled from the student's file is still CUB's");
    GRADER_CHECK(!launch_watch_is_students("sm90_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize128x128x32",
                                           SYMBOLS), "a cuBLAS kernel");
    GRADER_CHECK(!launch_watch_is_students("_Z23copy_kernel_for_baselinePKfPfi", SYMBOLS),
                 "a grader kernel");
    GRADER_CHECK(!launch_watch_is_students("", SYMBOLS), "a kernel with no name");
    GRADER_CHECK(!launch_watch_is_students("lab9_table", SYMBOLS), "data");
    GRADER_CHECK(!launch_watch_is_students("_Z12extern_stuffv", SYMBOLS),
                 "a name the student's file only uses");
}

static void cpu_a_prefix_is_not_a_match(void **state)
{
    (void)state;
    /* A whole symbol name: a grader kernel whose name is a prefix of a
     * student's, or the other way round, is not the student's. */
    GRADER_CHECK(!launch_watch_is_students("_Z9my_kernel", SYMBOLS), "a shorter name");
    GRADER_CHECK(!launch_watch_is_students("c_style", SYMBOLS), "a C prefix");
    GRADER_CHECK(!launch_watch_is_students("_Z9my_kernelPfi", SYMBOLS), "other parameters");
    GRADER_CHECK(!launch_watch_is_students("my_kernelPf", SYMBOLS), "a name inside another");
    GRADER_CHECK(!launch_watch_is_students("_Z7tiled_kILi32EEvPf", SYMBOLS),
                 "another template instance");
    GRADER_CHECK(!launch_watch_is_students("_Z9my_kernelPf", NULL), "no list");
}

static const grader_test tests[] = {
    TEST(cpu_own_kernels_count),
    TEST(cpu_library_and_grader_kernels_do_not),
    TEST(cpu_a_prefix_is_not_a_match),
};

int main(int argc, char **argv)
{
    grader_suite suite = {"launch_watch", "kernel identity rule",
                          "grader/harness/checks/launch_watch.h", GRADER_IMPLEMENTATION,
                          tests, sizeof tests / sizeof tests[0],
                          .concurrent_streams = 0};
    return grader_main(&suite, argc, argv);
}
