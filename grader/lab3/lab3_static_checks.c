/* Lab 3 static checks: what the compiler made of the kernels (static shared
 * memory, registers, spills), read from the build's ptxas report for the
 * reference GPU (kernel_resources.h), so they are graded the same way with or
 * without a GPU. The kernels' names are the skeleton's. */
#include <stdio.h>

#include "harness.h"
#include "kernel_resources.h"
#include "lab3_checks.h"

void cpu_tiled_uses_shared_tiles(void **state)
{
    (void)state;
    char kernel[64];
    snprintf(kernel, sizeof kernel, "tiled_matmul_kernel<%d>", LAB3_TILE);
    kernel_expectation e = {kernel, "the tiled kernel (TILE 32)", "",
                            2u * LAB3_TILE * LAB3_TILE * sizeof(float), LAB3_TILE * LAB3_TILE,
                            "3.4", LAB3_HANDOUT, "3", "7"};
    kernel_resources_expect(&e);
}

void cpu_thread_tile_uses_shared_tiles(void **state)
{
    (void)state;
    kernel_expectation e = {
        "thread_tile_matmul_kernel", "the thread-tile kernel", "",
        (size_t)(LAB3_TT_BM * LAB3_TT_BK + LAB3_TT_BK * LAB3_TT_BN) * sizeof(float),
        LAB3_TT_THREADS_X * LAB3_TT_THREADS_Y, "3.12", LAB3_HANDOUT, "8", "8"};
    kernel_resources_expect(&e);
}
