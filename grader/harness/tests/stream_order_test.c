/* The stream-order model (stream_order.h) on hand-made call sequences: the
 * pipelines lab 6 sees, right and wrong, with the events in the legacy
 * stream, in one stream, and joined by hand. */
#include <string.h>

#include "harness.h"
#include "stream_order.h"

/* Stand-ins for handles: only their addresses matter. */
static char stream_a, stream_b, stream_c, start_event, stop_event, done_b, done_c;
#define A ((const void *)&stream_a)
#define B ((const void *)&stream_b)
#define C ((const void *)&stream_c)
#define START ((const void *)&start_event)
#define STOP ((const void *)&stop_event)

static int all_blocking(const void *stream)
{
    (void)stream;
    return 1;
}

static int none_blocking(const void *stream)
{
    (void)stream;
    return 0;
}

/* A chunk in stream s: a copy in, a kernel, a copy out. */
static void chunk(const void *s)
{
    for (int i = 0; i < 3; ++i)
        stream_order_work(s, 0);
}

/* A new call: the start recorded in A, which B and C wait for, then a chunk
 * in each of the three streams. */
static void start_joined_chunks(void)
{
    stream_order_reset();
    stream_order_record(START, A, 0);
    stream_order_wait(B, START, 0);
    stream_order_wait(C, START, 0);
    chunk(A), chunk(B), chunk(C);
}

/* A new call: a chunk in A between two events recorded in `events`. */
static void chunk_of_a_between_events(const void *events, int per_thread)
{
    stream_order_reset();
    stream_order_record(START, events, per_thread);
    chunk(A);
    stream_order_record(STOP, events, per_thread);
}

static int judged(stream_order_blocking_fn blocking, char *why, size_t size)
{
    return stream_order_brackets(START, STOP, blocking, why, size);
}

void cpu_legacy_events_bracket_blocking_streams(void **state)
{
    (void)state;
    char why[256] = "";
    stream_order_reset();
    stream_order_record(START, NULL, 0);
    chunk(A), chunk(B), chunk(C), chunk(A);
    stream_order_record(STOP, NULL, 0);
    GRADER_CHECK(judged(all_blocking, why, sizeof why) == 1,
                 "events in the legacy stream around blocking streams did not bracket: %s", why);
    GRADER_CHECK(judged(none_blocking, why, sizeof why) == 0 && strstr(why, "its 1st stream") &&
                     strstr(why, "after the start event"),
                 "events in the legacy stream bracketed non-blocking streams, or the message "
                 "is wrong: %s", why);
}

void cpu_events_in_one_stream_miss_the_others(void **state)
{
    (void)state;
    char why[256] = "";
    stream_order_reset();
    stream_order_record(START, A, 0);
    chunk(A), chunk(B);
    stream_order_record(STOP, A, 0);
    /* Blocking or not, two created streams never wait for each other. */
    GRADER_CHECK(judged(all_blocking, why, sizeof why) == 0 &&
                     strstr(why, "4th copy or kernel") && strstr(why, "its 2nd stream"),
                 "events in stream A bracketed B's work, or the message is wrong: %s", why);
    GRADER_CHECK(judged(none_blocking, why, sizeof why) == 0,
                 "events in stream A bracketed B's work in non-blocking streams");
}

void cpu_joined_streams_bracket(void **state)
{
    (void)state;
    char why[256] = "";
    start_joined_chunks();
    stream_order_record(&done_b, B, 0);
    stream_order_record(&done_c, C, 0);
    stream_order_wait(A, &done_b, 0);
    stream_order_wait(A, &done_c, 0);
    stream_order_record(STOP, A, 0);
    GRADER_CHECK(judged(none_blocking, why, sizeof why) == 1,
                 "streams joined on the start and into the stop did not bracket: %s", why);
    /* Without C's join, C's work is not before the stop. */
    start_joined_chunks();
    stream_order_record(&done_b, B, 0);
    stream_order_wait(A, &done_b, 0);
    stream_order_record(STOP, A, 0);
    GRADER_CHECK(judged(none_blocking, why, sizeof why) == 0 &&
                     strstr(why, "before the stop event") && strstr(why, "its 3rd stream"),
                 "a stream left out of the join was bracketed, or the message is wrong: %s",
                 why);
}

