/* The static facts of a lab's kernels (registers, static shared memory,
 * spills, the block size they can run) from the build, not a GPU:
 * <test program>.resources, ptxas's report for the course's reference
 * architecture (grader/cmake/WriteKernelResources.cmake). So the verdict is
 * the same on every machine, and these are CPU checks: plain C, which a
 * runner replays (call_log.h). */
#ifndef KERNEL_RESOURCES_H
#define KERNEL_RESOURCES_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    char arch[16];          /* "sm_90": what the figures are for */
    int registers;          /* per thread */
    int shared_bytes;       /* static shared memory per block */
    int stack_bytes;        /* local memory per thread (cudaFuncAttributes.localSizeBytes) */
    int spill_store_bytes;  /* of which registers spilled */
    char name[256];         /* as the source spells it: "tiled_matmul_kernel<32>" */
} kernel_resources;

/* What a lab expects of one kernel. */
typedef struct {
    const char *kernel;       /* its name in the skeleton: "tiled_matmul_kernel<32>" */
    const char *what;         /* for messages: "the tiled kernel (TILE 32)" */
    const char *metric;       /* prefix of its metrics ("" for none): "block_tile_1d" */
    size_t shared_bytes;      /* the least static shared memory its tiles need */
    int block_threads;        /* the threads per block of its launch */
    const char *todo;         /* the TODO that declares its tiles: "3.4" */
    const char *handout;
    const char *section;      /* about its tiles */
    const char *spill_section; /* about registers and spills */
} kernel_expectation;

/* The most threads per block a kernel with `registers` per thread can run
 * on the reference architecture (sm_90: 65536 registers per SM, given out
 * per warp in units of 256, at most 1024 threads per block), as
 * cudaFuncGetAttributes' maxThreadsPerBlock says on such a GPU. */
int kernel_resources_max_threads(int registers);

/* The check: the kernel (the skeleton's name; where the student renamed
 * it, the kernel of the file that meets the expectation, with a note)
 * declares at least the shared memory its tiles need and can run its
 * launch's block; records its figures as metrics and notes, and notes
 * spills (not graded). Fails, saying why, when the report is missing or its
 * compile failed. */
void kernel_resources_expect(const kernel_expectation *e);

#ifdef __cplusplus
}
#endif

#endif
