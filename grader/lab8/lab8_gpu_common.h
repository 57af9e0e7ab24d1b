/* Lab 8 GPU checks: what every GPU check needs to know about a stage. */
#ifndef LAB8_GPU_COMMON_H
#define LAB8_GPU_COMMON_H

#include "lab8.h"
#include "launch_shape.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A stage's entry point: lab8_wmma_global or lab8_wmma_shared. */
typedef lab_status (*lab8_gemm_fn)(int m, int n, int k, float alpha, const lab8_half *a,
                                   const lab8_half *b, float beta, float *c);

typedef struct {
    lab8_stage stage;
    const char *name;  /* "lab8_wmma_global" */
    lab8_gemm_fn fn;
    int row;           /* its row of the kernel table (lab8_kernels.h) */
    int mult_m, mult_n, mult_k; /* the multiples of M, N and K it takes */
    const char *hint;  /* what to check when its output is wrong */
} lab8_stage_info;

const lab8_stage_info *lab8_stage_about(lab8_stage stage);

/* The launch the stage's entry point makes on an m x n C (given code): 1D
 * blocks of the stage's threads, one per block tile. `where` (size bytes)
 * receives the explanation the shape points to. */
launch_shape lab8_stage_launch(lab8_stage stage, int m, int n, char *where, size_t size);

/* WMMA on FP16 needs sm_70 and the course builds from sm_75: on an older
 * GPU, ends the test as skipped, "not gradable on this GPU" (never failed).
 * Calls grader_require_gpu first. */
void lab8_require_tensor_cores(void);

#ifdef __cplusplus
}
#endif

#endif
