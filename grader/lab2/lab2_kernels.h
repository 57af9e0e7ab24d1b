/* Lab 2's kernel table (lab2_kernels.c): the rows, by index, for the
 * programs and checks that name one (the speed checks, make bench). */
#ifndef LAB2_KERNELS_H
#define LAB2_KERNELS_H

#include "kernel_table.h"

enum {
    LAB2_ROW_UNCOALESCED, /* the grader's kernel with x picking the row: the yardstick */
    LAB2_ROW_NAIVE,       /* the student's naive kernel, x picking the column */
    LAB2_ROW_COUNT
};

#endif
