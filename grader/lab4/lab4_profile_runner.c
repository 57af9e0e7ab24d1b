/* make profile-lab4: runs the grader's naive and unpadded transposes and each
 * of your three versions once, for Nsight Compute (grader/tools/ncu_profile.py).
 *
 *   lab4_profile [rows cols]      default 8192 8192 */
#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime_api.h>

#include "lab4.h"
#include "lab4_baselines.h"

static int report(const char *what, lab_status status)
{
    if (status != LAB_OK)
        fprintf(stderr, "lab4_profile: %s skipped: %s (%s)\n", what, lab_status_name(status),
                lab_last_error());
    return status == LAB_OK;
}

int main(int argc, char **argv)
{
    int rows = 8192, cols = 8192;
    if (argc == 3) {
        rows = atoi(argv[1]);
        cols = atoi(argv[2]);
    } else if (argc != 1) {
        fprintf(stderr, "usage: %s [rows cols]\n", argv[0]);
        return 2;
    }
    if (rows <= 0 || cols <= 0 || (long long)rows * cols > (1LL << 30)) {
        fprintf(stderr, "lab4_profile: rows and cols must be positive, at most 2^30 floats\n");
        return 2;
    }
    size_t bytes = (size_t)rows * (size_t)cols * sizeof(float);
    float *in = NULL, *out = NULL;
    if (cudaMalloc((void **)&in, bytes) != cudaSuccess ||
        cudaMalloc((void **)&out, bytes) != cudaSuccess) {
        fprintf(stderr, "lab4_profile: cannot allocate 2 x %zu bytes on the GPU\n", bytes);
        return 1;
    }
    cudaMemset(in, 0, bytes);
    report("grader's naive transpose", lab4_baseline_naive(in, out, rows, cols));
    report("grader's unpadded tile", lab4_baseline_unpadded(in, out, rows, cols));
    const char *names[] = {"smem", "padded", "multirow"};
    for (int v = 0; v < 3; ++v)
        report(names[v], lab4_transpose((lab4_version)v, in, out, rows, cols));
    cudaError_t err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        fprintf(stderr, "lab4_profile: a kernel failed: %s\n", cudaGetErrorString(err));
        return 1;
    }
    cudaFree(in);
    cudaFree(out);
    return 0;
}
