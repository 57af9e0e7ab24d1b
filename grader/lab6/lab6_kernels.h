/* Lab 6's kernel table (lab6_kernels.c): the rows, by index, for the
 * programs and checks that name one (the speed checks, make bench). Each
 * pipeline row's args.lab is a lab6_timed_call (lab6_baselines.h). */
#ifndef LAB6_KERNELS_H
#define LAB6_KERNELS_H

#include "kernel_table.h"

enum {
    LAB6_ROW_SERIAL,       /* the grader's serial pipeline: the yardstick */
    LAB6_ROW_STREAMED,     /* the student's streamed pipeline */
    LAB6_ROW_PROFILED_RUN, /* one run of it, for make profile-lab6 */
    LAB6_ROW_BREADTH_FIRST, /* the streamed pipeline breadth-first: make bench only */
    LAB6_ROW_LONGEST_STAGE, /* the longest stage alone: make bench's ceiling */
    LAB6_ROW_COUNT
};

#endif
