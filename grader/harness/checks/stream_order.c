/* The stream-order model (stream_order.h): calls noted in issue order,
 * then, at judgement, one node per call with the nodes it must run after,
 * and two sweeps: forward from the start record, backward from the stop's. */
#include "stream_order.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum { STEP_WORK, STEP_RECORD, STEP_WAIT, STEP_SYNC_STREAM, STEP_SYNC_EVENT,
               STEP_SYNC_DEVICE } step_kind;

typedef struct {
    step_kind kind;
    const void *stream; /* normalised: never NULL */
    const void *event;
} step;

static step steps[STREAM_ORDER_MAX_STEPS];
static size_t step_count, work_count;
static char gave_up[160];

static const void *normalised(const void *stream, int per_thread)
{
    if (stream == NULL)
        return per_thread ? STREAM_ORDER_PER_THREAD : STREAM_ORDER_LEGACY;
    return stream;
}

static void note(step_kind kind, const void *stream, const void *event)
{
    if (step_count == STREAM_ORDER_MAX_STEPS) {
        if (!gave_up[0])
            snprintf(gave_up, sizeof gave_up, "the call made more than %d stream calls",
                     STREAM_ORDER_MAX_STEPS);
        return;
    }
    steps[step_count++] = (step){kind, stream, event};
    if (kind == STEP_WORK)
        ++work_count;
}

void stream_order_reset(void)
{
    step_count = work_count = 0;
    gave_up[0] = '\0';
}

void stream_order_work(const void *stream, int per_thread)
{
    note(STEP_WORK, normalised(stream, per_thread), NULL);
}

void stream_order_record(const void *event, const void *stream, int per_thread)
{
    note(STEP_RECORD, normalised(stream, per_thread), event);
}

void stream_order_wait(const void *stream, const void *event, int per_thread)
{
    note(STEP_WAIT, normalised(stream, per_thread), event);
}

void stream_order_sync_stream(const void *stream, int per_thread)
{
    note(STEP_SYNC_STREAM, normalised(stream, per_thread), NULL);
}

void stream_order_sync_event(const void *event)
{
    note(STEP_SYNC_EVENT, NULL, event);
}

void stream_order_sync_device(void)
{
    note(STEP_SYNC_DEVICE, NULL, NULL);
}

void stream_order_unknown(const char *api)
{
    if (!gave_up[0])
        snprintf(gave_up, sizeof gave_up, "the call used %s, whose effect on the order of the "
                 "streams' work is not modelled", api ? api : "an API");
}

size_t stream_order_work_count(void)
{
    return work_count;
}

/* ------------------------------------------------------------ judgement */

typedef struct {
    const void *handle;
    int last;     /* latest node in the stream, -1 none */
    int blocking; /* waits for the legacy stream and it for it */
} stream_state;

typedef struct {
    const void *handle;
    int record; /* node of the latest record, -1 none */
} event_state;

typedef struct {
    int *pred;          /* all nodes' predecessors, node after node */
    size_t *first;      /* node i's are pred[first[i] .. first[i + 1]) */
    size_t count, capacity;
    stream_state *streams;
    size_t stream_count;
    event_state *events;
    size_t event_count;
    int barrier;        /* latest host synchronisation, -1 none */
    int failed;         /* out of memory */
} graph;

static void add_pred(graph *g, int node)
{
    if (node < 0 || g->failed)
        return;
    if (g->count == g->capacity) {
        size_t capacity = g->capacity ? 2 * g->capacity : 256;
        int *grown = realloc(g->pred, capacity * sizeof *grown);
        if (!grown) {
            g->failed = 1;
            return;
        }
        g->pred = grown;
        g->capacity = capacity;
    }
    g->pred[g->count++] = node;
}

static stream_state *stream_of(graph *g, const void *handle, stream_order_blocking_fn blocking)
{
    for (size_t i = 0; i < g->stream_count; ++i)
        if (g->streams[i].handle == handle)
            return &g->streams[i];
    stream_state *s = &g->streams[g->stream_count++];
    s->handle = handle;
    s->last = -1;
    /* The legacy stream's own rule is applied from its side (enqueue). */
    s->blocking = handle == STREAM_ORDER_LEGACY || handle == STREAM_ORDER_PER_THREAD
                      ? 1
                      : (blocking ? blocking(handle) != 0 : 1);
    return s;
}

static event_state *event_of(graph *g, const void *handle)
{
    for (size_t i = 0; i < g->event_count; ++i)
        if (g->events[i].handle == handle)
            return &g->events[i];
    event_state *e = &g->events[g->event_count++];
    e->handle = handle;
    e->record = -1;
    return e;
}

/* Something put in stream s: after s's last, the host's last barrier, and
 * the legacy stream's implicit synchronisation either way. */
static void enqueue(graph *g, stream_state *s)
{
    add_pred(g, s->last);
    add_pred(g, g->barrier);
    int legacy = s->handle == STREAM_ORDER_LEGACY;
    for (size_t i = 0; i < g->stream_count; ++i) {
        stream_state *o = &g->streams[i];
        if (o == s || !o->blocking || !s->blocking)
            continue;
        if (legacy || o->handle == STREAM_ORDER_LEGACY)
            add_pred(g, o->last);
    }
}

