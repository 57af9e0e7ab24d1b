/* The --wrap wrappers of lab2_fault_injection.h. Disarmed, each calls the
 * real function (__real_*, resolved by the linker) and nothing else. */
#include "lab2_fault_injection.h"

#include <pthread.h>
#include <stddef.h>

enum { LIVE_KEEP = 256 };

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int armed;
static lab2_fault_kind fail_kind;
static int fail_nth;
static lab2_fault_counts counts;
static void *live[LIVE_KEEP]; /* past LIVE_KEEP, counted but not matched to a free */
static int live_kept;

void lab2_faults_arm(lab2_fault_kind kind, int nth)
{
    pthread_mutex_lock(&lock);
    armed = 1;
    fail_kind = kind;
    fail_nth = nth;
    counts = (lab2_fault_counts){0, 0, 0, 0};
    live_kept = 0;
    pthread_mutex_unlock(&lock);
}

lab2_fault_counts lab2_faults_disarm(void)
{
    pthread_mutex_lock(&lock);
    armed = 0;
    lab2_fault_counts result = counts;
    pthread_mutex_unlock(&lock);
    return result;
}

/* Counts one call of `kind`; 1 when it is the one to fail. */
static int fails_now(lab2_fault_kind kind)
{
    pthread_mutex_lock(&lock);
    int fail = 0;
    if (armed) {
        int n = kind == LAB2_FAULT_MALLOC ? ++counts.mallocs : ++counts.copies;
        fail = kind == fail_kind && n == fail_nth;
        counts.injected |= fail;
    }
    pthread_mutex_unlock(&lock);
    return fail;
}

cudaError_t __real_cudaMalloc(void **p, size_t size);
cudaError_t __wrap_cudaMalloc(void **p, size_t size);
cudaError_t __wrap_cudaMalloc(void **p, size_t size)
{
    if (fails_now(LAB2_FAULT_MALLOC))
        return (cudaError_t)LAB2_MALLOC_FAULT;
    cudaError_t result = __real_cudaMalloc(p, size);
    pthread_mutex_lock(&lock);
    if (armed && result == cudaSuccess && p) {
        ++counts.live;
        if (live_kept < LIVE_KEEP)
            live[live_kept++] = *p;
    }
    pthread_mutex_unlock(&lock);
    return result;
}

cudaError_t __real_cudaFree(void *p);
cudaError_t __wrap_cudaFree(void *p);
cudaError_t __wrap_cudaFree(void *p)
{
    cudaError_t result = __real_cudaFree(p);
    pthread_mutex_lock(&lock);
    /* Only allocations made while armed count: a NULL or a stranger is not one. */
    for (int i = 0; armed && p && result == cudaSuccess && i < live_kept; ++i)
        if (live[i] == p) {
            live[i] = live[--live_kept];
            --counts.live;
            break;
        }
    pthread_mutex_unlock(&lock);
    return result;
}

cudaError_t __real_cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
cudaError_t __wrap_cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
cudaError_t __wrap_cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
    if (fails_now(LAB2_FAULT_COPY))
        return (cudaError_t)LAB2_COPY_FAULT;
    return __real_cudaMemcpy(dst, src, count, kind);
}

cudaError_t __real_cudaMemcpyAsync(void *dst, const void *src, size_t count,
                                   enum cudaMemcpyKind kind, cudaStream_t stream);
cudaError_t __wrap_cudaMemcpyAsync(void *dst, const void *src, size_t count,
                                   enum cudaMemcpyKind kind, cudaStream_t stream);
cudaError_t __wrap_cudaMemcpyAsync(void *dst, const void *src, size_t count,
                                   enum cudaMemcpyKind kind, cudaStream_t stream)
{
    if (fails_now(LAB2_FAULT_COPY))
        return (cudaError_t)LAB2_COPY_FAULT;
    return __real_cudaMemcpyAsync(dst, src, count, kind, stream);
}
