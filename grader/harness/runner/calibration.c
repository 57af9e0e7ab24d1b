/* Which calibration grades this run (calibration.h). */
#include "calibration.h"

#include "json_reader.h"
#include "text_append.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifndef CUDA_LABS_CALIBRATION_DIR
#define CUDA_LABS_CALIBRATION_DIR "grader/calibration"
#endif

/* A student copy (make dist-student) links this file as built on the
 * instructor's machine, whose CUDA_LABS_CALIBRATION_DIR it must not use:
 * its build defines grader_calibration_dir, the copy's own folder
 * (grader/cmake/PrebuiltGraders.cmake). Weak: the course's programs leave
 * it undefined and use the folder compiled in. */
extern const char grader_calibration_dir[] __attribute__((weak));

static const char SCHEMA[] = "cuda-labs-calibration/1";

int calibration_gpu_from_description(const char *description, char *name, size_t name_size,
                                     int *sms, int *memory_gib)
{
    /* The name ends at the first ", sm_": names have no such part. */
    const char *end = description ? strstr(description, ", sm_") : NULL;
    if (!end || end == description || (size_t)(end - description) >= name_size)
        return -1;
    int major_minor = 0, l2 = 0;
    if (sscanf(end, ", sm_%d, %d SMs, %d MiB L2, %d GiB", &major_minor, sms, &l2,
               memory_gib) != 4 || *sms <= 0 || *memory_gib < 0)
        return -1;
    memcpy(name, description, (size_t)(end - description));
    name[end - description] = '\0';
    return 0;
}

/* Whether a lowercase name states a memory size: digits then "gb". */
static int names_memory(const char *lower)
{
    for (const char *s = lower; (s = strstr(s, "gb")) != NULL; ++s) {
        const char *d = s;
        while (d > lower && d[-1] == ' ')
            --d;
        if (d > lower && isdigit((unsigned char)d[-1]))
            return 1;
    }
    return 0;
}

void calibration_file_name(const char *name, int sms, int memory_gib, char *out,
                           size_t out_size)
{
    char slug[81], lower[256];
    size_t n = 0, k = 0;
    for (const char *s = name; *s && k + 1 < sizeof lower; ++s)
        lower[k++] = (char)tolower((unsigned char)*s);
    lower[k] = '\0';
    int dash = 0;
    for (const char *s = lower; *s && n < sizeof slug - 1; ++s) {
        if (isalnum((unsigned char)*s) && !((unsigned char)*s & 0x80)) {
            if (dash && n > 0)
                slug[n++] = '-';
            if (n < sizeof slug - 1)
                slug[n++] = *s;
            dash = 0;
        } else {
            dash = 1;
        }
    }
    slug[n] = '\0';
    if (n == 0)
        snprintf(slug, sizeof slug, "gpu");
    if (names_memory(lower))
        snprintf(out, out_size, "%s_%dsm.json", slug, sms);
    else
        snprintf(out, out_size, "%s_%dsm_%dgib.json", slug, sms, memory_gib);
}

/* A macro or test name: letters, digits, '_', at most NAME_BYTES - 1. */
static int is_plain_name(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n >= CALIBRATION_NAME_BYTES)
        return 0;
    for (; *s; ++s)
        if (!isalnum((unsigned char)*s) && *s != '_')
            return 0;
    return 1;
}

static int read_entry(const json_doc *doc, const json_node *e, calibration_entry *out,
                      char *err, size_t err_size)
{
    if (!is_plain_name(e->key)) {
        snprintf(err, err_size, "the threshold name \"%.40s\" is not a rubric macro", e->key);
        return -1;
    }
    snprintf(out->name, sizeof out->name, "%s", e->key);
    const json_node *graded = json_member(doc, e, "graded");
    const json_node *value = json_member(doc, e, "value");
    const json_node *tests = json_member(doc, e, "tests");
    if (!graded || (graded->type != JSON_TRUE && graded->type != JSON_FALSE)) {
        snprintf(err, err_size, "%s: \"graded\" must be true or false", out->name);
        return -1;
    }
    out->graded = graded->type == JSON_TRUE;
    if (out->graded) {
        /* Every ratio here is positive and far from huge. */
        if (!value || value->type != JSON_NUMBER || !(value->number > 0) ||
            value->number > 1e6) {
            snprintf(err, err_size, "%s: a graded threshold needs a positive \"value\"",
                     out->name);
            return -1;
        }
        out->value = value->number;
    }
    if (!tests || tests->type != JSON_ARRAY) {
        snprintf(err, err_size, "%s: \"tests\" must be a list of test names", out->name);
        return -1;
    }
    out->test_count = 0;
    for (const json_node *t = json_first(doc, tests); t; t = json_next(doc, t)) {
        if (t->type != JSON_STRING || !is_plain_name(t->text) ||
            out->test_count == CALIBRATION_MAX_TESTS) {
            snprintf(err, err_size, "%s: \"tests\" must be at most %d test names", out->name,
                     CALIBRATION_MAX_TESTS);
            return -1;
        }
        snprintf(out->tests[out->test_count++], CALIBRATION_NAME_BYTES, "%s", t->text);
    }
    /* What calibration_compare_defaults checks the header against. */
    const json_node *recorded = json_member(doc, e, "default");
    if (!recorded || recorded->type != JSON_NUMBER) {
        snprintf(err, err_size, "%s: \"default\" must be the rubric default it was "
                                "calibrated against", out->name);
        return -1;
    }
    out->recorded_default = recorded->number;
    return 0;
}

