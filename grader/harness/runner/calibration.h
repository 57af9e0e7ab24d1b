/* Which calibration grades this run (docs/design.md, section 3.7).
 *
 * The runner picks grader/calibration/<gpu>.json (make calibrate's) by the
 * GPU's name, SM count and, where the name lacks it, memory size; hands its
 * thresholds to the test processes (GRADER_CALIBRATED_VALUES, read by
 * CALIBRATED()); and itself skips, as not graded, the tests of a ratio the
 * file says this GPU cannot grade. No file: the rubric headers' defaults.
 * A file that is unreadable, malformed or another GPU's stops the grader:
 * the defaults never silently replace it.
 *
 * A threshold whose recorded "default" is no longer the header's (or whose
 * macro is gone) is not used: the header's default grades, and the
 * calibration line names it with both defaults, so a file never silently
 * keeps a threshold the rubric has moved on from.
 *
 * GRADER_CALIBRATION=none: the defaults (make calibrate's own runs);
 * =FILE: that file (still this GPU's); GRADER_CALIBRATION_DIR: the folder. */
#ifndef CALIBRATION_H
#define CALIBRATION_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
    CALIBRATION_MAX_ENTRIES = 64,
    CALIBRATION_MAX_TESTS = 4,
    CALIBRATION_NAME_BYTES = 64,
    CALIBRATION_FILE_BYTES = 64 * 1024,
    CALIBRATION_LINE_BYTES = 512 + CALIBRATION_MAX_ENTRIES * (CALIBRATION_NAME_BYTES + 80)
};

typedef enum {
    CALIBRATION_NOT_NEEDED, /* CPU checks only: no GPU, no thresholds */
    CALIBRATION_DEFAULTS,   /* no file for this GPU: the headers' defaults */
    CALIBRATION_DISABLED,   /* GRADER_CALIBRATION=none: the defaults, on purpose */
    CALIBRATION_FILE        /* a calibration file */
} calibration_state;

/* A calibrated threshold of a rubric header and its default there. */
typedef struct {
    const char *name;
    double value;
} calibration_default;

/* Every CALIBRATED(NAME, default) of the rubric headers, generated from them
 * at build time (grader/cmake/WriteRubricDefaults.cmake). */
extern const calibration_default calibration_rubric_defaults[];
extern const int calibration_rubric_default_count;

typedef enum {
    CALIBRATION_CURRENT,   /* made against the header's default: the file's value grades */
    CALIBRATION_OUTDATED,  /* the header's default changed since: the header's grades */
    CALIBRATION_NO_MACRO   /* no rubric header has this threshold any more: unused */
} calibration_currency;

typedef struct {
    char name[CALIBRATION_NAME_BYTES]; /* the rubric's macro, e.g. LAB4_SMEM_SPEEDUP_MIN */
    int graded;                        /* 0: cannot be graded on this GPU */
    double value;                      /* the threshold, when graded */
    double recorded_default;           /* the header's default when the file was made */
    double header_default;             /* the header's default now (CALIBRATION_OUTDATED) */
    calibration_currency currency;     /* only a CURRENT entry is used */
    int test_count;
    char tests[CALIBRATION_MAX_TESTS][CALIBRATION_NAME_BYTES]; /* skipped when not graded */
} calibration_entry;

typedef struct {
    calibration_state state;
    char file[256]; /* the file's name (CALIBRATION_FILE), or the one looked for */
    int count;
    calibration_entry entries[CALIBRATION_MAX_ENTRIES];
} calibration;

/* A GPU as the device line names it (device_info.h, device_describe):
 * "NAME, sm_XY, N SMs, L MiB L2, M GiB, ...". 0, or -1 when the line is
 * not a device's (no CUDA device, a failed probe). */
int calibration_gpu_from_description(const char *description, char *name, size_t name_size,
                                     int *sms, int *memory_gib);

/* The file name of a GPU's calibration (calibrate.py computes the same):
 * the name in lowercase, each run of other characters one '-', then
 * "_<sms>sm", then "_<gib>gib" where the name states no memory size. */
void calibration_file_name(const char *name, int sms, int memory_gib, char *out,
                           size_t out_size);

/* Marks each entry of `cal` CURRENT, OUTDATED or NO_MACRO against the
 * `count` defaults in `defaults` (calibration_load passes the generated
 * table; the unit test its own). */
void calibration_compare_defaults(calibration *cal, const calibration_default *defaults,
                                  int count);

/* Reads a calibration file and checks that it is this GPU's; its entries
 * compared with the rubric headers' defaults (calibration_compare_defaults).
 * 0, or -1 with the reason in err. */
int calibration_load(const char *path, const char *name, int sms, int memory_gib,
                     calibration *cal, char *err, size_t err_size);

/* The runner's choice for the GPU in `description` (above), from the
 * environment and the folder. 0 (cal filled, state says which), or -1
 * with the reason in err: the grader must stop. */
int calibration_choose(const char *description, calibration *cal, char *err, size_t err_size);

/* For the test processes: GRADER_CALIBRATED_VALUES=NAME=value;... of the
 * graded, current entries (unset when there are none). 0, or -1 when it
 * does not fit. */
int calibration_export(const calibration *cal);

/* The threshold that makes `test` not graded on this GPU (a current entry's),
 * or NULL. */
const char *calibration_not_graded(const calibration *cal, const char *test);

/* One line for the report's header and the results file, e.g.
 * "nvidia-h100-80gb-hbm3_132sm.json" or "none: uncalibrated GPU (...)";
 * where entries are not current, the file's name then "; not used for "
 * and each of them with the default it was made against and the header's
 * (CALIBRATION_LINE_BYTES holds every entry's). */
const char *calibration_describe(const calibration *cal, char *out, size_t out_size);

#ifdef __cplusplus
}
#endif

#endif
