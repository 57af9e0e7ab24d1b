/* The calibration files' reader (calibration.h, json_reader.h) on files made
 * here: a good file, malformed ones, one for another GPU, none at all, a
 * ratio that cannot be graded; and the lookup the test processes make
 * (calibrated.h). No GPU: the device line is given as the runner gets it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "calibrated.h"
#include "calibration.h"
#include "harness.h"
#include "json_reader.h"
#include "sm_limit.h"

#define TEST(fn) GRADER_TEST(fn, GROUP_CPU, 0)

static const char H100[] =
    "NVIDIA H100 80GB HBM3, sm_90, 132 SMs, 50 MiB L2, 79 GiB, driver 13.0, runtime 13.0";
static const char T4[] = "Tesla T4, sm_75, 40 SMs, 4 MiB L2, 15 GiB, driver 12.4, runtime 13.0";

static const char GOOD[] =
    "{\"schema\": \"cuda-labs-calibration/1\",\n"
    " \"gpu\": {\"name\": \"NVIDIA H100 80GB HBM3\", \"sms\": 132, \"memory_gib\": 79,\n"
    "         \"description\": \"x\"},\n"
    " \"made\": {\"date\": \"2026-11-26\", \"runs\": 20},\n"
    " \"thresholds\": {\n"
    "  \"LAB4_SMEM_SPEEDUP_MIN\": {\"lab\": 4, \"graded\": true, \"value\": 1.25,\n"
    "     \"allowed\": [1.16, 1.85], \"reason\": \"lowered \\\"here\\\"\",\n"
    "     \"tests\": [\"gpu_smem_speed_vs_naive\", \"selftest_naive_below_smem_threshold\"]},\n"
    "  \"LAB4_PADDED_SPEEDUP_MIN\": {\"lab\": 4, \"graded\": false, \"value\": null,\n"
    "     \"allowed\": null, \"reason\": \"cannot be graded on this GPU\",\n"
    "     \"tests\": [\"gpu_padded_speed_vs_unpadded\",\n"
    "               \"selftest_unpadded_below_padded_threshold\"]}},\n"
    " \"floors\": {}, \"references\": {}}\n";

/* A fresh folder per test, with `text` as `name` in it (NULL: no file). */
static void write_file(char *dir, const char *name, const char *text, char *path)
{
    snprintf(dir, 64, "/tmp/calibration_test.XXXXXX");
    assert_non_null(mkdtemp(dir));
    sprintf(path, "%s/%s", dir, name);
    if (!text)
        return;
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void remove_file(const char *dir, const char *path)
{
    remove(path);
    rmdir(dir);
}

static void cpu_file_names_match_calibrate_py(void **state)
{
    (void)state;
    /* grader/tools/tests/test_calibrate.py checks the same three names. */
    char out[160];
    calibration_file_name("NVIDIA H100 80GB HBM3", 132, 79, out, sizeof out);
    assert_string_equal(out, "nvidia-h100-80gb-hbm3_132sm.json");
    calibration_file_name("Tesla T4", 40, 15, out, sizeof out);
    assert_string_equal(out, "tesla-t4_40sm_15gib.json");
    calibration_file_name("NVIDIA H100 80GB HBM3 MIG 1g.10gb", 16, 9, out, sizeof out);
    assert_string_equal(out, "nvidia-h100-80gb-hbm3-mig-1g-10gb_16sm.json");
}

static void cpu_device_line_gives_the_gpu(void **state)
{
    (void)state;
    char name[128];
    int sms = 0, gib = 0;
    assert_int_equal(calibration_gpu_from_description(H100, name, sizeof name, &sms, &gib), 0);
    assert_string_equal(name, "NVIDIA H100 80GB HBM3");
    assert_int_equal(sms, 132);
    assert_int_equal(gib, 79);
    assert_int_equal(calibration_gpu_from_description("no CUDA device (no NVIDIA driver or GPU "
                                                      "found)", name, sizeof name, &sms, &gib),
                     -1);
    assert_int_equal(calibration_gpu_from_description("device probe failed", name, sizeof name,
                                                      &sms, &gib),
                     -1);
}

/* Under GRADER_SM_COUNT the line states the SMs granted, so a run on 40 of
 * an H100's SMs is calibrated, and finds its file, as a 40-SM GPU. */
static void cpu_green_context_line_gives_its_sms(void **state)
{
    (void)state;
    char line[256], name[128], file[160];
    int sms = 0, gib = 0;
    snprintf(line, sizeof line, "%s", H100);
    sm_limit_describe(line, sizeof line, 0);
    assert_string_equal(line, H100);
    sm_limit_describe(line, sizeof line, 40);
    assert_string_equal(line, "NVIDIA H100 80GB HBM3, sm_90, 40 SMs, 50 MiB L2, 79 GiB, "
                              "driver 13.0, runtime 13.0, a green context of 40 of the GPU's "
                              "132 SMs (GRADER_SM_COUNT)");
    assert_int_equal(calibration_gpu_from_description(line, name, sizeof name, &sms, &gib), 0);
    assert_int_equal(sms, 40);
    calibration_file_name(name, sms, gib, file, sizeof file);
    assert_string_equal(file, "nvidia-h100-80gb-hbm3_40sm.json");
    /* A line it cannot read gets the note at its end. */
    snprintf(line, sizeof line, "some GPU");
    sm_limit_describe(line, sizeof line, 16);
    assert_string_equal(line, "some GPU, a green context of 16 SMs (GRADER_SM_COUNT)");
}

/* GOOD, written to a file and loaded for the GPU it names. */
static void load_good_file(calibration *cal)
{
    char dir[64], path[128], err[400];
    write_file(dir, "cal.json", GOOD, path);
    assert_int_equal(calibration_load(path, "NVIDIA H100 80GB HBM3", 132, 79, cal, err,
                                      sizeof err),
                     0);
    remove_file(dir, path);
}

static void cpu_good_file_is_read(void **state)
{
    (void)state;
    static calibration cal;
    load_good_file(&cal);
    assert_int_equal(cal.state, CALIBRATION_FILE);
    assert_string_equal(cal.file, "cal.json");
    assert_int_equal(cal.count, 2);
    assert_string_equal(cal.entries[0].name, "LAB4_SMEM_SPEEDUP_MIN");
    assert_true(cal.entries[0].graded);
    assert_true(cal.entries[0].value == 1.25);
    assert_false(cal.entries[1].graded);
    assert_null(calibration_not_graded(&cal, "gpu_smem_speed_vs_naive"));
    assert_string_equal(calibration_not_graded(&cal, "gpu_padded_speed_vs_unpadded"),
                        "LAB4_PADDED_SPEEDUP_MIN");
    assert_string_equal(calibration_not_graded(&cal, "selftest_unpadded_below_padded_threshold"),
                        "LAB4_PADDED_SPEEDUP_MIN");
}

/* Each case: the file's text and a word its error must contain. */
static void cpu_malformed_files_are_refused(void **state)
{
    (void)state;
    static const struct {
        const char *text, *says;
    } cases[] = {
        {"", "value expected"},
        {"{\"schema\": \"cuda-labs-calibration/1\",", "member name expected"},
        {"{\"schema\": \"cuda-labs-calibration/1\"} x", "text after the value"},
        {"[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]", "nested deeper"},
        {"{\"a\": 1e999}", "bad number"},
        {"{\"a\": 0x10}", "','"},
        {"{\"a\": \"\\u00e9\"}", "outside ASCII"},
        {"{\"a\": \"unterminated}", "closing quote"},
        {"{\"schema\": \"cuda-labs-results/5\"}", "not a calibration file"},
        {"{\"schema\": \"cuda-labs-calibration/1\", \"gpu\": {\"name\": \"NVIDIA H100 80GB "
         "HBM3\"}}", "name, sms and memory_gib"},
        {"{\"schema\": \"cuda-labs-calibration/1\", \"gpu\": {\"name\": \"NVIDIA H100 80GB "
         "HBM3\", \"sms\": 132, \"memory_gib\": 79}, \"thresholds\": {\"X\": {\"graded\": 1, "
         "\"tests\": []}}}", "true or false"},
        {"{\"schema\": \"cuda-labs-calibration/1\", \"gpu\": {\"name\": \"NVIDIA H100 80GB "
         "HBM3\", \"sms\": 132, \"memory_gib\": 79}, \"thresholds\": {\"X\": {\"graded\": "
         "true, \"value\": -1, \"tests\": []}}}", "positive"},
        {"{\"schema\": \"cuda-labs-calibration/1\", \"gpu\": {\"name\": \"NVIDIA H100 80GB "
         "HBM3\", \"sms\": 132, \"memory_gib\": 79}, \"thresholds\": {\"X;Y=9\": {\"graded\": "
         "true, \"value\": 1, \"tests\": []}}}", "not a rubric macro"},
        {"{\"schema\": \"cuda-labs-calibration/1\", \"gpu\": {\"name\": \"NVIDIA H100 80GB "
         "HBM3\", \"sms\": 132, \"memory_gib\": 79}, \"thresholds\": {\"X\": {\"graded\": "
         "false, \"tests\": [\"a\", \"b\", \"c\", \"d\", \"e\"]}}}", "at most"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        char dir[64], path[128], err[400] = "";
        static calibration cal;
        write_file(dir, "bad.json", cases[i].text, path);
        int status = calibration_load(path, "NVIDIA H100 80GB HBM3", 132, 79, &cal, err,
                                      sizeof err);
        remove_file(dir, path);
        if (status != -1 || !strstr(err, cases[i].says))
            fail_msg("case %zu: status %d, error \"%s\" (expected one saying \"%s\")", i, status,
                     err, cases[i].says);
    }
}

static void cpu_file_for_another_gpu_is_refused(void **state)
{
    (void)state;
    char dir[64], path[128], err[400];
    static calibration cal;
    write_file(dir, "cal.json", GOOD, path);
    assert_int_equal(calibration_load(path, "Tesla T4", 40, 15, &cal, err, sizeof err), -1);
    assert_non_null(strstr(err, "made for NVIDIA H100 80GB HBM3 with 132 SMs"));
    /* The same name with fewer SMs (a MIG slice, a green context) is another GPU. */
    assert_int_equal(calibration_load(path, "NVIDIA H100 80GB HBM3", 66, 79, &cal, err,
                                      sizeof err), -1);
    /* GRADER_CALIBRATION naming it on the T4 stops the grader too. */
    setenv("GRADER_CALIBRATION", path, 1);
    assert_int_equal(calibration_choose(T4, &cal, err, sizeof err), -1);
    unsetenv("GRADER_CALIBRATION");
    remove_file(dir, path);
}

static void cpu_file_chosen_by_gpu_and_environment(void **state)
{
    (void)state;
    char dir[64], path[128], err[400], line[400];
    static calibration cal;
    write_file(dir, "nvidia-h100-80gb-hbm3_132sm.json", GOOD, path);
    setenv("GRADER_CALIBRATION_DIR", dir, 1);
    unsetenv("GRADER_CALIBRATION");
    /* This GPU's file: used. */
    assert_int_equal(calibration_choose(H100, &cal, err, sizeof err), 0);
    assert_int_equal(cal.state, CALIBRATION_FILE);
    assert_string_equal(calibration_describe(&cal, line, sizeof line),
                        "nvidia-h100-80gb-hbm3_132sm.json");
    /* No file for this GPU: the defaults, said so. */
    assert_int_equal(calibration_choose(T4, &cal, err, sizeof err), 0);
    assert_int_equal(cal.state, CALIBRATION_DEFAULTS);
    assert_non_null(strstr(calibration_describe(&cal, line, sizeof line), "uncalibrated GPU"));
    assert_non_null(strstr(line, "tesla-t4_40sm_15gib.json"));
    /* GRADER_CALIBRATION=none: the defaults on purpose. */
    setenv("GRADER_CALIBRATION", "none", 1);
    assert_int_equal(calibration_choose(H100, &cal, err, sizeof err), 0);
    assert_int_equal(cal.state, CALIBRATION_DISABLED);
    unsetenv("GRADER_CALIBRATION");
    /* No GPU: nothing to calibrate. */
    assert_int_equal(calibration_choose("no CUDA device (x)", &cal, err, sizeof err), 0);
    assert_int_equal(cal.state, CALIBRATION_NOT_NEEDED);
    /* This GPU's file broken: an error, never the defaults. */
    FILE *f = fopen(path, "w");
    fputs("{\"schema\": ", f);
    fclose(f);
    assert_int_equal(calibration_choose(H100, &cal, err, sizeof err), -1);
    assert_non_null(strstr(err, "not valid JSON"));
    unsetenv("GRADER_CALIBRATION_DIR");
    remove_file(dir, path);
}

static void cpu_test_processes_get_the_graded_values(void **state)
{
    (void)state;
    static calibration cal;
    load_good_file(&cal);
    assert_int_equal(calibration_export(&cal), 0);
    const char *list = getenv("GRADER_CALIBRATED_VALUES");
    assert_string_equal(list, "LAB4_SMEM_SPEEDUP_MIN=1.25");
    assert_true(calibrated_value_in(list, "LAB4_SMEM_SPEEDUP_MIN", 1.5) == 1.25);
    /* Not graded, or not in the file: the header's default. */
    assert_true(calibrated_value_in(list, "LAB4_PADDED_SPEEDUP_MIN", 1.3) == 1.3);
    assert_true(calibrated_value_in(list, "LAB4_SMEM_SPEEDUP", 7.0) == 7.0); /* a prefix */
    /* CALIBRATED() reads the list as the process started (none here): a
     * setenv() made later, as a student's entry point could, changes nothing. */
    assert_true(CALIBRATED(LAB4_SMEM_SPEEDUP_MIN, 1.5) == 1.5);
    cal.state = CALIBRATION_DEFAULTS;
    assert_int_equal(calibration_export(&cal), 0);
    assert_null(getenv("GRADER_CALIBRATED_VALUES"));
}

static void cpu_json_reader_walks_members(void **state)
{
    (void)state;
    static json_doc doc;
    char text[] = "{\"a\": [1, -2.5e1, true, null], \"b\\n\": {\"c\": \"x\\\"y\"}}";
    char err[200];
    assert_int_equal(json_parse(text, strlen(text), &doc, err, sizeof err), 0);
    const json_node *a = json_member(&doc, &doc.nodes[0], "a");
    assert_non_null(a);
    assert_int_equal(a->type, JSON_ARRAY);
    const json_node *e = json_first(&doc, a);
    assert_true(e->number == 1.0);
    e = json_next(&doc, e);
    assert_true(e->number == -25.0);
    assert_int_equal(json_next(&doc, e)->type, JSON_TRUE);
    const json_node *b = json_member(&doc, &doc.nodes[0], "b\n");
    assert_string_equal(json_member(&doc, b, "c")->text, "x\"y");
    assert_null(json_member(&doc, b, "missing"));
    assert_null(json_member(&doc, a, "a")); /* not an object */
}

static const grader_test tests[] = {
    TEST(cpu_file_names_match_calibrate_py),
    TEST(cpu_device_line_gives_the_gpu),
    TEST(cpu_green_context_line_gives_its_sms),
    TEST(cpu_good_file_is_read),
    TEST(cpu_malformed_files_are_refused),
    TEST(cpu_file_for_another_gpu_is_refused),
    TEST(cpu_file_chosen_by_gpu_and_environment),
    TEST(cpu_test_processes_get_the_graded_values),
    TEST(cpu_json_reader_walks_members),
};

int main(int argc, char **argv)
{
    grader_suite suite = {"calibration", "calibration files", "grader/harness/runner/calibration.h",
                          GRADER_IMPLEMENTATION, tests, sizeof tests / sizeof tests[0],
                          .concurrent_streams = 0};
    return grader_main(&suite, argc, argv);
}
