/* make profile-lab2: your naive kernel and the grader's uncoalesced one (x
 * picks the row) once each, for Nsight Compute (grader/tools/ncu_profile.py).
 *
 *   lab2_profile [size]      square matrices, default 1024 */
#include "profile_runner.h"

#include "lab2.h"
#include "matmul_baselines.h"

#define RUNNER "lab2_profile"

int main(int argc, char **argv)
{
    int size = profile_matrix_size(argc, argv, 1024, 1, 8192);
    if (!size)
        return 2;
    size_t bytes = (size_t)size * size * sizeof(float);
    float *a, *b, *c;
    if (!profile_device_arrays(RUNNER, bytes, &a, &b, &c))
        return 1;
    profile_report(RUNNER, "grader's uncoalesced kernel",
                   matmul_baseline_uncoalesced(a, b, c, size, size, size));
    profile_report(RUNNER, "lab2_matmul_naive", lab2_matmul_naive(a, b, c, size, size, size));
    return profile_finish(RUNNER, a, b, c);
}
