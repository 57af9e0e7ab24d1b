/* make profile-lab3: lab 2's naive kernel (its reference), your tiled
 * kernel with 32x32 and 16x16 tiles, and your thread tile (extension) once
 * each, for Nsight Compute (grader/tools/ncu_profile.py).
 *
 *   lab3_profile [size]      square matrices, default 1024 */
#include "profile_runner.h"

#include "lab2.h"
#include "lab3.h"

#define RUNNER "lab3_profile"

int main(int argc, char **argv)
{
    int size = profile_matrix_size(argc, argv, 1024, 1, 8192);
    if (!size)
        return 2;
    size_t bytes = (size_t)size * size * sizeof(float);
    float *a, *b, *c;
    if (!profile_device_arrays(RUNNER, bytes, &a, &b, &c))
        return 1;
    profile_report(RUNNER, "lab 2's naive kernel", lab2_matmul_naive(a, b, c, size, size, size));
    profile_report(RUNNER, "lab3_matmul_tiled", lab3_matmul_tiled(a, b, c, size, size, size));
    profile_report(RUNNER, "lab3_matmul_tiled_with(16)",
                   lab3_matmul_tiled_with(16, a, b, c, size, size, size));
    profile_report(RUNNER, "lab3_matmul_thread_tile",
                   lab3_matmul_thread_tile(a, b, c, size, size, size));
    return profile_finish(RUNNER, a, b, c);
}
