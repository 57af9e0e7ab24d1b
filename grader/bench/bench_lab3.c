/* make bench, lab 3: shared tiles (32 x 32 and 16 x 16) and the 1D thread
 * tile against lab 2's naive kernel (the grader's baseline), and cuBLAS. */
#include "bench_matmul.h"
#include "lab2.h"
#include "lab3.h"

static lab_status tiled_16(const float *a, const float *b, float *c, int m, int n, int k)
{
    return lab3_matmul_tiled_with(16, a, b, c, m, n, k);
}

int main(int argc, char **argv)
{
    bench_options o = bench_start(argc, argv, "bench_lab3");
    static const bench_matmul_kernel baseline = {
        "naive", "naive, x picks the column (lab 2)", lab2_matmul_naive};
    static const bench_matmul_kernel kernels[] = {
        {"tiled", "shared tiles, 32 x 32", lab3_matmul_tiled},
        {"tiled_16", "shared tiles, 16 x 16", tiled_16},
        {"thread_tile", "1D thread tile (bonus)", lab3_matmul_thread_tile},
    };
    static const int sizes[] = {1024, 2048, 4096};
    return bench_matmul(3, &baseline, kernels, 3, sizes, 3, &o) != 0;
}
