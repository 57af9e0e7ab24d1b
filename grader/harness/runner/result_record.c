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

/* Length of the valid UTF-8 sequence at p (1-4), or 0 when the bytes there
 * are not one: a stray continuation byte, a Latin-1 byte, a sequence cut
 * short (as where a long line was cut to fit), an overlong form or a
 * surrogate. RFC 3629's table of well-formed sequences. */
static int utf8_sequence_length(const unsigned char *p)
{
    unsigned char c = p[0];
    if (c < 0x80)
        return 1;
    int n;
    unsigned char lo = 0x80, hi = 0xBF; /* the second byte's range */
    if (c >= 0xC2 && c <= 0xDF) {
        n = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        if (c == 0xE0) lo = 0xA0;
        if (c == 0xED) hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        if (c == 0xF0) lo = 0x90;
        if (c == 0xF4) hi = 0x8F;
    } else {
        return 0;
    }
    if (p[1] < lo || p[1] > hi)
        return 0;
    for (int i = 2; i < n; ++i)
        if (p[i] < 0x80 || p[i] > 0xBF)
            return 0;
    return n;
}

void xml_write_text(FILE *out, const char *text, int attribute)
{
    const unsigned char *p = (const unsigned char *)text;
    for (; *p; ++p) {
        switch (*p) {
        case '&': fputs("&amp;", out); continue;
        case '<': fputs("&lt;", out); continue;
        case '>': fputs("&gt;", out); continue;
        case '"': fputs(attribute ? "&quot;" : "\"", out); continue;
        /* In an attribute a raw line break would be read as a space. */
        case '\n': fputs(attribute ? "&#10;" : "\n", out); continue;
        case '\r': fputs("&#13;", out); continue;
        case '\t': fputs(attribute ? "&#9;" : "\t", out); continue;
        default: break;
        }
        int n = *p < 0x20 ? 0 : utf8_sequence_length(p);
        /* U+FFFE and U+FFFF are not XML characters either. */
        if (n == 3 && p[0] == 0xEF && p[1] == 0xBF && p[2] >= 0xBE)
            n = 0;
        if (n == 0) {
            fputs("\xef\xbf\xbd", out);
        } else {
            fwrite(p, 1, (size_t)n, out);
            p += n - 1;
        }
    }
}

size_t utf8_continuation_bytes(const char *text)
{
    size_t n = 0;
    while (n < 3 && ((unsigned char)text[n] & 0xC0) == 0x80)
        ++n;
    return n;
}

/* The results file must be valid UTF-8 whatever a student printed (a
 * Latin-1 byte from a helper, a Chinese line cut mid-character): a byte
 * that does not start a valid sequence is written as U+FFFD, so one odd
 * byte costs one replacement character and never the lab. */
void json_write_string(FILE *out, const char *text)
{
    fputc('"', out);
    const unsigned char *p = (const unsigned char *)text;
    while (*p) {
        switch (*p) {
        case '"': fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\n': fputs("\\n", out); break;
        case '\r': fputs("\\r", out); break;
        case '\t': fputs("\\t", out); break;
        default:
            if (*p < 0x20) {
                fprintf(out, "\\u%04x", *p);
            } else {
                int n = utf8_sequence_length(p);
                if (n == 0) {
                    fputs("\\ufffd", out);
                } else {
                    fwrite(p, 1, (size_t)n, out);
                    p += n - 1;
                }
            }
        }
        ++p;
    }
    fputc('"', out);
}
