/* A small JSON reader (json_reader.h): recursive descent over the text,
 * bounded in depth and in nodes. */
#include "json_reader.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    char *text;
    size_t len, pos;
    json_doc *doc;
    char *err;
    size_t err_size;
} parser;

static int fail(parser *p, const char *fmt, ...)
{
    char what[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    snprintf(p->err, p->err_size, "%s at byte %zu", what, p->pos);
    return -1;
}

static void skip_space(parser *p)
{
    while (p->pos < p->len && strchr(" \t\r\n", p->text[p->pos]) && p->text[p->pos])
        ++p->pos;
}

static int new_node(parser *p, json_type type)
{
    if (p->doc->count >= JSON_MAX_NODES)
        return fail(p, "more than %d values", JSON_MAX_NODES);
    int i = p->doc->count++;
    p->doc->nodes[i] = (json_node){type, NULL, NULL, 0.0, -1, -1};
    return i;
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* A string at p->pos (its opening quote), unescaped in place; *out its start. */
static int parse_string(parser *p, const char **out)
{
    size_t write = ++p->pos;
    *out = p->text + write;
    while (p->pos < p->len) {
        char c = p->text[p->pos++];
        if (c == '"') {
            p->text[write] = '\0'; /* the closing quote's place or earlier: in place */
            return 0;
        }
        if ((unsigned char)c < 0x20)
            return fail(p, "a control character inside a string");
        if (c == '\\') {
            if (p->pos >= p->len)
                break;
            char e = p->text[p->pos++];
            const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t";
            const char *at = strchr(from, e);
            if (e && at) {
                c = to[at - from];
            } else if (e == 'u' && p->pos + 4 <= p->len) {
                int v = 0;
                for (int k = 0; k < 4; ++k) {
                    int d = hex_digit(p->text[p->pos + k]);
                    if (d < 0)
                        return fail(p, "a bad \\u escape");
                    v = v * 16 + d;
                }
                if (v == 0 || v > 0x7f)
                    return fail(p, "a \\u escape outside ASCII (not needed here)");
                p->pos += 4;
                c = (char)v;
            } else {
                return fail(p, "a bad escape");
            }
        }
        p->text[write++] = c;
    }
    return fail(p, "a string without its closing quote");
}

static int parse_value(parser *p, int depth);

/* The elements of an array or the members of an object, after its bracket. */
static int parse_children(parser *p, int parent, int depth, char close)
{
    int last = -1;
    skip_space(p);
    if (p->pos < p->len && p->text[p->pos] == close) {
        ++p->pos;
        return 0;
    }
    for (;;) {
        const char *key = NULL;
        skip_space(p);
        if (close == '}') {
            if (p->pos >= p->len || p->text[p->pos] != '"')
                return fail(p, "a member name expected");
            if (parse_string(p, &key) < 0)
                return -1;
            skip_space(p);
            if (p->pos >= p->len || p->text[p->pos] != ':')
                return fail(p, "':' expected");
            ++p->pos;
        }
        int child = parse_value(p, depth + 1);
        if (child < 0)
            return -1;
        p->doc->nodes[child].key = key;
        if (last < 0)
            p->doc->nodes[parent].first_child = child;
        else
            p->doc->nodes[last].next = child;
        last = child;
        skip_space(p);
        if (p->pos < p->len && p->text[p->pos] == ',') {
            ++p->pos;
            continue;
        }
        if (p->pos < p->len && p->text[p->pos] == close) {
            ++p->pos;
            return 0;
        }
        return fail(p, "',' or '%c' expected", close);
    }
}

static int parse_literal(parser *p, const char *word, json_type type)
{
    size_t n = strlen(word);
    if (p->len - p->pos < n || memcmp(p->text + p->pos, word, n) != 0)
        return fail(p, "an unknown value");
    p->pos += n;
    return new_node(p, type);
}

static int parse_number(parser *p)
{
    /* strtod reads more than JSON allows (hex, inf, nan): check the shape. */
    size_t start = p->pos;
    while (p->pos < p->len && p->text[p->pos] && strchr("+-0123456789.eE", p->text[p->pos]))
        ++p->pos;
    if (p->pos == start || p->pos - start > 40)
        return fail(p, "a bad number");
    char copy[48];
    memcpy(copy, p->text + start, p->pos - start);
    copy[p->pos - start] = '\0';
    char *end;
    errno = 0;
    double v = strtod(copy, &end);
    if (*end || errno == ERANGE || !isfinite(v))
        return fail(p, "a bad number");
    int i = new_node(p, JSON_NUMBER);
    if (i >= 0)
        p->doc->nodes[i].number = v;
    return i;
}

static int parse_value(parser *p, int depth)
{
    if (depth > JSON_MAX_DEPTH)
        return fail(p, "nested deeper than %d", JSON_MAX_DEPTH);
    skip_space(p);
    if (p->pos >= p->len)
        return fail(p, "a value expected");
    char c = p->text[p->pos];
    if (c == '{' || c == '[') {
        int i = new_node(p, c == '{' ? JSON_OBJECT : JSON_ARRAY);
        ++p->pos;
        if (i < 0 || parse_children(p, i, depth, c == '{' ? '}' : ']') < 0)
            return -1;
        return i;
    }
    if (c == '"') {
        int i = new_node(p, JSON_STRING);
        if (i < 0 || parse_string(p, &p->doc->nodes[i].text) < 0)
            return -1;
        return i;
    }
    if (c == 't')
        return parse_literal(p, "true", JSON_TRUE);
    if (c == 'f')
        return parse_literal(p, "false", JSON_FALSE);
    if (c == 'n')
        return parse_literal(p, "null", JSON_NULL);
    return parse_number(p);
}

int json_parse(char *text, size_t len, json_doc *doc, char *err, size_t err_size)
{
    parser p = {text, len, 0, doc, err, err_size};
    doc->count = 0;
    if (memchr(text, '\0', len))
        return fail(&p, "a NUL byte in the file");
    if (parse_value(&p, 0) < 0)
        return -1;
    skip_space(&p);
    if (p.pos != len)
        return fail(&p, "text after the value");
    return 0;
}

const json_node *json_first(const json_doc *doc, const json_node *node)
{
    return node && node->first_child >= 0 ? &doc->nodes[node->first_child] : NULL;
}

const json_node *json_next(const json_doc *doc, const json_node *node)
{
    return node && node->next >= 0 ? &doc->nodes[node->next] : NULL;
}

const json_node *json_member(const json_doc *doc, const json_node *obj, const char *key)
{
    if (!obj || obj->type != JSON_OBJECT)
        return NULL;
    for (const json_node *m = json_first(doc, obj); m; m = json_next(doc, m))
        if (strcmp(m->key, key) == 0)
            return m;
    return NULL;
}