static void build(graph *g, stream_order_blocking_fn blocking)
{
    for (size_t i = 0; i < step_count && !g->failed; ++i) {
        const step *st = &steps[i];
        g->first[i] = g->count;
        int node = (int)i;
        switch (st->kind) {
        case STEP_WORK:
        case STEP_RECORD:
        case STEP_WAIT: {
            stream_state *s = stream_of(g, st->stream, blocking);
            enqueue(g, s);
            if (st->kind == STEP_WAIT)
                add_pred(g, event_of(g, st->event)->record);
            if (st->kind == STEP_RECORD)
                event_of(g, st->event)->record = node;
            s->last = node;
            break;
        }
        case STEP_SYNC_STREAM: {
            stream_state *s = stream_of(g, st->stream, blocking);
            add_pred(g, s->last);
            add_pred(g, g->barrier);
            /* The legacy stream's work waited for every blocking stream's
             * before it; syncing it is taken to wait for all of those. */
            if (s->handle == STREAM_ORDER_LEGACY)
                for (size_t k = 0; k < g->stream_count; ++k)
                    if (g->streams[k].blocking)
                        add_pred(g, g->streams[k].last);
            g->barrier = node;
            break;
        }
        case STEP_SYNC_EVENT:
            add_pred(g, event_of(g, st->event)->record);
            add_pred(g, g->barrier);
            g->barrier = node;
            break;
        case STEP_SYNC_DEVICE:
            for (size_t k = 0; k < g->stream_count; ++k)
                add_pred(g, g->streams[k].last);
            add_pred(g, g->barrier);
            g->barrier = node;
            break;
        }
    }
    g->first[step_count] = g->count;
}

static const char *ordinal_suffix(size_t n)
{
    if (n % 100 >= 11 && n % 100 <= 13)
        return "th";
    return n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th";
}

/* "the legacy default stream", or "its 3rd stream" in order of first use. */
static void name_stream(const graph *g, const void *handle, char *out, size_t size)
{
    if (handle == STREAM_ORDER_LEGACY || handle == STREAM_ORDER_PER_THREAD) {
        snprintf(out, size, "the %s default stream",
                 handle == STREAM_ORDER_LEGACY ? "legacy" : "per-thread");
        return;
    }
    size_t n = 0;
    for (size_t i = 0; i < g->stream_count; ++i) {
        const void *h = g->streams[i].handle;
        if (h != STREAM_ORDER_LEGACY && h != STREAM_ORDER_PER_THREAD)
            ++n;
        if (h == handle)
            break;
    }
    snprintf(out, size, "its %zu%s stream", n, ordinal_suffix(n));
}

static int judge(graph *g, const void *start, const void *stop, char *why, size_t size)
{
    int s = event_of(g, start)->record, e = event_of(g, stop)->record;
    if (s < 0 || e < 0) {
        snprintf(why, size, "the %s event was not recorded during the call",
                 s < 0 ? "start" : "stop");
        return -1;
    }
    unsigned char *after = calloc(step_count, 1), *before = calloc(step_count, 1);
    if (!after || !before) {
        free(after);
        free(before);
        snprintf(why, size, "out of memory");
        return -1;
    }
    after[s] = 1;
    for (size_t i = (size_t)s + 1; i < step_count; ++i)
        for (size_t k = g->first[i]; k < g->first[i + 1] && !after[i]; ++k)
            after[i] = after[g->pred[k]];
    before[e] = 1;
    for (size_t i = (size_t)e + 1; i-- > 0;)
        if (before[i])
            for (size_t k = g->first[i]; k < g->first[i + 1]; ++k)
                before[g->pred[k]] = 1;
    int verdict = 1;
    size_t nth = 0;
    for (size_t i = 0; i < step_count && verdict == 1; ++i) {
        if (steps[i].kind != STEP_WORK)
            continue;
        ++nth;
        if (after[i] && before[i])
            continue;
        char stream[64];
        name_stream(g, steps[i].stream, stream, sizeof stream);
        snprintf(why, size, "the %zu%s copy or kernel of the call (in %s) is not certain to run "
                 "%s", nth, ordinal_suffix(nth), stream,
                 !after[i] ? "after the start event's record" : "before the stop event's record");
        verdict = 0;
    }
    free(after);
    free(before);
    return verdict;
}

int stream_order_brackets(const void *start, const void *stop, stream_order_blocking_fn blocking,
                          char *why, size_t size)
{
    if (gave_up[0]) {
        snprintf(why, size, "%s", gave_up);
        return -1;
    }
    graph g;
    memset(&g, 0, sizeof g);
    g.barrier = -1;
    g.first = malloc((step_count + 1) * sizeof *g.first);
    g.streams = malloc((step_count + 1) * sizeof *g.streams);
    g.events = malloc((step_count + 2) * sizeof *g.events);
    int verdict = -1;
    if (g.first && g.streams && g.events) {
        build(&g, blocking);
        if (g.failed)
            snprintf(why, size, "out of memory");
        else
            verdict = judge(&g, start, stop, why, size);
    } else {
        snprintf(why, size, "out of memory");
    }
    free(g.pred);
    free(g.first);
    free(g.streams);
    free(g.events);
    return verdict;
}
