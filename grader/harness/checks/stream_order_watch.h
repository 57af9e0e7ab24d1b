/* The stream-order model (stream_order.h) fed from a student call's CUPTI
 * callbacks (through launch_watch.c's subscriber). Lab 6 arms it around one
 * run and judges whether the student's events bracket all its work.
 *
 * Use: stream_order_watch_arm(STREAM_ORDER_WATCH_RUN), the student's run,
 * stream_order_watch_arm(STREAM_ORDER_WATCH_ELAPSED), the student's
 * elapsed-time call (which names the two events it reads),
 * stream_order_watch_arm(STREAM_ORDER_WATCH_OFF), then
 * stream_order_watch_judge(). */
#ifndef STREAM_ORDER_WATCH_H
#define STREAM_ORDER_WATCH_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    STREAM_ORDER_WATCH_OFF,
    STREAM_ORDER_WATCH_RUN,     /* note every stream call (a reset starts it) */
    STREAM_ORDER_WATCH_ELAPSED  /* note only the events cudaEventElapsedTime reads */
} stream_order_watch_mode;

void stream_order_watch_arm(stream_order_watch_mode mode);

/* Whether the events the elapsed call read bracket all the run's work, of
 * which the GPU's own record counted `gpu_work` pieces (copies, memsets and
 * kernels): stream_order_brackets's 1, 0 or -1, the latter also when the
 * elapsed call read no events, or the model saw another count of work than
 * the GPU did. */
int stream_order_watch_judge(size_t gpu_work, char *why, size_t size);

/* launch_watch.c's side: a runtime or driver API callback (domain and site
 * as CUPTI's; data is its CUpti_CallbackData), and the callback IDs to
 * enable in a domain. */
void stream_order_watch_on_api(unsigned domain, unsigned cbid, const void *data);
const unsigned *stream_order_watch_callbacks(unsigned domain, int *count);

#ifdef __cplusplus
}
#endif

#endif
