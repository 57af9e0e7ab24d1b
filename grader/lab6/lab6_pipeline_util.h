/* Lab 6 grader: the steps every GPU check repeats on the student's
 * pipeline, each under the watchdog and failing the test with a message
 * that names the TODO and the handout section. */
#ifndef LAB6_PIPELINE_UTIL_H
#define LAB6_PIPELINE_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "lab6.h"

#ifdef __cplusplus
extern "C" {
#endif

/* lab6_pipeline_create, which must succeed and give two host buffers. */
lab6_pipeline *pipeline_open(int capacity, int streams);
/* lab6_pipeline_destroy, which must succeed. */
void pipeline_close(lab6_pipeline *p, const char *what);

/* "lab6_pipeline_run(n=..., chunks=..., work=..., depth-first) with 8 streams" */
void describe_run(char *out, size_t size, int n, int chunks, int work, lab6_order order,
                  int streams);
const char *order_name(lab6_order order);

/* Runs and waits for the device; the run must return LAB_OK and finish
 * without a fault. */
void pipeline_run_and_wait(lab6_pipeline *p, int n, int chunks, int work, lab6_order order,
                           int streams);

/* Host input [0, n) uniform in [-1, 1) from `seed`. */
void pipeline_fill_input(lab6_pipeline *p, int n, uint64_t seed);

#ifdef __cplusplus
}
#endif

#endif
