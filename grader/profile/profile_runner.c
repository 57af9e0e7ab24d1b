#include "profile_runner.h"

#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime_api.h>

int profile_matrix_size(int argc, char **argv, int fallback, int multiple, int largest)
{
    int size = argc == 2 ? atoi(argv[1]) : fallback;
    if (argc <= 2 && size > 0 && size % multiple == 0 && size <= largest)
        return size;
    if (multiple == 1)
        fprintf(stderr, "usage: %s [size]   (1..%d; default %d)\n", argv[0], largest, fallback);
    else
        fprintf(stderr, "usage: %s [size]   (a multiple of %d, at most %d)\n", argv[0], multiple,
                largest);
    return 0;
}

int profile_device_arrays(const char *runner, size_t bytes, float **in0, float **in1, float **out)
{
    *in0 = *in1 = *out = NULL;
    if (cudaMalloc((void **)in0, bytes) != cudaSuccess ||
        cudaMalloc((void **)in1, bytes) != cudaSuccess ||
        cudaMalloc((void **)out, bytes) != cudaSuccess) {
        fprintf(stderr, "%s: cannot allocate 3 x %zu bytes on the GPU\n", runner, bytes);
        return 0;
    }
    /* Zeros: defined inputs, and no NaN or denormal to slow a kernel down. */
    cudaMemset(*in0, 0, bytes);
    cudaMemset(*in1, 0, bytes);
    return 1;
}

void profile_report(const char *runner, const char *what, lab_status status)
{
    if (status != LAB_OK)
        fprintf(stderr, "%s: %s skipped: %s (%s)\n", runner, what, lab_status_name(status),
                lab_last_error());
}

int profile_finish(const char *runner, float *in0, float *in1, float *out)
{
    cudaError_t err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        fprintf(stderr, "%s: a kernel failed: %s\n", runner, cudaGetErrorString(err));
        return 1;
    }
    cudaFree(in0);
    cudaFree(in1);
    cudaFree(out);
    return 0;
}
