/* Lab 4's kernel table (lab4_kernels.c): the rows, by index, for the
 * programs and checks that name one (the speed checks' yardsticks). */
#ifndef LAB4_KERNELS_H
#define LAB4_KERNELS_H

#include "kernel_table.h"

enum {
    LAB4_ROW_NAIVE,     /* the grader's naive transpose: smem's yardstick */
    LAB4_ROW_UNPADDED,  /* the grader's unpadded tile: padded's yardstick */
    LAB4_ROW_MEMCPY,    /* cudaMemcpy of the same bytes: multirow's yardstick */
    LAB4_ROW_SMEM,      /* the student's three versions, in lab4_version order */
    LAB4_ROW_PADDED,
    LAB4_ROW_MULTIROW,
    LAB4_ROW_VECTOR,    /* the final stage (e), an extension: cudaMemcpy its yardstick */
    LAB4_ROW_COUNT
};

/* Bytes a transpose of size[0] x size[1] floats moves: each read and written once. */
double lab4_transpose_bytes(const kernel_size size);

#endif
