/* make bench, lab 7: the four stages, the optional final stage (left out
 * where it is not written), and lab 2's naive kernel, against
 * lab 3's 32 x 32 tiles (the grader's yardstick), with cuBLAS FP32 as the
 * ceiling, on squares of 256 .. 4096: the GFLOP/s-vs-size chart. The
 * kernels and their work are rows of lab 7's kernel table (lab7_kernels.c);
 * the keys and labels are the result file's. */
#include "bench_matmul.h"
#include "lab7_kernels.h"

int main(int argc, char **argv)
{
    bench_options o = bench_start(argc, argv, "bench_lab7");
    static const bench_matmul_kernel baseline = {
        "shared_tiles", "shared tiles, 32 x 32 (lab 3)", LAB7_ROW_LAB3};
    static const bench_matmul_kernel kernels[] = {
        {"naive", "naive (lab 2)", LAB7_ROW_LAB2_NAIVE},
        {"block_tile_1d", "1D block tile", LAB7_ROW_BLOCK_TILE_1D},
        {"block_tile_2d", "2D block tile", LAB7_ROW_BLOCK_TILE_2D},
        {"vectorised", "vectorised (float4)", LAB7_ROW_VECTORISED},
        {"warp_tile", "warp tile", LAB7_ROW_WARP_TILE},
        {"sized", "warp tile, block tile per size (final stage)", LAB7_ROW_SIZED},
    };
    static const int sizes[] = {256, 512, 1024, 2048, 4096};
    const unsigned optional = 1u << 5; /* the final stage */
    return bench_matmul(7, &lab_kernel_table, &baseline, kernels, 6, optional, sizes, 5, &o) != 0;
}