/* The file's text, NUL-terminated, or NULL with the reason. */
static char *read_text(const char *path, size_t *len, char *err, size_t err_size)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, err_size, "cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    char *text = malloc(CALIBRATION_FILE_BYTES + 1);
    size_t n = text ? fread(text, 1, CALIBRATION_FILE_BYTES + 1, f) : 0;
    int bad = !text || ferror(f);
    fclose(f);
    if (bad || n > CALIBRATION_FILE_BYTES) {
        snprintf(err, err_size, "%s: %s", path,
                 bad ? "cannot be read" : "larger than a calibration file can be (64 KiB)");
        free(text);
        return NULL;
    }
    text[n] = '\0';
    *len = n;
    return text;
}

static int check_gpu(const json_doc *doc, const json_node *root, const char *path,
                     const char *name, int sms, int memory_gib, char *err, size_t err_size)
{
    const json_node *gpu = json_member(doc, root, "gpu");
    const json_node *g_name = json_member(doc, gpu, "name");
    const json_node *g_sms = json_member(doc, gpu, "sms");
    const json_node *g_mem = json_member(doc, gpu, "memory_gib");
    if (!g_name || g_name->type != JSON_STRING || !g_sms || g_sms->type != JSON_NUMBER ||
        !g_mem || g_mem->type != JSON_NUMBER) {
        snprintf(err, err_size, "%s: \"gpu\" must give name, sms and memory_gib", path);
        return -1;
    }
    char wanted[256], in_file[256];
    calibration_file_name(name, sms, memory_gib, wanted, sizeof wanted);
    calibration_file_name(g_name->text, (int)g_sms->number, (int)g_mem->number, in_file,
                          sizeof in_file);
    if (strcmp(g_name->text, name) != 0 || (int)g_sms->number != sms ||
        strcmp(wanted, in_file) != 0) {
        snprintf(err, err_size,
                 "%s was made for %.80s with %d SMs, not for this %.80s with %d SMs: run make "
                 "calibrate on this GPU",
                 path, g_name->text, (int)g_sms->number, name, sms);
        return -1;
    }
    return 0;
}

/* Equal as the file wrote it: calibrate.py writes the header's number back
 * (Python's shortest round-trip form), so only a real change differs. */
static int same_default(double a, double b)
{
    return fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b));
}

void calibration_compare_defaults(calibration *cal, const calibration_default *defaults,
                                  int count)
{
    for (int i = 0; i < cal->count; ++i) {
        calibration_entry *e = &cal->entries[i];
        e->currency = CALIBRATION_NO_MACRO;
        for (int k = 0; k < count; ++k) {
            if (strcmp(defaults[k].name, e->name) != 0)
                continue;
            e->header_default = defaults[k].value;
            e->currency = same_default(e->recorded_default, defaults[k].value)
                              ? CALIBRATION_CURRENT : CALIBRATION_OUTDATED;
            break;
        }
    }
}

int calibration_load(const char *path, const char *name, int sms, int memory_gib,
                     calibration *cal, char *err, size_t err_size)
{
    size_t len = 0;
    char *text = read_text(path, &len, err, err_size);
    if (!text)
        return -1;
    json_doc *doc = malloc(sizeof *doc);
    int status = -1;
    char why[200];
    if (!doc) {
        snprintf(err, err_size, "%s: out of memory", path);
    } else if (json_parse(text, len, doc, why, sizeof why) != 0) {
        snprintf(err, err_size, "%s is not valid JSON: %s", path, why);
    } else {
        const json_node *root = &doc->nodes[0];
        const json_node *schema = json_member(doc, root, "schema");
        const json_node *entries = json_member(doc, root, "thresholds");
        if (!schema || schema->type != JSON_STRING || strcmp(schema->text, SCHEMA) != 0) {
            snprintf(err, err_size, "%s: not a calibration file (schema %s expected)", path,
                     SCHEMA);
        } else if (check_gpu(doc, root, path, name, sms, memory_gib, err, err_size) == 0) {
            if (!entries || entries->type != JSON_OBJECT) {
                snprintf(err, err_size, "%s: \"thresholds\" must be an object", path);
            } else {
                status = 0;
                cal->count = 0;
                for (const json_node *e = json_first(doc, entries); e && status == 0;
                     e = json_next(doc, e)) {
                    if (cal->count == CALIBRATION_MAX_ENTRIES) {
                        snprintf(err, err_size, "%s: more than %d thresholds", path,
                                 CALIBRATION_MAX_ENTRIES);
                        status = -1;
                    } else if (read_entry(doc, e, &cal->entries[cal->count], why,
                                          sizeof why) != 0) {
                        snprintf(err, err_size, "%s: %s", path, why);
                        status = -1;
                    } else {
                        ++cal->count;
                    }
                }
            }
        }
    }
    if (status == 0) {
        calibration_compare_defaults(cal, calibration_rubric_defaults,
                                     calibration_rubric_default_count);
        const char *base = strrchr(path, '/');
        snprintf(cal->file, sizeof cal->file, "%s", base ? base + 1 : path);
        cal->state = CALIBRATION_FILE;
    }
    free(doc);
    free(text);
    return status;
}

