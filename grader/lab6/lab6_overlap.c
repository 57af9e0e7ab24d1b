/* Lab 6's overlap analysis: a sweep over the start and end times of the
 * recorded copies and kernels. Plain C, no CUDA. */
#include "lab6_overlap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab6_checks.h"

enum { H2D, KERNEL, D2H, KINDS };

typedef struct {
    unsigned long long t;
    int kind, delta; /* +1 at a start, -1 at an end */
} edge;

static int by_time(const void *pa, const void *pb)
{
    const edge *a = pa, *b = pb;
    if (a->t != b->t)
        return a->t < b->t ? -1 : 1;
    return a->delta - b->delta; /* ends before starts: touching is not overlapping */
}

/* The kind of an event for the analysis, or -1 (memsets, other copies). */
static int kind_of(const activity_event *e)
{
    if (e->kind == ACTIVITY_KERNEL)
        return KERNEL;
    if (e->kind == ACTIVITY_MEMCPY && e->copy == COPY_HOST_TO_DEVICE)
        return H2D;
    if (e->kind == ACTIVITY_MEMCPY && e->copy == COPY_DEVICE_TO_HOST)
        return D2H;
    return -1;
}

static void count_events(const activity_log *log, unsigned default_stream, int has_default,
                         lab6_overlap *o)
{
    unsigned *streams = calloc(log->count + 1, sizeof *streams);
    for (size_t i = 0; i < log->count; ++i) {
        const activity_event *e = &log->events[i];
        int kind = kind_of(e);
        if (kind < 0)
            continue;
        o->h2d += kind == H2D;
        o->kernels += kind == KERNEL;
        o->d2h += kind == D2H;
        o->h2d_bytes += kind == H2D ? (double)e->bytes : 0.0;
        o->d2h_bytes += kind == D2H ? (double)e->bytes : 0.0;
        o->on_default += has_default && e->stream_id == default_stream;
        o->pageable += kind != KERNEL && !e->pinned_host;
        o->untimed += e->start_ns == 0 && e->end_ns == 0;
        int seen = 0;
        for (size_t s = 0; streams && s < o->streams_used && !seen; ++s)
            seen = streams[s] == e->stream_id;
        if (streams && !seen)
            streams[o->streams_used++] = e->stream_id;
    }
    free(streams);
}

void lab6_overlap_measure(const activity_log *log, unsigned default_stream, int has_default,
                          lab6_overlap *o)
{
    memset(o, 0, sizeof *o);
    count_events(log, default_stream, has_default, o);
    edge *edges = malloc((2 * log->count + 1) * sizeof *edges);
    if (edges == NULL)
        return;
    size_t n = 0;
    for (size_t i = 0; i < log->count; ++i) {
        const activity_event *e = &log->events[i];
        int kind = kind_of(e);
        if (kind < 0 || e->end_ns <= e->start_ns)
            continue;
        edges[n++] = (edge){e->start_ns, kind, +1};
        edges[n++] = (edge){e->end_ns, kind, -1};
    }
    qsort(edges, n, sizeof *edges, by_time);
    int active[KINDS] = {0};
    for (size_t i = 0; i + 1 < n; ++i) {
        active[edges[i].kind] += edges[i].delta;
        double dt = (double)(edges[i + 1].t - edges[i].t);
        int h2d = active[H2D] > 0, kernel = active[KERNEL] > 0, d2h = active[D2H] > 0;
        o->h2d_ns += h2d ? dt : 0;
        o->kernel_ns += kernel ? dt : 0;
        o->d2h_ns += d2h ? dt : 0;
        o->copy_ns += h2d || d2h ? dt : 0;
        o->copy_kernel_ns += (h2d || d2h) && kernel ? dt : 0;
        o->h2d_d2h_ns += h2d && d2h ? dt : 0;
    }
    free(edges);
}

static double fraction(double part, double a, double b)
{
    double shorter = a < b ? a : b;
    return shorter > 0 ? part / shorter : 0.0;
}

double lab6_copy_kernel_fraction(const lab6_overlap *o)
{
    return fraction(o->copy_kernel_ns, o->copy_ns, o->kernel_ns);
}

double lab6_copy_copy_fraction(const lab6_overlap *o)
{
    return fraction(o->h2d_d2h_ns, o->h2d_ns, o->d2h_ns);
}

