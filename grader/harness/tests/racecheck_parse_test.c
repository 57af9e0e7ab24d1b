/* The graded race check's reading of compute-sanitizer's racecheck report
 * (racecheck.h), on reports shaped like the tool's: a clean run, races with
 * and without source lines, warnings only, an older summary, a run that
 * never reached its summary. The tool itself needs a GPU; its report does not. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "racecheck.h"

#define TEST(fn) GRADER_TEST(fn, GROUP_CPU, 0)

static const char CLEAN[] =
    "========= COMPUTE-SANITIZER\n"
    "race demo: lab3_matmul_tiled on 64x64x96 (MxNxK), 1 run(s)\n"
    "  run 1: every element right\n"
    "========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)\n";

/* With -lineinfo racecheck names file:line before the kernel. */
static const char RACE_WITH_LINES[] =
    "========= COMPUTE-SANITIZER\n"
    "========= Error: Race reported between Write access at void tiled_matmul_kernel<32>"
    "(const float *, const float *, float *, int, int, int)+0x2f0 in "
    "/home/s/cuda-labs/labs/lab3_shared_tiles/shared_tiles.cu:58:void tiled_matmul_kernel<32>"
    "(const float *, const float *, float *, int, int, int)\n"
    "=========     and Read access at void tiled_matmul_kernel<32>(...)+0x3a0 in "
    "/home/s/cuda-labs/labs/lab3_shared_tiles/shared_tiles.cu:64:void tiled_matmul_kernel<32>"
    "(...) [6144 hazards]\n"
    "=========\n"
    "  run 1: every element right\n"
    "========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)\n";

/* Without -lineinfo: offsets only. */
static const char RACE_WITHOUT_LINES[] =
    "========= Error: Race reported between Write access at tiled_matmul_kernel+0x2f0\n"
    "=========     and Read access at tiled_matmul_kernel+0x3a0 [2048 hazards]\n"
    "========= RACECHECK SUMMARY: 2 hazards displayed (2 errors, 0 warnings)\n";

static const char WARNINGS_ONLY[] =
    "========= Warning: Race reported between Read access at reduce+0x100 in reduction.cu:88:reduce\n"
    "=========     and Write access at reduce+0x120 in reduction.cu:90:reduce [32 hazards]\n"
    "========= RACECHECK SUMMARY: 1 hazard displayed (0 errors, 1 warning)\n";

static const char OLD_SUMMARY[] = "========= RACECHECK SUMMARY: 3 hazards displayed\n";

static const char NO_SUMMARY[] =
    "========= COMPUTE-SANITIZER\n"
    "race demo: launch failed: lab3_matmul_tiled: not implemented yet\n"
    "========= Target application returned an error\n";

static void cpu_clean_run_has_no_hazard(void **state)
{
    (void)state;
    racecheck_summary s;
    assert_int_equal(racecheck_parse(CLEAN, &s), 1);
    assert_int_equal(s.has_summary, 1);
    assert_int_equal(s.hazards, 0);
    assert_int_equal(s.errors, 0);
    assert_int_equal(s.warnings, 0);
    assert_string_equal(s.first_race, "");
}

/* A summary printed before the tool's own (by the program under test, say)
 * does not count: the tool's comes last. */
static void cpu_last_summary_counts(void **state)
{
    (void)state;
    static const char forged_first[] =
        "========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)\n"
        "========= Error: Race reported between Write access at k+0x10\n"
        "=========     and Read access at k+0x20 [64 hazards]\n"
        "========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)\n";
    racecheck_summary s;
    assert_int_equal(racecheck_parse(forged_first, &s), 1);
    assert_int_equal(s.hazards, 1);
    assert_int_equal(s.errors, 1);
}

static void cpu_race_names_file_and_line(void **state)
{
    (void)state;
    racecheck_summary s;
    assert_int_equal(racecheck_parse(RACE_WITH_LINES, &s), 1);
    assert_int_equal(s.hazards, 1);
    assert_int_equal(s.errors, 1);
    assert_string_equal(s.first_location, "shared_tiles.cu:58");
    /* Both accesses, without the tool's "=========" margin. */
    assert_non_null(strstr(s.first_race, "Error: Race reported between Write access"));
    assert_non_null(strstr(s.first_race, " and Read access"));
    assert_null(strstr(s.first_race, "====="));
}

static void cpu_race_without_lineinfo(void **state)
{
    (void)state;
    racecheck_summary s;
    assert_int_equal(racecheck_parse(RACE_WITHOUT_LINES, &s), 1);
    assert_int_equal(s.errors, 2);
    assert_string_equal(s.first_location, "");
    assert_non_null(strstr(s.first_race, "[2048 hazards]"));
}

static void cpu_warnings_are_not_errors(void **state)
{
    (void)state;
    racecheck_summary s;
    assert_int_equal(racecheck_parse(WARNINGS_ONLY, &s), 1);
    assert_int_equal(s.hazards, 1);
    assert_int_equal(s.errors, 0);
    assert_int_equal(s.warnings, 1);
    assert_string_equal(s.first_location, "reduction.cu:88");
}

static void cpu_summary_without_counts_counts_as_errors(void **state)
{
    (void)state;
    racecheck_summary s;
    assert_int_equal(racecheck_parse(OLD_SUMMARY, &s), 1);
    assert_int_equal(s.hazards, 3);
    assert_int_equal(s.errors, 3);
}

static void cpu_missing_summary_is_reported(void **state)
{
    (void)state;
    racecheck_summary s;
    assert_int_equal(racecheck_parse(NO_SUMMARY, &s), 0);
    assert_int_equal(s.has_summary, 0);
    assert_int_equal(s.errors, 0);
    assert_int_equal(racecheck_parse("", &s), 0);
}

/* The lookup never invents a path: what it returns can be executed. */
static void cpu_sanitizer_lookup_honours_override(void **state)
{
    (void)state;
    char path[4096];
    setenv("CUDA_LABS_SANITIZER", "/nonexistent/compute-sanitizer", 1);
    assert_int_equal(racecheck_find_sanitizer(path, sizeof path), 0);
    setenv("CUDA_LABS_SANITIZER", "/bin/sh", 1);
    assert_int_equal(racecheck_find_sanitizer(path, sizeof path), 1);
    assert_string_equal(path, "/bin/sh");
    unsetenv("CUDA_LABS_SANITIZER");
}

static const grader_test tests[] = {
    TEST(cpu_clean_run_has_no_hazard),
    TEST(cpu_last_summary_counts),
    TEST(cpu_race_names_file_and_line),
    TEST(cpu_race_without_lineinfo),
    TEST(cpu_warnings_are_not_errors),
    TEST(cpu_summary_without_counts_counts_as_errors),
    TEST(cpu_missing_summary_is_reported),
    TEST(cpu_sanitizer_lookup_honours_override),
};

int main(int argc, char **argv)
{
    grader_suite suite = {"racecheck", "racecheck report parser",
                          "grader/harness/checks/racecheck.h", GRADER_IMPLEMENTATION,
                          tests, sizeof tests / sizeof tests[0],
                          .concurrent_streams = 0};
    return grader_main(&suite, argc, argv);
}
