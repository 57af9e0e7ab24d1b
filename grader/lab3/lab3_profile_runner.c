/* make profile-lab3: lab 2's naive kernel (its reference), your tiled
 * kernel with 32x32 and 16x16 tiles, and your thread tile (extension) once
 * each, for Nsight Compute (grader/tools/ncu_profile.py).
 *
 *   lab3_profile [size]      square matrices, default 1024 */
#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime_api.h>

#include "lab2.h"
#include "lab3.h"

static void report(const char *what, lab_status status)
{
    if (status != LAB_OK)
        fprintf(stderr, "lab3_profile: %s skipped: %s (%s)\n", what, lab_status_name(status),
                lab_last_error());
}

int main(int argc, char **argv)
{
    int size = argc == 2 ? atoi(argv[1]) : 1024;
    if (argc > 2 || size <= 0 || size > 8192) {
        fprintf(stderr, "usage: %s [size]   (1..8192; default 1024)\n", argv[0]);
        return 2;
    }
    size_t bytes = (size_t)size * size * sizeof(float);
    float *a = NULL, *b = NULL, *c = NULL;
    if (cudaMalloc((void **)&a, bytes) != cudaSuccess ||
        cudaMalloc((void **)&b, bytes) != cudaSuccess ||
        cudaMalloc((void **)&c, bytes) != cudaSuccess) {
        fprintf(stderr, "lab3_profile: cannot allocate 3 x %zu bytes on the GPU\n", bytes);
        return 1;
    }
    cudaMemset(a, 0, bytes);
    cudaMemset(b, 0, bytes);
    report("lab 2's naive kernel", lab2_matmul_naive(a, b, c, size, size, size));
    report("lab3_matmul_tiled", lab3_matmul_tiled(a, b, c, size, size, size));
    report("lab3_matmul_tiled_with(16)", lab3_matmul_tiled_with(16, a, b, c, size, size, size));
    report("lab3_matmul_thread_tile", lab3_matmul_thread_tile(a, b, c, size, size, size));
    cudaError_t err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        fprintf(stderr, "lab3_profile: a kernel failed: %s\n", cudaGetErrorString(err));
        return 1;
    }
    return 0;
}