int calibration_choose(const char *description, calibration *cal, char *err, size_t err_size)
{
    memset(cal, 0, sizeof *cal);
    char name[256];
    int sms = 0, memory_gib = 0;
    if (calibration_gpu_from_description(description, name, sizeof name, &sms,
                                         &memory_gib) != 0) {
        cal->state = CALIBRATION_NOT_NEEDED; /* no GPU: no speed test can run */
        return 0;
    }
    const char *chosen = getenv("GRADER_CALIBRATION");
    if (chosen && strcmp(chosen, "none") == 0) {
        cal->state = CALIBRATION_DISABLED;
        return 0;
    }
    if (chosen && *chosen)
        return calibration_load(chosen, name, sms, memory_gib, cal, err, err_size);
    const char *dir = getenv("GRADER_CALIBRATION_DIR");
    char file[160], path[4096 + 160];
    calibration_file_name(name, sms, memory_gib, file, sizeof file);
    if (!dir || !*dir)
        dir = grader_calibration_dir ? grader_calibration_dir : CUDA_LABS_CALIBRATION_DIR;
    snprintf(path, sizeof path, "%s/%s", dir, file);
    struct stat st;
    if (stat(path, &st) != 0 && errno == ENOENT) {
        cal->state = CALIBRATION_DEFAULTS;
        snprintf(cal->file, sizeof cal->file, "%s", file);
        return 0;
    }
    return calibration_load(path, name, sms, memory_gib, cal, err, err_size);
}

int calibration_export(const calibration *cal)
{
    char values[CALIBRATION_MAX_ENTRIES * (CALIBRATION_NAME_BYTES + 32)];
    size_t used = 0;
    values[0] = '\0';
    for (int i = 0; cal->state == CALIBRATION_FILE && i < cal->count; ++i) {
        const calibration_entry *e = &cal->entries[i];
        if (!e->graded || e->currency != CALIBRATION_CURRENT)
            continue;
        int n = snprintf(values + used, sizeof values - used, "%s%s=%.17g", used ? ";" : "",
                         e->name, e->value);
        if (n < 0 || (size_t)n >= sizeof values - used)
            return -1;
        used += (size_t)n;
    }
    if (used == 0)
        return unsetenv("GRADER_CALIBRATED_VALUES");
    return setenv("GRADER_CALIBRATED_VALUES", values, 1);
}

const char *calibration_not_graded(const calibration *cal, const char *test)
{
    for (int i = 0; cal->state == CALIBRATION_FILE && i < cal->count; ++i)
        for (int k = 0; !cal->entries[i].graded &&
                        cal->entries[i].currency == CALIBRATION_CURRENT &&
                        k < cal->entries[i].test_count; ++k)
            if (strcmp(cal->entries[i].tests[k], test) == 0)
                return cal->entries[i].name;
    return NULL;
}

/* The file's name, then each entry it does not grade and why, in one line. */
static void describe_file(const calibration *cal, char *out, size_t out_size)
{
    snprintf(out, out_size, "%s", cal->file);
    int listed = 0;
    for (int i = 0; i < cal->count; ++i) {
        const calibration_entry *e = &cal->entries[i];
        if (e->currency == CALIBRATION_CURRENT)
            continue;
        text_append(out, out_size, "%s%s", listed++ ? ", " : "; not used for ", e->name);
        if (e->currency == CALIBRATION_OUTDATED)
            text_append(out, out_size, " (calibrated against the default %g, the header's is "
                        "now %g, which grades)", e->recorded_default, e->header_default);
        else
            text_append(out, out_size, " (no rubric header has it now)");
    }
    if (listed)
        text_append(out, out_size, "; run make calibrate again on this GPU");
}

const char *calibration_describe(const calibration *cal, char *out, size_t out_size)
{
    switch (cal->state) {
    case CALIBRATION_FILE:
        describe_file(cal, out, out_size);
        break;
    case CALIBRATION_DEFAULTS:
        snprintf(out, out_size, "none: uncalibrated GPU (the rubric's H100/H200 defaults; "
                                "make calibrate writes grader/calibration/%s)", cal->file);
        break;
    case CALIBRATION_DISABLED:
        snprintf(out, out_size, "none: the rubric's defaults (GRADER_CALIBRATION=none)");
        break;
    default:
        snprintf(out, out_size, "not needed (no GPU in use)");
    }
    return out;
}
