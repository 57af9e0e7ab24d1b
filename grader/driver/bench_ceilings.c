/* Ceilings that make bench brings from outside a lab's kernel table, by
 * the results' name (kernel_bench_problem.outside_ceiling): labs 2 and 3
 * are benched against cuBLAS, which their graders, which link their
 * tables, neither need nor link. Lab 7's table has the same ceiling as a
 * row of its own (its grader times the warp tile against it). */
#include <string.h>

#include "kernel_bench.h"
#include "lab7_cublas.h"
#include "matmul_kernels.h"

MATMUL_ADAPTER(cublas_fp32, lab7_cublas_matmul)

static const kernel_row CUBLAS_FP32 = {
    .name = "cuBLAS SGEMM (FP32, the ceiling)", .launch = cublas_fp32, .flops = matmul_flops,
    .bench = {.role = KERNEL_BENCH_CEILING, .key = "cublas",
              .label = "cuBLAS SGEMM, FP32 (pedantic: no TF32)", .ceiling = "cublas_fp32"}};

const kernel_row *kernel_bench_outside_ceiling(const char *name)
{
    return strcmp(name, CUBLAS_FP32.bench.ceiling) == 0 ? &CUBLAS_FP32 : NULL;
}
