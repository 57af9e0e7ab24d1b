/* What the `make profile-labN` runners (grader/labN/labN_profile_runner.c)
 * share: three zeroed device arrays to run on, a line for an entry point
 * that refused to run, and the final check that every kernel finished.
 * A runner calls each entry point once; Nsight Compute does the measuring
 * (grader/tools/ncu_profile.py), so nothing here times or checks results. */
#ifndef PROFILE_RUNNER_H
#define PROFILE_RUNNER_H

#include <stddef.h>

#include "lab_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The matrix runners' (labs 2, 3, 7) one argument: the size of square
 * matrices, `fallback` without it, else a multiple of `multiple` in
 * 1..`largest`. Returns it, or 0 after a usage line on stderr. */
int profile_matrix_size(int argc, char **argv, int fallback, int multiple, int largest);

/* Three arrays of `bytes` on the GPU, the first two zeroed (inputs, the
 * third the output). Returns 1, or 0 after one line on stderr naming
 * `runner` (e.g. "lab3_profile"). */
int profile_device_arrays(const char *runner, size_t bytes, float **in0, float **in1, float **out);

/* One line when an entry point returned an error: the kernel was not run,
 * so the profile will not show it. */
void profile_report(const char *runner, const char *what, lab_status status);

/* Waits for every kernel and frees the arrays; the process exit status:
 * 0, or 1 after one line when a kernel failed. */
int profile_finish(const char *runner, float *in0, float *in1, float *out);

#ifdef __cplusplus
}
#endif

#endif
