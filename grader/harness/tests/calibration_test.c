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
#include "lab4/lab4_rubric.h"
#include "harness.h"
#include "json_reader.h"
#include "sm_limit.h"

#define TEST(fn) GRADER_TEST(fn, GROUP_CPU, 0)

static const char H100[] =
    "NVIDIA H100 80GB HBM3, sm_90, 132 SMs, 50 MiB L2, 79 GiB, driver 13.0, runtime 13.0";
static const char T4[] = "Tesla T4, sm_75, 40 SMs, 4 MiB L2, 15 GiB, driver 12.4, runtime 13.0";

/* A good file: its "default"s are filled in by good_text(), from the rubric
 * headers' table, so that it stays current as the headers change. */
static const char GOOD_FORMAT[] =
    "{\"schema\": \"cuda-labs-calibration/1\",\n"
    " \"gpu\": {\"name\": \"NVIDIA H100 80GB HBM3\", \"sms\": 132, \"memory_gib\": 79,\n"
    "         \"description\": \"x\"},\n"
    " \"made\": {\"date\": \"2026-11-26\", \"runs\": 20},\n"
    " \"thresholds\": {\n"
    "  \"LAB4_SMEM_SPEEDUP_MIN\": {\"lab\": 4, \"graded\": true, \"value\": 1.25,\n"
    "     \"default\": %.17g,\n"
    "     \"allowed\": [1.16, 1.85], \"reason\": \"lowered \\\"here\\\"\",\n"
    "     \"tests\": [\"gpu_smem_speed_vs_naive\", \"selftest_naive_below_smem_threshold\"]},\n"
    "  \"LAB4_PADDED_SPEEDUP_MIN\": {\"lab\": 4, \"graded\": false, \"value\": null,\n"
    "     \"default\": %.17g,\n"
    "     \"allowed\": null, \"reason\": \"cannot be graded on this GPU\",\n"
    "     \"tests\": [\"gpu_padded_speed_vs_unpadded\",\n"
    "               \"selftest_unpadded_below_padded_threshold\"]}},\n"
    " \"floors\": {}, \"references\": {}}\n";

/* A threshold's default in the generated table (rubric_defaults.c). */
static double header_default(const char *name)
{
    for (int i = 0; i < calibration_rubric_default_count; ++i)
        if (strcmp(calibration_rubric_defaults[i].name, name) == 0)
            return calibration_rubric_defaults[i].value;
    fail_msg("%s is not in the rubric headers' table", name);
    return 0;
}

/* GOOD_FORMAT made against the defaults given (the headers' when 0). */
static const char *good_text(double smem_default, double padded_default)
{
    static char text[2048];
    snprintf(text, sizeof text, GOOD_FORMAT,
             smem_default ? smem_default : header_default("LAB4_SMEM_SPEEDUP_MIN"),
             padded_default ? padded_default : header_default("LAB4_PADDED_SPEEDUP_MIN"));
    return text;
}
#define GOOD good_text(0, 0)

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
        {"{\"schema\": \"cuda-labs-calibration/1\", \"gpu\": {\"name\": \"NVIDIA H100 80GB "
         "HBM3\", \"sms\": 132, \"memory_gib\": 79}, \"thresholds\": {\"X\": {\"graded\": "
         "true, \"value\": 1, \"tests\": []}}}", "\"default\" must be the rubric default"},
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

/* The generated table (rubric_defaults.c) reads the headers as the compiler
 * does: lab 4's threshold, with no calibrated values in this process, is
 * CALIBRATED()'s default. */
static void cpu_table_holds_the_headers_defaults(void **state)
{
    (void)state;
    assert_true(header_default("LAB4_SMEM_SPEEDUP_MIN") == LAB4_SMEM_SPEEDUP_MIN);
    assert_true(header_default("LAB4_PADDED_SPEEDUP_MIN") == LAB4_PADDED_SPEEDUP_MIN);
    for (int i = 0; i < calibration_rubric_default_count; ++i)
        assert_true(calibration_rubric_defaults[i].value > 0);
}

