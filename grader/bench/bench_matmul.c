#include "bench_matmul.h"

#include <stdio.h>

#include <cuda_runtime_api.h>

#include "compare.h"
#include "device_verify.h"
#include "lab7_cublas.h"
#include "time_kernels.h" /* time_matmul: a square product as a timed launch */

enum { MAX_KERNELS = 8 };

int bench_matmul(int lab, const bench_matmul_kernel *baseline, const bench_matmul_kernel *kernels,
                 int kernel_count, const int *sizes, int size_count, const bench_options *o)
{
    if (kernel_count > MAX_KERNELS) {
        fprintf(stderr, "bench_matmul: at most %d kernels\n", MAX_KERNELS);
        return 1;
    }
    int largest = 0;
    for (int s = 0; s < size_count; ++s)
        largest = sizes[s] > largest ? sizes[s] : largest;
    const size_t most = (size_t)largest * largest;
    float *a = bench_alloc_floats(most), *b = bench_alloc_floats(most),
          *c = bench_alloc_floats(most);
    bench_plan(size_count * (2 + kernel_count));

    int first_error = 0;
    for (int s = 0; s < size_count; ++s) {
        const int n = sizes[s];
        device_fill_uniform(a, (size_t)n * n, o->seed, -1.0f, 1.0f);
        device_fill_uniform(b, (size_t)n * n, o->seed + 1, -1.0f, 1.0f);
        time_matmul calls[MAX_KERNELS + 2];
        bench_entry entries[MAX_KERNELS];
        calls[0] = (time_matmul){baseline->fn, a, b, c, n, n, n};
        for (int k = 0; k < kernel_count; ++k) {
            calls[k + 1] = (time_matmul){kernels[k].fn, a, b, c, n, n, n};
            entries[k] = (bench_entry){kernels[k].name, kernels[k].label, time_matmul_launch,
                                       &calls[k + 1]};
        }
        calls[kernel_count + 1] = (time_matmul){lab7_cublas_matmul, a, b, c, n, n, n};
        char size[32];
        snprintf(size, sizeof size, "%d", n);
        bench_problem p = {
            .lab = lab, .problem = "matmul", .size = size, .x = n,
            .work = 2.0 * n * (double)n * n, .unit = "GFLOP/s",
            .baseline = {baseline->name, baseline->label, time_matmul_launch, &calls[0]},
            .kernels = entries, .kernel_count = kernel_count,
            .ceiling = {"cublas", "cuBLAS SGEMM, FP32 (pedantic: no TF32)", time_matmul_launch,
                        &calls[kernel_count + 1]},
            .ceiling_name = "cublas_fp32",
            /* Twice the graders' tolerance: the baseline is not exact either. */
            .out = c, .out_count = (size_t)n * n, .atol = 2.0 * compare_dot_atol((size_t)n),
            .rtol = 2.0 * MATMUL_RTOL};
        int status = bench_run(&p, o);
        first_error = first_error ? first_error : status;
    }
    cudaFree(a);
    cudaFree(b);
    cudaFree(c);
    return first_error;
}
