/* make profile-lab1: your element-wise kernels once each, and the grader's
 * copy kernel for comparison, for Nsight Compute (grader/tools/ncu_profile.py).
 *
 *   lab1_profile [width height]      default 4096 4096 */
#include <stdio.h>
#include <stdlib.h>

#include "profile_runner.h"

#include "copy_baseline.h"
#include "lab1.h"

#define RUNNER "lab1_profile"

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
    float *a, *b, *out;
    if (!profile_device_arrays(RUNNER, bytes, &a, &b, &out))
        return 1;
    profile_report(RUNNER, "grader's copy kernel", baseline_copy_floats(a, out, (size_t)n));
    profile_report(RUNNER, "lab1_vector_add", lab1_vector_add(a, b, out, n));
    profile_report(RUNNER, "lab1_image_double", lab1_image_double(a, out, width, height));
    profile_report(RUNNER, "lab1_scale_grid_stride", lab1_scale_grid_stride(a, out, 2.0f, n));
    return profile_finish(RUNNER, a, b, out);
}
