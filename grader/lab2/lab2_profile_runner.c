/* make profile-lab2: your naive kernel and the grader's uncoalesced one (x
 * picks the row) once each, for Nsight Compute (grader/tools/ncu_profile.py).
 *
 *   lab2_profile [size]      square matrices, default 1024 */
#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime_api.h>

#include "lab2.h"
#include "matmul_baselines.h"

static void report(const char *what, lab_status status)
{
    if (status != LAB_OK)
        fprintf(stderr, "lab2_profile: %s skipped: %s (%s)\n", what, lab_status_name(status),
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
        fprintf(stderr, "lab2_profile: cannot allocate 3 x %zu bytes on the GPU\n", bytes);
        return 1;
    }
    cudaMemset(a, 0, bytes);
    cudaMemset(b, 0, bytes);
    report("grader's uncoalesced kernel", matmul_baseline_uncoalesced(a, b, c, size, size, size));
    report("lab2_matmul_naive", lab2_matmul_naive(a, b, c, size, size, size));
    cudaError_t err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        fprintf(stderr, "lab2_profile: a kernel failed: %s\n", cudaGetErrorString(err));
        return 1;
    }
    return 0;
}
