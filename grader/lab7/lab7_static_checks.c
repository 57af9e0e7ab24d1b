/* Lab 7 static check: what the compiler made of each stage's kernel (static
 * shared memory, registers, spills), read from the build's ptxas report for
 * the reference GPU (kernel_resources.h), so it is graded the same way with
 * or without a GPU. The kernels' names are the skeleton's; the figures each
 * stage needs are those of lab7_gpu_common.c's stages. */
#include "harness.h"
#include "kernel_resources.h"
#include "lab7_checks.h"

#define TILES_BYTES(bm, bn, bk) ((size_t)((bm) * (bk) + (bk) * (bn)) * sizeof(float))

void cpu_kernel_resources(void **state)
{
    (void)state;
    static const kernel_expectation stages[] = {
        {"block_tile_1d_kernel", "the block_tile_1d kernel", "block_tile_1d",
         TILES_BYTES(LAB7_BT1_BM, LAB7_BT1_BN, LAB7_BT1_BK), LAB7_BT1_THREADS, "7.3",
         LAB7_HANDOUT, "5", "9"},
        {"block_tile_2d_kernel", "the block_tile_2d kernel", "block_tile_2d",
         TILES_BYTES(LAB7_BT2_BM, LAB7_BT2_BN, LAB7_BT2_BK), LAB7_BT2_THREADS, "7.5",
         LAB7_HANDOUT, "6", "9"},
        {"vectorised_kernel", "the vectorised kernel", "vectorised",
         TILES_BYTES(LAB7_BT2_BM, LAB7_BT2_BN, LAB7_BT2_BK), LAB7_BT2_THREADS, "7.7",
         LAB7_HANDOUT, "7", "9"},
        {"warp_tile_kernel<false>", "the warp_tile kernel", "warp_tile",
         TILES_BYTES(LAB7_WT_BM, LAB7_WT_BN, LAB7_WT_BK), LAB7_WT_THREADS, "7.9",
         LAB7_HANDOUT, "8", "9"},
        /* The optional final stage's small tile (the large one is stage 4's). */
        {"warp_tile_small_kernel", "the sized stage's small-tile kernel", "sized",
         TILES_BYTES(LAB7_WTS_BM, LAB7_WTS_BN, LAB7_WTS_BK), LAB7_WTS_THREADS, "7.12",
         LAB7_HANDOUT, "11", "11.3"},
    };
    for (size_t i = 0; i < sizeof stages / sizeof stages[0]; ++i)
        kernel_resources_expect(&stages[i]);
}
