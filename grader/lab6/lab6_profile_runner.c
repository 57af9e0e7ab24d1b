/* Lab 6's profiling runner (make profile-lab6): one streamed run of the
 * pipeline, so that Nsight Compute can measure each of its kernels.
 *
 *   lab6_profile [n] [streams] [chunks] [work]
 *
 * Defaults: 2^26 floats (256 MiB each way), 16 streams, 16 chunks, work
 * 1024. Nsight Compute replays kernels one at a time, so it cannot show the
 * overlap itself: for the timeline, run the same program under Nsight
 * Systems (nsys profile --trace=cuda build/bin/lab6_profile). */
#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime_api.h>

#include "lab6.h"

static int arg_or(int argc, char **argv, int i, int fallback)
{
    return argc > i ? atoi(argv[i]) : fallback;
}

int main(int argc, char **argv)
{
    int n = arg_or(argc, argv, 1, 1 << 26), streams = arg_or(argc, argv, 2, 16);
    int chunks = arg_or(argc, argv, 3, 16), work = arg_or(argc, argv, 4, 1024);
    lab6_pipeline *p = NULL;
    lab_status status = lab6_pipeline_create(&p, n, streams);
    if (status != LAB_OK) {
        fprintf(stderr, "lab6_profile: lab6_pipeline_create: %s\n", lab_last_error());
        return 1;
    }
    float *in = lab6_pipeline_host_input(p);
    if (in == NULL) {
        fprintf(stderr, "lab6_profile: no pinned input buffer (TODO(6.3)); nothing to run\n");
        lab6_pipeline_destroy(p);
        return 0;
    }
    for (int i = 0; i < n; ++i)
        in[i] = (float)(i % 1000) / 1000.0f;
    status = lab6_pipeline_run(p, n, chunks, work, LAB6_DEPTH_FIRST);
    if (status != LAB_OK)
        fprintf(stderr, "lab6_profile: lab6_pipeline_run skipped: %s\n", lab_last_error());
    cudaError_t err = cudaDeviceSynchronize();
    float ms = 0.0f;
    if (status == LAB_OK && lab6_pipeline_elapsed_ms(p, &ms) == LAB_OK)
        fprintf(stderr, "lab6_profile: %d floats, %d streams, %d chunks, work %d: %.3f ms\n", n,
                streams, chunks, work, ms);
    else if (status == LAB_OK)
        fprintf(stderr, "lab6_profile: lab6_pipeline_elapsed_ms skipped: %s\n",
                lab_last_error());
    if (lab6_pipeline_destroy(p) != LAB_OK)
        fprintf(stderr, "lab6_profile: lab6_pipeline_destroy: %s\n", lab_last_error());
    if (err != cudaSuccess) {
        fprintf(stderr, "lab6_profile: %s\n", cudaGetErrorString(err));
        return 1;
    }
    return 0;
}
