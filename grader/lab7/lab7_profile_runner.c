/* make profile-lab7: runs lab 3's tiled kernel (the baseline), each of your
 * four stages and cuBLAS FP32 once, for Nsight Compute
 * (grader/tools/ncu_profile.py).
 *
 *   lab7_profile [size]      M = N = K = size, default 4096 (a multiple of 128) */
#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime_api.h>

#include "lab3.h"
#include "lab7.h"
#include "lab7_cublas.h"

static void report(const char *what, lab_status status)
{
    if (status != LAB_OK)
        fprintf(stderr, "lab7_profile: %s skipped: %s (%s)\n", what, lab_status_name(status),
                lab_last_error());
}

int main(int argc, char **argv)
{
    int size = argc == 2 ? atoi(argv[1]) : 4096;
    if (argc > 2 || size <= 0 || size % LAB7_SIZE_MULTIPLE != 0 || size > 16384) {
        fprintf(stderr, "usage: %s [size]   (a multiple of %d, at most 16384)\n", argv[0],
                LAB7_SIZE_MULTIPLE);
        return 2;
    }
    size_t bytes = (size_t)size * (size_t)size * sizeof(float);
    float *a = NULL, *b = NULL, *c = NULL;
    if (cudaMalloc((void **)&a, bytes) != cudaSuccess ||
        cudaMalloc((void **)&b, bytes) != cudaSuccess ||
        cudaMalloc((void **)&c, bytes) != cudaSuccess) {
        fprintf(stderr, "lab7_profile: cannot allocate 3 x %zu bytes on the GPU\n", bytes);
        return 1;
    }
    cudaMemset(a, 0, bytes);
    cudaMemset(b, 0, bytes);
    report("lab 3's tiled kernel", lab3_matmul_tiled(a, b, c, size, size, size));
    const char *names[] = {"block_tile_1d", "block_tile_2d", "vectorised", "warp_tile"};
    for (int s = 0; s < LAB7_STAGE_COUNT; ++s)
        report(names[s], lab7_sgemm((lab7_stage)s, size, size, size, 1.0f, a, b, 0.0f, c));
    report("cuBLAS", lab7_cublas_sgemm(size, size, size, 1.0f, a, b, 0.0f, c));
    cudaError_t err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        fprintf(stderr, "lab7_profile: a kernel failed: %s\n", cudaGetErrorString(err));
        return 1;
    }
    cudaFree(a);
    cudaFree(b);
    cudaFree(c);
    return 0;
}
