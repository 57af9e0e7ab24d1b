/* Lab 1's kernel table (lab1_kernels.c): the rows, by index. */
#ifndef LAB1_KERNELS_H
#define LAB1_KERNELS_H

#include "kernel_table.h"

enum {
    LAB1_ROW_COPY,          /* the grader's copy kernel, W*H floats */
    LAB1_ROW_COPY_ADD,      /* the same kernel over the vector add's bytes: 1.5 W*H floats */
    LAB1_ROW_IMAGE,         /* the student's element-wise kernels */
    LAB1_ROW_VECTOR_ADD,
    LAB1_ROW_GRID_STRIDE,
    LAB1_ROW_COUNT
};

#endif
