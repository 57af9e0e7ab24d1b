/* Lab 8 grader: the tests (CPU simulation and GPU runs). */
#ifndef LAB8_CHECKS_H
#define LAB8_CHECKS_H

#include "lab8.h"

#define LAB8_HANDOUT "handouts/lab8-tensor-cores.md"

#ifdef __cplusplus
extern "C" {
#endif

/* CPU: the student's index helper on simulated launches (lab8_cpu_checks.c). */
void cpu_element_index_coverage(void **state);

/* GPU: the student's kernel (lab8_gpu_checks.c). */
void gpu_scale(void **state);

#ifdef __cplusplus
}
#endif

#endif
