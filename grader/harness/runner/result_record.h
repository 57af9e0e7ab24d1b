/* What a test child tells its parent: kept in memory shared across fork(),
 * so it survives even when the child later crashes or is killed. */
#ifndef RESULT_RECORD_H
#define RESULT_RECORD_H

#include <stdio.h>

enum {
    RECORD_MAX_METRICS = 24,
    RECORD_TEXT_BYTES = 2048,
    RECORD_DEVICE_BYTES = 256
};

typedef struct {
    char name[48];
    char unit[16];
    double value;
} record_metric;

typedef struct {
    int returned;  /* the test function returned (the only way to pass) */
    int hung;      /* the watchdog stopped a call into student code */
    int skipped;
    int skip_reason; /* when skipped: a grader_skip_reason (harness.h); else 0 */
    /* Sharing the GPU (gpu_share.h); times in seconds, "since" 0 when not. */
    int exclusive;                     /* had the GPU to itself, for a while at least */
    int run_alone;                     /* ... from start to end (a second run) */
    double gpu_wait_s, gpu_wait_since; /* waiting for the lock */
    double gpu_alone_s, gpu_alone_since; /* holding it alone */
    /* When it first held the GPU alone (harness_now), 0 if never: "since"
     * goes back to 0 when the test shares the GPU again, and a timeline of
     * a student's graders needs the first moment (the results' alone_from_s). */
    double gpu_alone_first;
    char message[RECORD_TEXT_BYTES]; /* why it failed or was skipped */
    char notes[RECORD_TEXT_BYTES];   /* informational lines */
    int metric_count;
    record_metric metrics[RECORD_MAX_METRICS];
    char device[RECORD_DEVICE_BYTES];
} result_record;

typedef enum {
    OUTCOME_PASS,
    OUTCOME_FAIL,
    OUTCOME_SKIP,
    OUTCOME_CRASH,
    OUTCOME_TIMEOUT
} outcome_status;

const char *outcome_name(outcome_status status); /* "pass", "fail", ... */

/* Writes `text` as a JSON string literal (quotes and escapes included),
 * always valid UTF-8: bytes that are not, as U+FFFD. */
void json_write_string(FILE *out, const char *text);

/* Writes `text` as XML character data or (attribute) the value of an
 * attribute in double quotes, escaped, always valid UTF-8 and valid XML
 * 1.0: bytes that are not UTF-8, and the control characters XML cannot
 * hold even escaped, as U+FFFD. */
void xml_write_text(FILE *out, const char *text, int attribute);

/* How many UTF-8 continuation bytes (at most 3) `text` starts with: what to
 * skip so that text cut at an arbitrary byte starts on a character. */
size_t utf8_continuation_bytes(const char *text);

#endif
