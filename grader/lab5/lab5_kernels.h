/* Lab 5's kernel table (lab5_kernels.c): the rows, by index, for the
 * programs and checks that name one (make bench, the speed checks). */
#ifndef LAB5_KERNELS_H
#define LAB5_KERNELS_H

#include "kernel_table.h"

enum {
    LAB5_ROW_GRADER_DIVERGENT, /* the grader's stage (1): every stage's yardstick */
    LAB5_ROW_MEMCPY_HALF,      /* cudaMemcpy of n/2 floats: the bytes a sum reads, the ceiling
                                  (make bench's, and the fraction-of-copy checks') */
    LAB5_ROW_DIVERGENT,        /* the student's stages (1)-(6); (4)-(6) extensions */
    LAB5_ROW_STRIDED,
    LAB5_ROW_SEQUENTIAL,
    LAB5_ROW_FIRST_ADD,
    LAB5_ROW_WARP_SHUFFLE,
    LAB5_ROW_GRID_STRIDE,
    LAB5_ROW_DIVERGENT_NO_ATOMIC, /* the same six, each block's sum stored in a slot of its
                                     own instead of atomicAdd into *out (lab5_set_partials):
                                     make time-lab5 only, against the stage with its atomic */
    LAB5_ROW_STRIDED_NO_ATOMIC,
    LAB5_ROW_SEQUENTIAL_NO_ATOMIC,
    LAB5_ROW_FIRST_ADD_NO_ATOMIC,
    LAB5_ROW_WARP_SHUFFLE_NO_ATOMIC,
    LAB5_ROW_GRID_STRIDE_NO_ATOMIC,
    LAB5_ROW_COUNT
};

#endif
