/* Lab 7 GPU checks: what every GPU check needs to know about a stage. */
#ifndef LAB7_GPU_COMMON_H
#define LAB7_GPU_COMMON_H

#include "lab7.h"
#include "matmul_checks.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    lab7_stage stage;
    const char *name;        /* "block_tile_1d" */
    const char *kernel_todo; /* the kernel's TODO, e.g. "7.3" */
    const char *section;     /* the handout section about the stage */
    int threads;             /* threads per block of its launch */
    size_t shared_bytes;     /* the least static shared memory its tiles need */
    const char *hint;        /* what to check when its output is wrong */
    matmul_impl impl;        /* the stage as C = A * B (alpha 1, beta 0), for grader/matmul */
} lab7_stage_info;

const lab7_stage_info *lab7_stage_about(lab7_stage stage);

/* The launch lab7_sgemm makes for `stage` on s (its launch is given code,
 * lab7.h): 1D blocks of the stage's threads, one per block tile of C; for
 * LAB7_STAGE_SIZED the tile the grader's chooser picks for `sms` SMs. The
 * graded calls and the timed calls are judged by it (launch_shape.h);
 * `where` (size bytes) receives the explanation the shape points to. */
launch_shape lab7_stage_launch(lab7_stage stage, matmul_shape s, int sms, char *where,
                               size_t size);

/* Lab 3's tiled kernel (the baseline) and its thread-tile kernel, from
 * lab 3's reference (lab3_reference), as the self-tests that time them in
 * a stage's place name them (the kernel table launches them). */
extern const matmul_impl LAB7_LAB3_TILED;
extern const matmul_impl LAB7_LAB3_THREAD_TILE;

#ifdef __cplusplus
}
#endif

#endif
