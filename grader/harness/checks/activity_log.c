/* The activity log: building, querying and describing it, and judging a
 * host flow from it. Plain C with no CUPTI, so all of it is unit-tested
 * without a GPU on synthetic logs. */
#define _POSIX_C_SOURCE 200809L /* strnlen */
#include "activity_recorder.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text_append.h"

int activity_log_append(activity_log *log, const activity_event *event)
{
    if (log->count == log->capacity) {
        size_t capacity = log->capacity ? 2 * log->capacity : 64;
        activity_event *grown = realloc(log->events, capacity * sizeof *grown);
        if (grown == NULL) {
            /* Called from CUPTI's thread: no way to fail a test there, so the
             * loss is counted and shows in activity_describe. */
            log->dropped++;
            return -1;
        }
        log->events = grown;
        log->capacity = capacity;
    }
    log->events[log->count++] = *event;
    return 0;
}

static int by_start_time(const void *pa, const void *pb)
{
    const activity_event *a = pa, *b = pb;
    if (a->start_ns != b->start_ns)
        return a->start_ns < b->start_ns ? -1 : 1;
    if (a->end_ns != b->end_ns)
        return a->end_ns < b->end_ns ? -1 : 1;
    return (int)a->kind - (int)b->kind;
}

void activity_log_sort(activity_log *log)
{
    if (log->count > 1)
        qsort(log->events, log->count, sizeof *log->events, by_start_time);
}

void activity_log_free(activity_log *log)
{
    free(log->events);
    memset(log, 0, sizeof *log);
}

static int matches(const activity_event *e, activity_kind kind, activity_copy_kind copy,
                   unsigned long long bytes)
{
    if (e->kind != kind)
        return 0;
    if (kind == ACTIVITY_MEMCPY && copy != COPY_ANY && e->copy != copy)
        return 0;
    return bytes == 0 || e->bytes == bytes;
}

size_t activity_count(const activity_log *log, activity_kind kind, activity_copy_kind copy,
                      unsigned long long bytes)
{
    size_t n = 0;
    for (size_t i = 0; i < log->count; ++i)
        n += matches(&log->events[i], kind, copy, bytes);
    return n;
}

/* ------------------------------------------------------ kernel names */

/* One <length><identifier> of an Itanium-mangled name; NULL if not one. */
static const char *source_name(const char *p, const char **id, size_t *len)
{
    if (!isdigit((unsigned char)*p))
        return NULL;
    char *end = NULL;
    unsigned long n = strtoul(p, &end, 10);
    if (n == 0 || strnlen(end, n) < n)
        return NULL;
    *id = end;
    *len = n;
    return end + n;
}

/* Handles what kernels are usually called: _Z<name><params>, and
 * _ZN<scope>...<name>E<params> for namespaces. Templates, substitutions
 * and the rest are left as they are: a mangled name is still a name. */
void activity_kernel_short_name(const char *mangled, char *out, size_t size)
{
    if (size == 0)
        return;
    snprintf(out, size, "%s", mangled ? mangled : "");
    if (mangled == NULL || strncmp(mangled, "_Z", 2) != 0)
        return;
    const char *p = mangled + 2, *id = NULL;
    size_t len = 0;
    char built[ACTIVITY_NAME_SIZE] = "";
    if (*p == 'L') /* internal linkage (a static function) */
        ++p;
    if (*p != 'N') {
        if (source_name(p, &id, &len) != NULL)
            snprintf(out, size, "%.*s", (int)len, id);
        return;
    }
    for (++p; *p != 'E';) {
        p = source_name(p, &id, &len);
        if (p == NULL)
            return; /* something we do not parse: keep the mangled name */
        if (strncmp(id, "_GLOBAL__N", 10) == 0)
            continue; /* an anonymous namespace: nothing to print */
        size_t used = strlen(built);
        snprintf(built + used, sizeof built - used, "%s%.*s", used ? "::" : "", (int)len, id);
    }
    if (built[0] != '\0')
        snprintf(out, size, "%s", built);
}

/* --------------------------------------------------------- describing */

typedef struct {
    activity_kind kind;
    activity_copy_kind copy;
    const char *one, *many;
} category;

static const category CATEGORIES[] = {
    {ACTIVITY_MEMCPY, COPY_HOST_TO_DEVICE, "H2D copy", "H2D copies"},
    {ACTIVITY_KERNEL, COPY_ANY, "kernel", "kernels"},
    {ACTIVITY_MEMCPY, COPY_DEVICE_TO_HOST, "D2H copy", "D2H copies"},
    {ACTIVITY_MEMCPY, COPY_DEVICE_TO_DEVICE, "D2D copy", "D2D copies"},
    {ACTIVITY_MEMCPY, COPY_OTHER, "other copy", "other copies"},
    {ACTIVITY_MEMSET, COPY_ANY, "memset", "memsets"},
};

enum { LISTED_MAX = 4 }; /* sizes or names listed per category */

