/* make profile-lab1: your element-wise kernels once each, and the grader's
 * copy kernel for comparison, for Nsight Compute (grader/tools/ncu_profile.py).
 *
 *   lab1_profile [width height]      default 4096 4096 */
#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime_api.h>

#include "copy_baseline.h"
#include "lab1.h"

static void report(const char *what, lab_status status)
{
    if (status != LAB_OK)
        fprintf(stderr, "lab1_profile: %s skipped: %s (%s)\n", what, lab_status_name(status),
                lab_last_error());
}

int main(int argc, char **argv)
{
    int width = 4096, height = 4096;
    if (argc == 3) {
        width = atoi(argv[1]);
        height = atoi(argv[2]);
    }
    if ((argc != 1 && argc != 3) || width <= 0 || height <= 0 ||
        (long long)width * height > (1LL << 28)) {
        fprintf(stderr, "usage: %s [width height]   (at most 2^28 floats; default 4096 4096)\n",
                argv[0]);
        return 2;
    }
    int n = width * height;
    size_t bytes = (size_t)n * sizeof(float);
    float *a = NULL, *b = NULL, *out = NULL;
    if (cudaMalloc((void **)&a, bytes) != cudaSuccess ||
        cudaMalloc((void **)&b, bytes) != cudaSuccess ||
        cudaMalloc((void **)&out, bytes) != cudaSuccess) {
        fprintf(stderr, "lab1_profile: cannot allocate 3 x %zu bytes on the GPU\n", bytes);
        return 1;
    }
    cudaMemset(a, 0, bytes);
    cudaMemset(b, 0, bytes);
    report("grader's copy kernel", baseline_copy_floats(a, out, (size_t)n));
    report("lab1_vector_add", lab1_vector_add(a, b, out, n));
    report("lab1_image_double", lab1_image_double(a, out, width, height));
    report("lab1_scale_grid_stride", lab1_scale_grid_stride(a, out, 2.0f, n));
    cudaError_t err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        fprintf(stderr, "lab1_profile: a kernel failed: %s\n", cudaGetErrorString(err));
        return 1;
    }
    return 0;
}
