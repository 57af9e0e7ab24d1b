#include "cuda_check.h"

#include <stdio.h>
#include <stdlib.h>

static void default_handler(const char *message)
{
    fprintf(stderr, "%s\n", message);
    exit(EXIT_FAILURE);
}

static cuda_error_handler current_handler = default_handler;

void cuda_set_error_handler(cuda_error_handler handler)
{
    current_handler = handler ? handler : default_handler;
}

void cuda_check_failed(cudaError_t err, const char *expr, const char *file, int line)
{
    char message[512];
    snprintf(message, sizeof message, "CUDA error %s (%s) from %s at %s:%d",
             cudaGetErrorName(err), cudaGetErrorString(err), expr, file, line);
    current_handler(message);
}