int lab6_overlap_judge(const lab6_overlap *o, const lab6_expected_work *work,
                       double min_copy_kernel, double min_copy_copy, char *why,
                       size_t why_size)
{
    size_t total = o->h2d + o->kernels + o->d2h;
    double ck = lab6_copy_kernel_fraction(o), cc = lab6_copy_copy_fraction(o);
    if (o->h2d == 0 || o->kernels == 0 || o->d2h == 0) {
        snprintf(why, why_size,
                 "the GPU saw %zu H2D copies, %zu kernels and %zu D2H copies: each chunk needs "
                 "all three, issued into its stream (TODO(6.4), %s section 4)",
                 o->h2d, o->kernels, o->d2h, LAB6_HANDOUT);
        return 0;
    }
    if (o->untimed > 0) {
        snprintf(why, why_size,
                 "CUPTI could not time %zu of the %zu copies and kernels, so their overlap "
                 "cannot be judged (a problem of the grading machine, not of your code)",
                 o->untimed, total);
        return 0;
    }
    if (o->h2d_bytes < work->bytes || o->d2h_bytes < work->bytes) {
        snprintf(why, why_size,
                 "the host-to-device copies moved %.1f MiB and the device-to-host copies %.1f "
                 "MiB of the %.1f MiB input: every chunk goes to the GPU and comes back "
                 "(TODO(6.4), %s section 4)",
                 o->h2d_bytes / 1048576.0, o->d2h_bytes / 1048576.0, work->bytes / 1048576.0,
                 LAB6_HANDOUT);
        return 0;
    }
    if (o->kernel_ns < work->min_kernel_ns) {
        snprintf(why, why_size,
                 "its kernels ran for %.1f us in all, less than the %.1f us that the run's "
                 "fused multiply-adds (n x work) take at this GPU's FP32 peak: the kernels did "
                 "not do the work, and a result made elsewhere (on the CPU, say) earns nothing "
                 "here. The kernel stage applies lab6_element to its chunk (TODO(6.4), %s "
                 "section 4)",
                 o->kernel_ns / 1e3, work->min_kernel_ns / 1e3, LAB6_HANDOUT);
        return 0;
    }
    if (o->on_default == total) {
        snprintf(why, why_size,
                 "every copy and kernel ran in the default stream, which runs them one after "
                 "another (serialised: nothing can overlap); create non-default streams "
                 "(TODO(6.3)) and issue each chunk into its own (TODO(6.4)); %s sections 3-5",
                 LAB6_HANDOUT);
        return 0;
    }
    if (o->pageable > 0) {
        snprintf(why, why_size,
                 "%zu of the %zu copies moved pageable host memory (from malloc, not "
                 "cudaMallocHost): the driver stages such a copy through its own pinned buffer "
                 "and it does not overlap; allocate the host buffers pinned (TODO(6.2), %s "
                 "section 2)",
                 o->pageable, o->h2d + o->d2h, LAB6_HANDOUT);
        return 0;
    }
    if (o->on_default > 0) {
        snprintf(why, why_size,
                 "%zu of the %zu copies and kernels ran in the default stream, which waits for "
                 "every other (blocking) stream and makes them wait for it: issue every stage "
                 "into its chunk's stream (TODO(6.4), %s section 3)",
                 o->on_default, total, LAB6_HANDOUT);
        return 0;
    }
    if (o->streams_used < 2) {
        snprintf(why, why_size,
                 "all %zu copies and kernels ran in one stream, which runs them in order: "
                 "chunk c goes into stream lab6_stream_of_chunk(c, streams) (TODO(6.5) and "
                 "(6.4), %s section 5)",
                 total, LAB6_HANDOUT);
        return 0;
    }
    if (ck < min_copy_kernel) {
        snprintf(why, why_size,
                 "copies overlapped kernels for only %.0f%% of the time they could have (at "
                 "least %.0f%% expected; serialised): is something waiting inside the issue "
                 "loop (cudaMemcpy, cudaDeviceSynchronize, cudaStreamSynchronize)? TODO(6.4), "
                 "%s sections 3-5",
                 100.0 * ck, 100.0 * min_copy_kernel, LAB6_HANDOUT);
        return 0;
    }
    if (cc < min_copy_copy) {
        snprintf(why, why_size,
                 "host-to-device and device-to-host copies overlapped for only %.0f%% of the "
                 "time they could have (at least %.0f%% expected): the GPU has a copy engine "
                 "for each direction; TODO(6.4) and the issue order (TODO(6.5)), %s section 5",
                 100.0 * cc, 100.0 * min_copy_copy, LAB6_HANDOUT);
        return 0;
    }
    return 1;
}
