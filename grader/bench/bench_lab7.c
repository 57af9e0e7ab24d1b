/* make bench, lab 7: the four stages, and lab 2's naive kernel, against
 * lab 3's 32 x 32 tiles (the grader's yardstick), with cuBLAS FP32 as the
 * ceiling, on squares of 256 .. 4096: the GFLOP/s-vs-size chart. */
#include "bench_matmul.h"
#include "lab2.h"
#include "lab3.h"
#include "lab7_stages.h"

int main(int argc, char **argv)
{
    bench_options o = bench_start(argc, argv, "bench_lab7");
    static const bench_matmul_kernel baseline = {
        "shared_tiles", "shared tiles, 32 x 32 (lab 3)", lab3_matmul_tiled};
    static const bench_matmul_kernel kernels[] = {
        {"naive", "naive (lab 2)", lab2_matmul_naive},
        {"block_tile_1d", "1D block tile", lab7_product_block_tile_1d},
        {"block_tile_2d", "2D block tile", lab7_product_block_tile_2d},
        {"vectorised", "vectorised (float4)", lab7_product_vectorised},
        {"warp_tile", "warp tile", lab7_product_warp_tile},
    };
    static const int sizes[] = {256, 512, 1024, 2048, 4096};
    return bench_matmul(7, &baseline, kernels, 5, sizes, 5, &o) != 0;
}
