/* Lab 3's kernel table (lab3_kernels.c): the rows, by index, for the
 * programs and checks that name one (the speed checks, make bench). */
#ifndef LAB3_KERNELS_H
#define LAB3_KERNELS_H

#include "kernel_table.h"

enum {
    LAB3_ROW_NAIVE,       /* lab 2's naive kernel (lab 2's reference): the yardstick */
    LAB3_ROW_TILED,       /* the student's tiled kernel, TILE 32 */
    LAB3_ROW_TILED_16,    /* the same kernel with TILE 16 */
    LAB3_ROW_THREAD_TILE, /* the 1D thread tile (the extension) */
    LAB3_ROW_COUNT
};

#endif
