#include "bench_matmul.h"

#include <stdio.h>

#include <cuda_runtime_api.h>

#include "device_verify.h"
#include "lab7_cublas.h"
#include "matmul_kernels.h"

enum { MAX_KERNELS = 8 };

/* The ceiling of every matmul bench. Not a row of lab 2's or lab 3's
 * table: their graders and programs do not link cuBLAS (only lab 7's do). */
MATMUL_ADAPTER(cublas, lab7_cublas_matmul)
static const kernel_row CUBLAS_ROW = {.name = "cuBLAS SGEMM", .launch = cublas,
                                      .flops = matmul_flops};

static bench_entry entry(const bench_matmul_kernel *k, kernel_call *call)
{
    return (bench_entry){k->name, k->label, kernel_call_launch, call};
}

int bench_matmul(int lab, const kernel_table *table, const bench_matmul_kernel *baseline,
                 const bench_matmul_kernel *kernels, int kernel_count,
                 unsigned optional_kernels, const int *sizes, int size_count,
                 const bench_options *o)
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
        const kernel_args args = {.size = {n, n, n}, .in = {a, b}, .out = c};
        kernel_call base = {&table->rows[baseline->row], args}, ceiling = {&CUBLAS_ROW, args};
        kernel_call calls[MAX_KERNELS];
        bench_entry entries[MAX_KERNELS];
        for (int k = 0; k < kernel_count; ++k) {
            calls[k] = (kernel_call){&table->rows[kernels[k].row], args};
            entries[k] = entry(&kernels[k], &calls[k]);
        }
        /* Twice the graders' tolerance: the baseline is not exact either. */
        const kernel_tolerance tol = matmul_time_tolerance(args.size);
        char size[32];
        snprintf(size, sizeof size, "%d", n);
        bench_problem p = {
            .lab = lab, .problem = "matmul", .size = size, .x = n,
            .work = kernel_row_flops(base.row, args.size), .unit = "GFLOP/s",
            .baseline = entry(baseline, &base),
            .kernels = entries, .kernel_count = kernel_count,
            .optional_kernels = optional_kernels,
            .ceiling = {"cublas", "cuBLAS SGEMM, FP32 (pedantic: no TF32)", kernel_call_launch,
                        &ceiling},
            .ceiling_name = "cublas_fp32",
            .out = c, .out_count = (size_t)n * n, .atol = tol.atol, .rtol = tol.rtol};
        int status = bench_run(&p, o);
        first_error = first_error ? first_error : status;
    }
    cudaFree(a);
    cudaFree(b);
    cudaFree(c);
    return first_error;
}
