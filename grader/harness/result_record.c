#include "result_record.h"

const char *outcome_name(outcome_status status)
{
    switch (status) {
    case OUTCOME_PASS: return "pass";
    case OUTCOME_FAIL: return "fail";
    case OUTCOME_SKIP: return "skip";
    case OUTCOME_CRASH: return "crash";
    case OUTCOME_TIMEOUT: return "timeout";
    }
    return "unknown";
}

void json_write_string(FILE *out, const char *text)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)text; *p; ++p) {
        switch (*p) {
        case '"': fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\n': fputs("\\n", out); break;
        case '\r': fputs("\\r", out); break;
        case '\t': fputs("\\t", out); break;
        default:
            if (*p < 0x20)
                fprintf(out, "\\u%04x", *p);
            else
                fputc(*p, out);
        }
    }
    fputc('"', out);
}