/* "2 H2D copies (4096 B, 8192 B)" or "1 kernel (naive_matmul_kernel)". */
static void describe_category(const activity_log *log, const category *c, char *out,
                              size_t size)
{
    size_t n = activity_count(log, c->kind, c->copy, 0), listed = 0;
    if (n == 0)
        return;
    text_append(out, size, "%s%zu %s (", out[0] ? ", " : "", n, n == 1 ? c->one : c->many);
    for (size_t i = 0; i < log->count; ++i) {
        const activity_event *e = &log->events[i];
        if (!matches(e, c->kind, c->copy, 0))
            continue;
        if (c->kind == ACTIVITY_KERNEL) {
            /* Names repeat (a kernel launched in a loop): list each once. */
            int seen = 0;
            for (size_t j = 0; j < i && !seen; ++j)
                seen = matches(&log->events[j], c->kind, c->copy, 0) &&
                       strcmp(log->events[j].name, e->name) == 0;
            if (seen)
                continue;
        }
        if (listed == LISTED_MAX) {
            text_append(out, size, ", ...");
            break;
        }
        if (c->kind == ACTIVITY_KERNEL)
            text_append(out, size, "%s%s", listed ? ", " : "", e->name[0] ? e->name : "?");
        else
            text_append(out, size, "%s%llu B", listed ? ", " : "", e->bytes);
        ++listed;
    }
    text_append(out, size, ")");
}

void activity_describe(const activity_log *log, char *out, size_t size)
{
    if (size == 0)
        return;
    out[0] = '\0';
    for (size_t i = 0; i < sizeof CATEGORIES / sizeof CATEGORIES[0]; ++i)
        describe_category(log, &CATEGORIES[i], out, size);
    int copies = activity_count(log, ACTIVITY_MEMCPY, COPY_ANY, 0) > 0;
    int kernels = activity_count(log, ACTIVITY_KERNEL, COPY_ANY, 0) > 0;
    const char *none = !copies && !kernels ? "no copies and no kernel"
                       : !copies           ? "no copies"
                       : !kernels          ? "no kernel"
                                           : NULL;
    if (none)
        text_append(out, size, "%s%s", out[0] ? ", " : "", none);
    if (log->dropped)
        text_append(out, size, " (%llu records lost)", log->dropped);
}

/* ------------------------------------------------- judging a host flow */

int activity_shows_host_flow(const activity_log *log, const activity_buffer *inputs,
                             size_t input_count, activity_buffer output, char *why,
                             size_t why_size)
{
    unsigned long long last_kernel_end = 0;
    int untimed = 0;
    for (size_t i = 0; i < log->count; ++i) {
        const activity_event *e = &log->events[i];
        if (e->kind != ACTIVITY_KERNEL)
            continue;
        untimed |= e->start_ns == 0 && e->end_ns == 0;
        if (e->end_ns > last_kernel_end)
            last_kernel_end = e->end_ns;
    }
    if (activity_count(log, ACTIVITY_KERNEL, COPY_ANY, 0) == 0) {
        snprintf(why, why_size, "a kernel");
        return 0;
    }
    if (untimed) {
        snprintf(why, why_size, "kernel times (CUPTI could not time a kernel, so the order "
                                "is unknown)");
        return 0;
    }
    for (size_t i = 0; i < input_count; ++i) {
        /* Inputs of equal size need a copy each: the i-th such input needs
         * as many copies of that size as there are such inputs up to it. */
        size_t needed = 1, in_time = 0;
        for (size_t j = 0; j < i; ++j)
            needed += inputs[j].bytes == inputs[i].bytes;
        for (size_t j = 0; j < log->count; ++j) {
            const activity_event *e = &log->events[j];
            in_time += matches(e, ACTIVITY_MEMCPY, COPY_HOST_TO_DEVICE, inputs[i].bytes) &&
                       e->start_ns < last_kernel_end;
        }
        if (in_time >= needed)
            continue;
        size_t any = activity_count(log, ACTIVITY_MEMCPY, COPY_HOST_TO_DEVICE, inputs[i].bytes);
        if (any >= needed)
            snprintf(why, why_size,
                     "a host-to-device copy of %s (%llu B) before the last kernel finished",
                     inputs[i].name, inputs[i].bytes);
        else
            snprintf(why, why_size, "a host-to-device copy of %s (%llu B)%s", inputs[i].name,
                     inputs[i].bytes, needed > 1 ? " of its own" : "");
        return 0;
    }
    size_t out_after = 0;
    for (size_t j = 0; j < log->count; ++j) {
        const activity_event *e = &log->events[j];
        out_after += matches(e, ACTIVITY_MEMCPY, COPY_DEVICE_TO_HOST, output.bytes) &&
                     e->start_ns >= last_kernel_end;
    }
    if (out_after > 0)
        return 1;
    if (activity_count(log, ACTIVITY_MEMCPY, COPY_DEVICE_TO_HOST, output.bytes) > 0)
        snprintf(why, why_size,
                 "a device-to-host copy of %s (%llu B) after the last kernel ended",
                 output.name, output.bytes);
    else
        snprintf(why, why_size, "a device-to-host copy of %s (%llu B)", output.name,
                 output.bytes);
    return 0;
}
