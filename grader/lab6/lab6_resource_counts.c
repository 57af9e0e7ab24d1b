/* The --wrap counters of lab6_resource_counts.h. Each wrapper calls the
 * real function (__real_*, resolved by the linker) and counts the calls
 * that succeeded. */
#include "lab6_resource_counts.h"

#include <cuda_runtime_api.h>

static lab6_resource_counts counts;

lab6_resource_counts lab6_resources_now(void) { return counts; }

#define COUNTED(ret, name, params, args, field, delta, made)  \
    ret __real_##name params;                                  \
    ret __wrap_##name params;                                  \
    ret __wrap_##name params                                   \
    {                                                          \
        ret result = __real_##name args;                       \
        if (result == cudaSuccess) {                           \
            counts.field += (delta);                           \
            counts.made += (delta) > 0;                        \
        }                                                      \
        return result;                                         \
    }

COUNTED(cudaError_t, cudaStreamCreate, (cudaStream_t * s), (s), streams, 1, streams_made)
COUNTED(cudaError_t, cudaStreamCreateWithFlags, (cudaStream_t * s, unsigned flags), (s, flags),
        streams, 1, streams_made)
COUNTED(cudaError_t, cudaStreamCreateWithPriority, (cudaStream_t * s, unsigned flags, int prio),
        (s, flags, prio), streams, 1, streams_made)
COUNTED(cudaError_t, cudaStreamDestroy, (cudaStream_t s), (s), streams, -1, streams_made)
COUNTED(cudaError_t, cudaEventCreate, (cudaEvent_t * e), (e), events, 1, events_made)
COUNTED(cudaError_t, cudaEventCreateWithFlags, (cudaEvent_t * e, unsigned flags), (e, flags),
        events, 1, events_made)
COUNTED(cudaError_t, cudaEventDestroy, (cudaEvent_t e), (e), events, -1, events_made)
COUNTED(cudaError_t, cudaMallocHost, (void **p, size_t size), (p, size), pinned, 1, pinned_made)
COUNTED(cudaError_t, cudaHostAlloc, (void **p, size_t size, unsigned flags), (p, size, flags),
        pinned, 1, pinned_made)
COUNTED(cudaError_t, cudaHostRegister, (void *p, size_t size, unsigned flags), (p, size, flags),
        pinned, 1, pinned_made)
COUNTED(cudaError_t, cudaFreeHost, (void *p), (p), pinned, -1, pinned_made)
COUNTED(cudaError_t, cudaHostUnregister, (void *p), (p), pinned, -1, pinned_made)
