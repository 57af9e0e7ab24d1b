/* Lab 1's kernel table (lab1_kernels.c): the rows, by index, for the
 * programs and checks that name one (make bench, the speed checks). */
#ifndef LAB1_KERNELS_H
#define LAB1_KERNELS_H

#include "kernel_table.h"

enum {
    LAB1_ROW_COPY,          /* the grader's copy kernel, W*H floats */
    LAB1_ROW_COPY_ADD,      /* the same kernel over the vector add's bytes: 1.5 W*H floats */
    LAB1_ROW_IMAGE,         /* the student's element-wise kernels */
    LAB1_ROW_VECTOR_ADD,
    LAB1_ROW_GRID_STRIDE,
    LAB1_ROW_SWAPPED,       /* the grader's image kernel with x picking the row */
    LAB1_ROW_BLOCK_STRIDE,  /* the grader's block-stride loop */
    LAB1_ROW_MEMCPY,        /* cudaMemcpy of W*H floats: make bench's ceiling */
    LAB1_ROW_COUNT
};

/* The factor of the grid-stride rows (the student's loop and the grader's
 * block-stride one): the graders' speed check verifies factor * in. */
#define LAB1_STRIDE_FACTOR 3.0f

#endif
