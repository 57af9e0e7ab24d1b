/* Lab 8's kernel table (lab8_kernels.c): the rows, by index, for the
 * programs and checks that name one (the speed checks, stage identity,
 * make bench). */
#ifndef LAB8_KERNELS_H
#define LAB8_KERNELS_H

#include "kernel_table.h"

enum {
    LAB8_ROW_LAB7_WARP_TILE, /* lab 7's warp tile in FP32: the stages' yardstick */
    LAB8_ROW_WMMA_GLOBAL,    /* the student's two stages, in lab8_stage order */
    LAB8_ROW_WMMA_SHARED,
    LAB8_ROW_CUBLAS,         /* cuBLAS FP16 in, FP32 compute: the ceiling */
    LAB8_ROW_COUNT
};

#endif
