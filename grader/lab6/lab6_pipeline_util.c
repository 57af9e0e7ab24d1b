#include "lab6_pipeline_util.h"

#include <stdio.h>

#include <cuda_runtime_api.h>

#include "cuda_check.h"
#include "harness.h"
#include "lab6_checks.h"
#include "rng.h"

lab6_pipeline *pipeline_open(int capacity, int streams)
{
    char call[160];
    snprintf(call, sizeof call, "lab6_pipeline_create(capacity=%d, streams=%d)", capacity,
             streams);
    lab6_pipeline *p = NULL;
    /* Pinning pages is slow (a few hundred ms per GB): a generous limit. */
    grader_watch(call, grader_call_limit_s(40.0 * capacity * sizeof(float), 0.0));
    lab_status status = lab6_pipeline_create(&p, capacity, streams);
    grader_unwatch();
    GRADER_CHECK(status == LAB_OK && p != NULL,
                 "%s returned %s: %s. Check TODO(6.2) and (6.3), %s sections 2 and 3.", call,
                 lab_status_name(status), lab_last_error(), LAB6_HANDOUT);
    GRADER_CHECK(lab6_pipeline_host_input(p) != NULL && lab6_pipeline_host_output(p) != NULL,
                 "%s: the pipeline's host buffers are NULL (host input %p, output %p): "
                 "allocate them in TODO(6.2), %s section 2.",
                 call, (void *)lab6_pipeline_host_input(p), (void *)lab6_pipeline_host_output(p),
                 LAB6_HANDOUT);
    return p;
}

void pipeline_close(lab6_pipeline *p, const char *what)
{
    char call[200];
    snprintf(call, sizeof call, "lab6_pipeline_destroy after %s", what);
    grader_watch(call, grader_call_limit_s(0.0, 0.0));
    lab_status status = lab6_pipeline_destroy(p);
    grader_unwatch();
    GRADER_CHECK(status == LAB_OK, "%s returned %s: %s. Check TODO(6.7), %s section 7.", call,
                 lab_status_name(status), lab_last_error(), LAB6_HANDOUT);
}

const char *order_name(lab6_order order)
{
    return order == LAB6_DEPTH_FIRST ? "depth-first" : "breadth-first";
}

void describe_run(char *out, size_t size, int n, int chunks, int work, lab6_order order,
                  int streams)
{
    snprintf(out, size, "lab6_pipeline_run(n=%d, chunks=%d, work=%d, %s) with %d stream%s", n,
             chunks, work, order_name(order), streams, streams == 1 ? "" : "s");
}

void pipeline_run_and_wait(lab6_pipeline *p, int n, int chunks, int work, lab6_order order,
                           int streams)
{
    char call[200];
    describe_run(call, sizeof call, n, chunks, work, order, streams);
    /* Two copies and the kernel's flops, at the slow GPU's rates. */
    grader_watch(call, grader_call_limit_s(8.0 * n, 2.0 * n * (double)work));
    lab_status status = lab6_pipeline_run(p, n, chunks, work, order);
    cudaError_t err = cudaDeviceSynchronize();
    grader_unwatch();
    GRADER_CHECK(status == LAB_OK,
                 "%s returned %s: %s. Check TODO(6.4): every call issued there must succeed, "
                 "for empty chunks too (%s sections 4 and 5).",
                 call, lab_status_name(status), lab_last_error(), LAB6_HANDOUT);
    GRADER_CHECK(err == cudaSuccess,
                 "%s: the pipeline's work failed on the GPU: %s. Check the offsets and counts of "
                 "TODO(6.4) (%s section 4).",
                 call, cudaGetErrorString(err), LAB6_HANDOUT);
}

void pipeline_fill_input(lab6_pipeline *p, int n, uint64_t seed)
{
    rng_fill_uniform(lab6_pipeline_host_input(p), (size_t)n, seed, -1.0f, 1.0f);
}
