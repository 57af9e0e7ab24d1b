/* make time-lab2 [SIZE=MxNxK]: your naive kernel against the grader's
 * uncoalesced one (x picks the row), as gpu_speed_vs_uncoalesced times them;
 * your C is then checked against the baseline's. Default 2048x2048x2048. */
#include <stdio.h>

#include "lab2.h"
#include "matmul_baselines.h"
#include "time_kernels.h"

int main(int argc, char **argv)
{
    const char *size = argc > 1 ? argv[1] : "2048x2048x2048";
    long d[3];
    if (!time_parse_size("lab2", size, 3, 16384, d, "2048x2048x2048"))
        return 2;
    if (!time_require_gpu("lab2"))
        return 0;
    int m = (int)d[0], n = (int)d[1], k = (int)d[2];
    const float *a = time_device_floats("lab2", (size_t)m * k, 1);
    const float *b = time_device_floats("lab2", (size_t)k * n, 2);
    float *c = time_device_floats("lab2", (size_t)m * n, 3);
    float *c_base = time_device_floats("lab2", (size_t)m * n, 4);
    if (!a || !b || !c || !c_base)
        return 1;
    time_matmul mine = {lab2_matmul_naive, a, b, c, m, n, k};
    time_matmul base = {matmul_baseline_uncoalesced, a, b, c_base, m, n, k};
    time_check check = time_matmul_check("lab2", c, c_base, m, n, k);
    time_pair pair = {"lab2_matmul_naive", time_matmul_launch, &mine, "x->row kernel",
                      time_matmul_launch, &base, 0, 2.0 * m * n * k, &check};
    return time_pair_run(&pair, size) != TIME_OK;
}