/* Made against the header's default: the file's value grades. */
static void cpu_same_default_uses_the_calibrated_value(void **state)
{
    (void)state;
    static calibration cal;
    char line[CALIBRATION_LINE_BYTES];
    load_good_file(&cal);
    static const calibration_default now[] = {{"LAB4_SMEM_SPEEDUP_MIN", 1.5},
                                              {"LAB4_PADDED_SPEEDUP_MIN", 1.3}};
    cal.entries[0].recorded_default = 1.5;
    cal.entries[1].recorded_default = 1.3;
    calibration_compare_defaults(&cal, now, 2);
    assert_int_equal(cal.entries[0].currency, CALIBRATION_CURRENT);
    assert_int_equal(calibration_export(&cal), 0);
    assert_true(calibrated_value_in(getenv("GRADER_CALIBRATED_VALUES"), "LAB4_SMEM_SPEEDUP_MIN",
                                    1.5) == 1.25);
    assert_string_equal(calibration_not_graded(&cal, "gpu_padded_speed_vs_unpadded"),
                        "LAB4_PADDED_SPEEDUP_MIN");
    assert_string_equal(calibration_describe(&cal, line, sizeof line), "cal.json");
    unsetenv("GRADER_CALIBRATED_VALUES");
}

/* The header's default moved since the file was made: the header's default
 * grades (the value is not exported, the not-graded verdict not applied),
 * and the calibration line names each threshold with both defaults. */
static void cpu_changed_default_uses_the_headers(void **state)
{
    (void)state;
    static calibration cal;
    char dir[64], path[128], err[400], line[CALIBRATION_LINE_BYTES];
    double smem = header_default("LAB4_SMEM_SPEEDUP_MIN");
    /* Through calibration_load and the generated table: only lab 4's smem
     * threshold was made against another default. */
    write_file(dir, "nvidia-h100-80gb-hbm3_132sm.json", good_text(smem + 0.25, 0), path);
    setenv("GRADER_CALIBRATION_DIR", dir, 1);
    unsetenv("GRADER_CALIBRATION");
    assert_int_equal(calibration_choose(H100, &cal, err, sizeof err), 0);
    unsetenv("GRADER_CALIBRATION_DIR");
    remove_file(dir, path);
    assert_int_equal(cal.state, CALIBRATION_FILE);
    assert_int_equal(cal.entries[0].currency, CALIBRATION_OUTDATED);
    assert_int_equal(cal.entries[1].currency, CALIBRATION_CURRENT);
    assert_int_equal(calibration_export(&cal), 0);
    assert_null(getenv("GRADER_CALIBRATED_VALUES")); /* the one graded value is not used */
    assert_true(calibrated_value_in(getenv("GRADER_CALIBRATED_VALUES"), "LAB4_SMEM_SPEEDUP_MIN",
                                    smem) == smem);
    char expected[400];
    snprintf(expected, sizeof expected,
             "nvidia-h100-80gb-hbm3_132sm.json; not used for LAB4_SMEM_SPEEDUP_MIN (calibrated "
             "against the default %g, the header's is now %g, which grades); run make calibrate "
             "again on this GPU",
             smem + 0.25, smem);
    assert_string_equal(calibration_describe(&cal, line, sizeof line), expected);

    /* A not-graded verdict made against an old default is not applied
     * either, and a threshold no header has any more is named too. */
    static const calibration_default now[] = {{"LAB4_SMEM_SPEEDUP_MIN", 1.25},
                                              {"LAB4_PADDED_SPEEDUP_MIN", 1.4}};
    cal.entries[0].recorded_default = 1.25;
    cal.entries[1].recorded_default = 1.3;
    snprintf(cal.entries[0].name, sizeof cal.entries[0].name, "LAB4_RENAMED_MIN");
    calibration_compare_defaults(&cal, now, 2);
    assert_int_equal(cal.entries[0].currency, CALIBRATION_NO_MACRO);
    assert_int_equal(cal.entries[1].currency, CALIBRATION_OUTDATED);
    assert_null(calibration_not_graded(&cal, "gpu_padded_speed_vs_unpadded"));
    assert_int_equal(calibration_export(&cal), 0);
    assert_null(getenv("GRADER_CALIBRATED_VALUES"));
    assert_string_equal(calibration_describe(&cal, line, sizeof line),
                        "nvidia-h100-80gb-hbm3_132sm.json; not used for LAB4_RENAMED_MIN (no "
                        "rubric header has it now), LAB4_PADDED_SPEEDUP_MIN (calibrated against "
                        "the default 1.3, the header's is now 1.4, which grades); run make "
                        "calibrate again on this GPU");
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
    TEST(cpu_table_holds_the_headers_defaults),
    TEST(cpu_same_default_uses_the_calibrated_value),
    TEST(cpu_changed_default_uses_the_headers),
    TEST(cpu_json_reader_walks_members),
};

int main(int argc, char **argv)
{
    grader_suite suite = {"calibration", "calibration files", "grader/harness/runner/calibration.h",
                          GRADER_IMPLEMENTATION, tests, sizeof tests / sizeof tests[0],
                          .concurrent_streams = 0};
    return grader_main(&suite, argc, argv);
}
