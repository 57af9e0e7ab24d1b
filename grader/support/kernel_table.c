/* The small shared part of the kernel tables (kernel_table.h): launching a
 * row through the timing routine's context, its work, finding it by name,
 * and reading a size. */
#include "kernel_table.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "rng.h"

int kernel_call_launch(void *call)
{
    const kernel_call *c = call;
    return c->row->launch(&c->args);
}

double kernel_row_bytes(const kernel_row *row, const kernel_size size)
{
    return row->bytes ? row->bytes(size) : 0.0;
}

double kernel_row_flops(const kernel_row *row, const kernel_size size)
{
    return row->flops ? row->flops(size) : 0.0;
}

int kernel_size_parse(const char *text, int dims, long max_each, kernel_size out)
{
    memset(out, 0, sizeof(kernel_size));
    const char *p = text;
    for (int d = 0; d < dims; ++d) {
        char *end = NULL;
        errno = 0;
        long v = strtol(p, &end, 10);
        int last = d == dims - 1;
        if (end == p || errno || v <= 0 || v > max_each || (last ? *end != '\0' : *end != 'x'))
            return 0;
        out[d] = v;
        p = end + 1;
    }
    return 1;
}

float *kernel_device_array(const char *program, const float *host, size_t n)
{
    float *dev = NULL;
    size_t bytes = n * sizeof *dev;
    if (cudaMalloc((void **)&dev, bytes) != cudaSuccess) {
        fprintf(stderr, "%s: cannot allocate %zu bytes on the GPU\n", program, bytes);
        return NULL;
    }
    cudaError_t err = host ? cudaMemcpy(dev, host, bytes, cudaMemcpyHostToDevice)
                           : cudaMemset(dev, 0, bytes);
    if (err != cudaSuccess) {
        fprintf(stderr, "%s: cannot fill %zu bytes on the GPU: %s\n", program, bytes,
                cudaGetErrorString(err));
        cudaFree(dev);
        return NULL;
    }
    return dev;
}

float *kernel_host_integers(size_t n, unsigned long long seed, int lo, int hi)
{
    float *host = malloc(n * sizeof *host);
    if (!host) {
        fprintf(stderr, "race runner: out of host memory\n");
        return NULL;
    }
    rng_fill_integers(host, n, seed, lo, hi);
    return host;
}

/* The bench arrays of the size being benched (a few per problem). */
enum { BENCH_ARRAYS = 16 };
static float *bench_arrays[BENCH_ARRAYS];
static int bench_array_count;

float *kernel_bench_array(size_t n, unsigned long long seed, float fill)
{
    if (bench_array_count == BENCH_ARRAYS) {
        fprintf(stderr, "bench: more than %d arrays for one size\n", BENCH_ARRAYS);
        return NULL;
    }
    float *host = malloc(n * sizeof *host);
    if (!host) {
        fprintf(stderr, "bench: out of host memory for %zu floats\n", n);
        return NULL;
    }
    if (seed)
        rng_fill_uniform(host, n, seed, -1.0f, 1.0f);
    else
        for (size_t i = 0; i < n; ++i)
            host[i] = fill;
    float *dev = kernel_device_array("bench", host, n);
    free(host);
    if (dev)
        bench_arrays[bench_array_count++] = dev;
    return dev;
}

void kernel_bench_release(void)
{
    for (int i = 0; i < bench_array_count; ++i)
        cudaFree(bench_arrays[i]);
    bench_array_count = 0;
}
