/* What the GPU actually did: copies, memsets and kernels, with their sizes,
 * times and streams, recorded through the CUPTI Activity API.
 *
 * Why: a result can be right without the GPU doing the work (a host flow
 * computing C on the CPU); output checks cannot see that, the device's own
 * record of its activity can (lab 2's host flow, lab 6's overlap).
 *
 * Use: activity_start(), the work, activity_stop(&log) (which waits for the
 * device), then query the log. Only work issued between start and stop is
 * recorded, and only this process's. start/stop can be repeated. */
#ifndef ACTIVITY_RECORDER_H
#define ACTIVITY_RECORDER_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { ACTIVITY_KERNEL, ACTIVITY_MEMCPY, ACTIVITY_MEMSET } activity_kind;

typedef enum {
    COPY_OTHER,          /* not a copy, or host-to-host, peer, arrays */
    COPY_HOST_TO_DEVICE,
    COPY_DEVICE_TO_HOST,
    COPY_DEVICE_TO_DEVICE,
    COPY_ANY             /* queries only: any direction */
} activity_copy_kind;

enum { ACTIVITY_NAME_SIZE = 96 };

typedef struct {
    activity_kind kind;
    activity_copy_kind copy;        /* COPY_OTHER unless kind is ACTIVITY_MEMCPY */
    unsigned long long bytes;       /* copies and memsets; 0 for kernels */
    unsigned long long start_ns, end_ns; /* GPU times; both 0 when CUPTI could not time it */
    unsigned stream_id;             /* CUPTI's stream id: equal ids, same stream */
    int pinned_host;                /* a copy's host side is page-locked (cudaMallocHost) */
    char name[ACTIVITY_NAME_SIZE];  /* kernels: the function name, demangled when simple */
} activity_event;

typedef struct {
    activity_event *events;         /* sorted by start time after activity_stop */
    size_t count, capacity;
    unsigned long long dropped;     /* records CUPTI or we could not keep */
} activity_log;

/* Starts recording. 0 on success; -1 with the reason in `why` when CUPTI
 * cannot be used (library or driver missing, another profiler attached,
 * already recording). */
int activity_start(char *why, size_t why_size);

/* Stops recording: synchronises the device, flushes CUPTI's buffers, and
 * fills *log (sorted by start time; free it with activity_log_free). *log
 * is always valid on return, empty on failure. 0 ok, -1 when nothing was
 * being recorded or the flush failed. */
int activity_stop(activity_log *log);

void activity_log_free(activity_log *log);

/* Events of `kind` and, for copies, direction `copy` (COPY_ANY: any; it is
 * ignored for kernels and memsets) with `bytes` bytes (0: any size). */
size_t activity_count(const activity_log *log, activity_kind kind, activity_copy_kind copy,
                      unsigned long long bytes);

/* A short summary for messages, e.g. "2 H2D copies (4096 B, 8192 B), 1 kernel
 * (naive_matmul_kernel), 1 D2H copy (2048 B)" or "no copies and no kernel". */
void activity_describe(const activity_log *log, char *out, size_t size);

/* ---- judging a host flow ---- */

typedef struct {
    const char *name;            /* "A": as messages call it */
    unsigned long long bytes;
} activity_buffer;

/* The device work of a host flow: each input copied host-to-device (its own
 * copy of its exact size, started before the last kernel ended), at least
 * one kernel, and the output copied device-to-host (a copy of its exact
 * size that starts after the last kernel ended). 1 when the log shows all
 * of it; otherwise 0 and, in `why`, the first thing missing as a noun
 * phrase: "a kernel", "a host-to-device copy of B (15360 B)", ... */
int activity_shows_host_flow(const activity_log *log, const activity_buffer *inputs,
                             size_t input_count, activity_buffer output, char *why,
                             size_t why_size);

/* ---- building logs (the recorder; tests make synthetic ones) ---- */

/* Appends a copy of *event; 0 ok, -1 out of memory (counted as dropped). */
int activity_log_append(activity_log *log, const activity_event *event);
void activity_log_sort(activity_log *log);

/* "naive_matmul_kernel" from "_Z19naive_matmul_kernelPKfS0_Pfiii"; names it
 * cannot simplify (and unmangled ones) are copied as they are, truncated. */
void activity_kernel_short_name(const char *mangled, char *out, size_t size);

#ifdef __cplusplus
}
#endif

#endif
