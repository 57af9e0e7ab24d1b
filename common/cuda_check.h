/* Checking every CUDA call.
 *
 * Two flavours, because labs and graders react differently to a failure:
 *  - LAB_CUDA_TRY(call): inside a lab entry point; on error it records the
 *    message and returns LAB_ERR_CUDA from the enclosing function, so the
 *    grader gets a status instead of a dead process.
 *  - CUDA_CHECK(call): in graders, tests and tools; on error it calls the
 *    installed handler (the grader harness fails the current test with the
 *    message; the default prints and exits). */
#ifndef CUDA_CHECK_H
#define CUDA_CHECK_H

#include <cuda_runtime_api.h>

#include "lab_status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef void (*cuda_error_handler)(const char *message);

/* Installs the handler CUDA_CHECK calls; NULL restores the default. */
void cuda_set_error_handler(cuda_error_handler handler);

void cuda_check_failed(cudaError_t err, const char *expr, const char *file, int line);

#ifdef __cplusplus
}
#endif

#define CUDA_CHECK(call)                                                     \
    do {                                                                     \
        cudaError_t cuda_check_err_ = (call);                                \
        if (cuda_check_err_ != cudaSuccess)                                  \
            cuda_check_failed(cuda_check_err_, #call, __FILE__, __LINE__);   \
    } while (0)

#define LAB_CUDA_TRY(call)                                                   \
    do {                                                                     \
        cudaError_t lab_cuda_err_ = (call);                                  \
        if (lab_cuda_err_ != cudaSuccess)                                    \
            return lab_fail(LAB_ERR_CUDA, "%s failed at %s:%d: %s", #call,   \
                            __FILE__, __LINE__,                              \
                            cudaGetErrorString(lab_cuda_err_));              \
    } while (0)

/* After a <<<launch>>>: catches bad configurations at once (the kernel's own
 * faults surface at the next synchronising call). */
#define LAB_LAUNCH_CHECK() LAB_CUDA_TRY(cudaGetLastError())

#endif
