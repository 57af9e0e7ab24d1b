/* Lab 7's kernel table (lab7_kernels.c): the rows, by index, for the
 * programs and checks that name one (the speed checks, the size bench,
 * make plot-lab7, make bench). */
#ifndef LAB7_KERNELS_H
#define LAB7_KERNELS_H

#include "kernel_table.h"

enum {
    LAB7_ROW_LAB2_NAIVE,    /* lab 2's naive kernel: where the size plot starts */
    LAB7_ROW_LAB3,          /* lab 3's tiles: every stage's yardstick */
    LAB7_ROW_BLOCK_TILE_1D, /* the student's four stages, in lab7_stage order */
    LAB7_ROW_BLOCK_TILE_2D,
    LAB7_ROW_VECTORISED,
    LAB7_ROW_WARP_TILE,
    LAB7_ROW_CUBLAS,        /* cuBLAS FP32: the ceiling */
    LAB7_ROW_ANY_SIZE,      /* the any-size extension: race rows only */
    LAB7_ROW_LAB3_THREAD_TILE, /* lab 3's thread tile: the speed checks' self-test stand-in */
    LAB7_ROW_SIZED,         /* the optional final stage: the block tile chosen per size */
    LAB7_ROW_COUNT
};

#endif
