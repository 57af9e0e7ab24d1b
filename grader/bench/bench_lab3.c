/* make bench, lab 3: shared tiles (32 x 32 and 16 x 16) and the 1D thread
 * tile against lab 2's naive kernel (the grader's baseline), and cuBLAS.
 * The kernels and their work are rows of lab 3's kernel table
 * (lab3_kernels.c); the keys and labels are the result file's. */
#include "bench_matmul.h"
#include "lab3_kernels.h"

int main(int argc, char **argv)
{
    bench_options o = bench_start(argc, argv, "bench_lab3");
    static const bench_matmul_kernel baseline = {
        "naive", "naive, x picks the column (lab 2)", LAB3_ROW_NAIVE};
    static const bench_matmul_kernel kernels[] = {
        {"tiled", "shared tiles, 32 x 32", LAB3_ROW_TILED},
        {"tiled_16", "shared tiles, 16 x 16", LAB3_ROW_TILED_16},
        {"thread_tile", "1D thread tile (bonus)", LAB3_ROW_THREAD_TILE},
    };
    static const int sizes[] = {1024, 2048, 4096};
    return bench_matmul(3, &lab_kernel_table, &baseline, kernels, 3, 0, sizes, 3, &o) != 0;
}
