/* Lab 4 GPU checks: what every GPU check needs to know about a version. */
#ifndef LAB4_GPU_COMMON_H
#define LAB4_GPU_COMMON_H

#include "lab4.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    const char *name;     /* "smem", "padded", "multirow", "vector" */
    const char *todo;     /* the kernel's TODO, e.g. "4.6" */
    const char *section;  /* the handout section about the kernel */
    int block_threads;    /* threads per block of its launch */
    int tile;             /* floats on a side of its shared tile */
    const char *hint;     /* what to check when its output is wrong */
} lab4_version_info;

const lab4_version_info *lab4_version_about(lab4_version version);

#ifdef __cplusplus
}
#endif

#endif
