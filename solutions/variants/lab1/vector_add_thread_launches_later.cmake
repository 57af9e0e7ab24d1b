# Hostile: lab1_vector_add starts a detached thread of its own that, 20 ms
# after the call returned, launches the kernel again on the call's buffers:
# GPU work where no graded call is watched (the shape of a cheat that
# finishes, or redoes, the output once the grader has stopped looking, or
# does a timed call's real work after its clock stopped). Here the late
# launch writes the same values, so every value check passes and only the
# rule on launches from other threads outside a graded call can fail it
# (launch_watch.c): at the end of the next graded call.
# It starts once, on the first call of the largest size (2^25 + 3): that
# call's buffers live through the check of its 128 MiB output, far longer
# than 20 ms, and the next call comes hundreds of ms later, so the launch
# lands between two calls, never inside one or on a freed buffer.
lab_variant(SOLUTION indexing.cu
  FIND [[
#include "cuda_check.h"]]
  REPLACE [[
#include "cuda_check.h"

#include <pthread.h>
#include <time.h>]]
  FIND [[
extern "C" lab_status lab1_vector_add(const float *a, const float *b, float *c, int n)
{]]
  REPLACE [[
typedef struct {
    const float *a, *b;
    float *c;
    int n;
} later_add;

static later_add later;

static void *add_again_later(void *unused)
{
    (void)unused;
    struct timespec wait = {0, 20 * 1000 * 1000};
    nanosleep(&wait, NULL);
    vector_add_kernel<<<lab1_blocks_for(later.n, LAB1_BLOCK_1D), LAB1_BLOCK_1D>>>(
        later.a, later.b, later.c, later.n);
    return NULL;
}

extern "C" lab_status lab1_vector_add(const float *a, const float *b, float *c, int n)
{]]
  FIND [[
    vector_add_kernel<<<lab1_blocks_for(n, LAB1_BLOCK_1D), LAB1_BLOCK_1D>>>(a, b, c, n);
    LAB_LAUNCH_CHECK();]]
  REPLACE [[
    vector_add_kernel<<<lab1_blocks_for(n, LAB1_BLOCK_1D), LAB1_BLOCK_1D>>>(a, b, c, n);
    LAB_LAUNCH_CHECK();
    static int started;
    pthread_t thread;
    if (n > (1 << 25) && !started) {
        started = 1;
        later.a = a, later.b = b, later.c = c, later.n = n;
        if (pthread_create(&thread, NULL, add_again_later, NULL) == 0)
            pthread_detach(thread);
    }]]
  FAILS gpu_vector_add
    MESSAGE [[made a kernel launch outside every graded call, from a thread of its own]])
