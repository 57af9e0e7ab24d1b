/* A rubric threshold as this GPU's calibration sets it.
 *
 * A rubric header writes each graded threshold as
 *     #define LAB4_SMEM_SPEEDUP_MIN CALIBRATED(LAB4_SMEM_SPEEDUP_MIN, 1.5)
 * so the speed checks read it like any number while its value comes, at run
 * time, from the calibration file of the GPU (grader/harness/runner/calibration.h):
 * the runner puts the file's values in GRADER_CALIBRATED_VALUES
 * ("NAME=value;NAME=value") for its test processes, only those the file made
 * against the default written here (calibration.h). A name not listed there,
 * or no variable (no file for this GPU, or a program that is not a grader:
 * make time, make bench), gives the header's default. A listed value that is
 * not a positive number ends the program: a grader must not quietly grade
 * with another threshold than the one the runner reports.
 *
 * Header-only (static inline) so that every program including a rubric
 * header gets it without linking the harness. */
#ifndef CALIBRATED_H
#define CALIBRATED_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CALIBRATED(name, default_value) \
    calibrated_value_in(calibrated_values_at_start, #name, (default_value))

/* NAME's value in a "NAME=value;NAME=value" list, or the default when the
 * list (possibly NULL) does not name it. */
static inline double calibrated_value_in(const char *list, const char *name,
                                         double default_value)
{
    size_t len = strlen(name);
    for (const char *at = list; at && *at; at = strchr(at, ';') ? strchr(at, ';') + 1 : NULL) {
        if (strncmp(at, name, len) != 0 || at[len] != '=')
            continue;
        char *end;
        double v = strtod(at + len + 1, &end);
        if ((*end != ';' && *end != '\0') || !(v > 0) || !isfinite(v)) {
            fprintf(stderr, "grader: GRADER_CALIBRATED_VALUES gives %s no usable value\n", name);
            exit(2);
        }
        return v;
    }
    return default_value;
}

/* The list as the runner handed it over, copied before any code of the
 * student's runs: the test program is linked with the student's library,
 * whose own constructors (default priority) run after this one, so a
 * setenv() there or in an entry point cannot lower a threshold. (A
 * constructor of the student's at this same priority could still: the
 * review list flags every constructor, and design.md 3.3 says why code in
 * the test program's process can always forge its own verdicts.) One copy
 * per file that includes this header. */
static const char *calibrated_values_at_start;

__attribute__((constructor(101))) static void calibrated_values_snapshot(void)
{
    const char *list = getenv("GRADER_CALIBRATED_VALUES");
    char *copy = list ? (char *)malloc(strlen(list) + 1) : NULL;
    if (copy)
        memcpy(copy, list, strlen(list) + 1);
    calibrated_values_at_start = copy;
}

#endif
