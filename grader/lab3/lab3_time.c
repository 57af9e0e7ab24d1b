/* make time-lab3 [SIZE=MxNxK]: your tiled kernels against lab 2's naive
 * kernel (its reference), as gpu_tiled_speed_vs_naive times them; the thread
 * tile (extension) too, when it is written. Each C is then checked against
 * the naive kernel's. Default 2048x2048x2048. */
#include <stdio.h>

#include "lab2.h"
#include "lab3.h"
#include "time_kernels.h"

static lab_status tiled16(const float *a, const float *b, float *c, int m, int n, int k)
{
    return lab3_matmul_tiled_with(16, a, b, c, m, n, k);
}

int main(int argc, char **argv)
{
    const char *size = argc > 1 ? argv[1] : "2048x2048x2048";
    long d[3];
    if (!time_parse_size("lab3", size, 3, 16384, d, "2048x2048x2048"))
        return 2;
    if (!time_require_gpu("lab3"))
        return 0;
    int m = (int)d[0], n = (int)d[1], k = (int)d[2];
    const float *a = time_device_floats("lab3", (size_t)m * k, 1);
    const float *b = time_device_floats("lab3", (size_t)k * n, 2);
    float *c = time_device_floats("lab3", (size_t)m * n, 3);
    float *c_base = time_device_floats("lab3", (size_t)m * n, 4);
    if (!a || !b || !c || !c_base)
        return 1;
    time_matmul naive = {lab2_matmul_naive, a, b, c_base, m, n, k};
    time_matmul mine[] = {{lab3_matmul_tiled, a, b, c, m, n, k}, {tiled16, a, b, c, m, n, k},
                          {lab3_matmul_thread_tile, a, b, c, m, n, k}};
    const char *names[] = {"lab3_matmul_tiled (TILE 32)", "lab3_matmul_tiled_with(16)",
                           "lab3_matmul_thread_tile (ext.)"};
    time_check check = time_matmul_check("lab3", c, c_base, m, n, k);
    int failed = 0;
    for (int i = 0; i < 3; ++i) {
        time_pair pair = {names[i], time_matmul_launch, &mine[i], "lab 2's naive",
                          time_matmul_launch, &naive, 0, 2.0 * m * n * k, &check};
        failed |= time_pair_run(&pair, size) != TIME_OK;
    }
    return failed;
}
