/* The results as JUnit XML (--junit FILE), for CI servers and scripts
 * (GitLab, Jenkins, pytest-style tools).
 *
 * Written by the runner from its own records, not by CMocka: with a process
 * per test CMocka's XML would be one document per test, none for a test
 * killed at its limit, and Debian 12's CMocka does not escape '<' or '&'.
 *
 * Failed: <failure>; crashed or timed out: <error> (type "crash" or
 * "timeout"); skipped: <skipped>; the grader's message and the output as
 * <system-out>. Points and gate are testcase properties, the score the
 * suite's. */
#include <time.h>

#include "harness_internal.h"

static void property(FILE *f, const char *indent, const char *name, const char *value)
{
    fprintf(f, "%s<property name=\"%s\" value=\"", indent, name);
    xml_write_text(f, value, 1);
    fprintf(f, "\"/>\n");
}

static void int_property(FILE *f, const char *indent, const char *name, long long value)
{
    char text[32];
    snprintf(text, sizeof text, "%lld", value);
    property(f, indent, name, text);
}

/* The element a test that did not pass ends with, or NULL for a pass. */
static const char *verdict_element(outcome_status status)
{
    switch (status) {
    case OUTCOME_FAIL: return "failure";
    case OUTCOME_CRASH:
    case OUTCOME_TIMEOUT: return "error";
    case OUTCOME_SKIP: return "skipped";
    case OUTCOME_PASS: break;
    }
    return NULL;
}

static void write_testcase(FILE *f, const char *lab, const test_outcome *out)
{
    static const char *const groups[] = {"cpu", "gpu", "selftest"};
    fprintf(f, "    <testcase classname=\"");
    xml_write_text(f, lab, 1);
    fprintf(f, ".%s\" name=\"", groups[out->test->group]);
    xml_write_text(f, out->test->name, 1);
    fprintf(f, "\" time=\"%.3f\">\n      <properties>\n", out->seconds);
    int_property(f, "        ", "points", out->credited);
    int_property(f, "        ", "max_points", out->test->points);
    property(f, "        ", "bonus", out->test->bonus ? "true" : "false");
    if (out->gated_by)
        property(f, "        ", "gated_by", out->gated_by);
    fprintf(f, "      </properties>\n");
    const char *element = verdict_element(out->status);
    if (element) {
        fprintf(f, "      <%s message=\"", element);
        xml_write_text(f, out->record.message, 1);
        fprintf(f, "\" type=\"%s\">", outcome_name(out->status));
        xml_write_text(f, out->record.message, 0);
        fprintf(f, "</%s>\n", element);
    }
    if (out->output[0]) {
        fprintf(f, "      <system-out>");
        xml_write_text(f, out->output, 0);
        fprintf(f, "</system-out>\n");
    }
    fprintf(f, "    </testcase>\n");
}

static void write_junit(FILE *f, const grader_suite *suite, const char *device,
                        const test_outcome *outs, size_t n, const score_totals *t)
{
    int failures = 0, errors = 0, skipped = 0;
    double seconds = 0.0;
    for (size_t i = 0; i < n; ++i) {
        failures += outs[i].status == OUTCOME_FAIL;
        errors += outs[i].status == OUTCOME_CRASH || outs[i].status == OUTCOME_TIMEOUT;
        skipped += outs[i].status == OUTCOME_SKIP;
        seconds += outs[i].seconds;
    }
    time_t now = time(NULL);
    char stamp[32];
    strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", gmtime(&now));
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(f, "<testsuites tests=\"%zu\" failures=\"%d\" errors=\"%d\" skipped=\"%d\" "
               "time=\"%.3f\">\n",
            n, failures, errors, skipped, seconds);
    fprintf(f, "  <testsuite name=\"");
    xml_write_text(f, suite->lab, 1);
    fprintf(f, "\" tests=\"%zu\" failures=\"%d\" errors=\"%d\" skipped=\"%d\" time=\"%.3f\" "
               "timestamp=\"%s\">\n    <properties>\n",
            n, failures, errors, skipped, seconds, stamp);
    property(f, "      ", "title", suite->title);
    property(f, "      ", "implementation", suite->implementation);
    property(f, "      ", "handout", suite->handout);
    property(f, "      ", "device", device);
    char seed[32];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)grader_seed());
    property(f, "      ", "seed", seed);
    int_property(f, "      ", "points", t->earned);
    int_property(f, "      ", "max_points", t->possible);
    int_property(f, "      ", "bonus_points", t->bonus_earned);
    int_property(f, "      ", "bonus_max_points", t->bonus_possible);
    int_property(f, "      ", "not_graded_points", t->not_graded);
    fprintf(f, "    </properties>\n");
    for (size_t i = 0; i < n; ++i)
        write_testcase(f, suite->lab, &outs[i]);
    fprintf(f, "  </testsuite>\n</testsuites>\n");
}

int report_write_junit(const char *path, const grader_suite *suite, const char *device,
                       const test_outcome *outs, size_t n, const score_totals *totals)
{
    return report_write_file(path, write_junit, suite, device, outs, n, totals);
}
