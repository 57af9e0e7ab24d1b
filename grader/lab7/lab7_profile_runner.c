/* make profile-lab7: runs lab 3's tiled kernel (the baseline), each of your
 * four stages and cuBLAS FP32 once, for Nsight Compute
 * (grader/tools/ncu_profile.py).
 *
 *   lab7_profile [size]      M = N = K = size, default 4096 (a multiple of 128) */
#include "profile_runner.h"

#include "lab3.h"
#include "lab7.h"
#include "lab7_cublas.h"

#define RUNNER "lab7_profile"

int main(int argc, char **argv)
{
    int size = profile_matrix_size(argc, argv, 4096, LAB7_SIZE_MULTIPLE, 16384);
    if (!size)
        return 2;
    size_t bytes = (size_t)size * (size_t)size * sizeof(float);
    float *a, *b, *c;
    if (!profile_device_arrays(RUNNER, bytes, &a, &b, &c))
        return 1;
    profile_report(RUNNER, "lab 3's tiled kernel", lab3_matmul_tiled(a, b, c, size, size, size));
    const char *names[] = {"block_tile_1d", "block_tile_2d", "vectorised", "warp_tile"};
    for (int s = 0; s < LAB7_STAGE_COUNT; ++s)
        profile_report(RUNNER, names[s],
                       lab7_sgemm((lab7_stage)s, size, size, size, 1.0f, a, b, 0.0f, c));
    profile_report(RUNNER, "cuBLAS", lab7_cublas_sgemm(size, size, size, 1.0f, a, b, 0.0f, c));
    return profile_finish(RUNNER, a, b, c);
}
