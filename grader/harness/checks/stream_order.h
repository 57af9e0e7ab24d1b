/* The order CUDA's streams put a call's work in, rebuilt from the calls it
 * made: which copy or kernel is certain to run after an event's record, and
 * which before another's.
 *
 * Why: "the events bracket every chunk" is a fact about order, not time.
 * Timed, a pair of events in stream 0 can look right (its last copy ends
 * near the run's end when the copy engines serve all streams at once);
 * rebuilt, it brackets stream 0's work only, on any GPU.
 *
 * The model is CUDA's stream semantics, from the calls in issue order:
 *  - work (a copy, a memset, a kernel) and event records in a stream run
 *    after what that stream was given before;
 *  - the legacy default stream (0) waits for the work of every blocking
 *    stream (made without cudaStreamNonBlocking; the per-thread default
 *    stream is one) given before, and those streams' later work waits for
 *    it;
 *  - cudaStreamWaitEvent makes the stream's later work wait for the
 *    event's latest record;
 *  - a host synchronisation (stream, event, device; and a synchronous copy
 *    or a free) makes all work issued after it wait for what it waited for.
 * Calls the model does not know that change order (host functions, stream
 * or event queries) make it give up, and so does work it did not see (the
 * caller compares its count with the GPU's own record): a verdict is only
 * given when every piece of the call's work is in the model.
 *
 * Use: stream_order_reset(), the calls (stream_order_watch.c notes them
 * from CUPTI's callbacks; tests, by hand), stream_order_brackets(). */
#ifndef STREAM_ORDER_H
#define STREAM_ORDER_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Stream handles as the runtime's cudaStream_t values: NULL is the default
 * stream (the legacy one, or the thread's own when per_thread is set, as
 * the _ptsz/_ptds APIs mean it); STREAM_ORDER_LEGACY and
 * STREAM_ORDER_PER_THREAD are cudaStreamLegacy and cudaStreamPerThread. */
#define STREAM_ORDER_LEGACY ((const void *)0x1)
#define STREAM_ORDER_PER_THREAD ((const void *)0x2)

/* Most calls one model keeps; more make it give up. */
enum { STREAM_ORDER_MAX_STEPS = 4096 };

void stream_order_reset(void);
/* A copy, memset or kernel in `stream`. */
void stream_order_work(const void *stream, int per_thread);
void stream_order_record(const void *event, const void *stream, int per_thread);
void stream_order_wait(const void *stream, const void *event, int per_thread);
/* The host waits for a stream, an event, or the whole device. */
void stream_order_sync_stream(const void *stream, int per_thread);
void stream_order_sync_event(const void *event);
void stream_order_sync_device(void);
/* A call the model cannot follow: it gives up, naming the first one. */
void stream_order_unknown(const char *api);
/* Pieces of work noted since the reset. */
size_t stream_order_work_count(void);

/* Whether a stream waits for the legacy default stream and it for it: 1 for
 * blocking streams, 0 for cudaStreamNonBlocking ones. Asked of each stream
 * handle the calls named, at judgement (the GPU side answers with
 * cudaStreamGetFlags; tests with a table). */
typedef int (*stream_order_blocking_fn)(const void *stream);

/* Whether every piece of work noted is ordered after the latest record of
 * `start` and before the latest record of `stop`. 1: it is. 0: it is not;
 * `why` names the first piece that is not and on which side. -1: the model
 * cannot tell (a call it gave up on, an event never recorded, too many
 * calls); `why` says which. */
int stream_order_brackets(const void *start, const void *stop, stream_order_blocking_fn blocking,
                          char *why, size_t size);

#ifdef __cplusplus
}
#endif

#endif