void cpu_host_waits_order_what_follows(void **state)
{
    (void)state;
    char why[256] = "";
    stream_order_reset();
    stream_order_record(START, A, 0);
    chunk(A);
    stream_order_sync_stream(A, 0); /* B's work is issued after A's start ran */
    chunk(B);
    stream_order_sync_device();     /* and the stop after all of it */
    stream_order_record(STOP, A, 0);
    GRADER_CHECK(judged(none_blocking, why, sizeof why) == 1,
                 "work ordered by the host's waits was not bracketed: %s", why);
    /* Work issued before the start is never after it. */
    stream_order_reset();
    chunk(B);
    stream_order_record(START, NULL, 0);
    chunk(A);
    stream_order_record(STOP, NULL, 0);
    GRADER_CHECK(judged(all_blocking, why, sizeof why) == 0 &&
                     strstr(why, "1st copy or kernel") && strstr(why, "after the start event"),
                 "work issued before the start record was bracketed, or the message is "
                 "wrong: %s", why);
}

void cpu_per_thread_stream_is_not_legacy(void **state)
{
    (void)state;
    char why[256] = "";
    /* The per-thread default stream waits for the legacy one only. */
    chunk_of_a_between_events(NULL, 1);
    GRADER_CHECK(judged(all_blocking, why, sizeof why) == 0 && strstr(why, "its 1st stream"),
                 "events in the per-thread stream bracketed a created stream: %s", why);
    chunk_of_a_between_events(STREAM_ORDER_LEGACY, 1);
    GRADER_CHECK(judged(all_blocking, why, sizeof why) == 1,
                 "cudaStreamLegacy was not taken for the legacy stream: %s", why);
}

void cpu_what_it_cannot_follow_gives_no_verdict(void **state)
{
    (void)state;
    char why[256] = "";
    stream_order_reset();
    stream_order_record(START, NULL, 0);
    chunk(A);
    stream_order_unknown("cudaLaunchHostFunc");
    stream_order_record(STOP, NULL, 0);
    GRADER_CHECK(judged(all_blocking, why, sizeof why) == -1 && strstr(why, "cudaLaunchHostFunc"),
                 "a call the model cannot follow still gave a verdict: %s", why);
    stream_order_reset();
    stream_order_record(START, NULL, 0);
    chunk(A);
    GRADER_CHECK(judged(all_blocking, why, sizeof why) == -1 && strstr(why, "stop event"),
                 "a stop never recorded gave a verdict: %s", why);
    GRADER_CHECK(stream_order_work_count() == 3, "3 pieces of work counted as %zu",
                 stream_order_work_count());
    stream_order_reset();
    for (int i = 0; i <= STREAM_ORDER_MAX_STEPS; ++i)
        stream_order_work(A, 0);
    GRADER_CHECK(judged(all_blocking, why, sizeof why) == -1 && strstr(why, "more than"),
                 "a call past the model's size gave a verdict: %s", why);
}

#define TEST(fn) GRADER_TEST(fn, GROUP_CPU, 0)

static const grader_test tests[] = {
    TEST(cpu_legacy_events_bracket_blocking_streams),
    TEST(cpu_events_in_one_stream_miss_the_others),
    TEST(cpu_joined_streams_bracket),
    TEST(cpu_host_waits_order_what_follows),
    TEST(cpu_per_thread_stream_is_not_legacy),
    TEST(cpu_what_it_cannot_follow_gives_no_verdict),
};

int main(int argc, char **argv)
{
    grader_suite suite = {"stream_order", "stream-order model",
                          "grader/harness/checks/stream_order.h", GRADER_IMPLEMENTATION, tests,
                          sizeof tests / sizeof tests[0], .concurrent_streams = 0};
    return grader_main(&suite, argc, argv);
}
