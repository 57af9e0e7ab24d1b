/* make bench, lab 4: the three shared-memory transposes and the optional
 * final stage (left out where it is not written) against the naive one
 * (the grader's baseline), beside the grader's unpadded tile and
 * cudaMemcpy of the same bytes (the ceiling). The kernels, the work and
 * the ceiling are rows of lab 4's kernel table (lab4_kernels.c); the keys
 * and labels are the result file's. */
#include <stdio.h>

#include "bench_core.h"
#include "device_verify.h"
#include "lab4_kernels.h"

static const int EDGES[] = {2048, 4096, 8192};

int main(int argc, char **argv)
{
    bench_options o = bench_start(argc, argv, "bench_lab4");
    const size_t most = (size_t)8192 * 8192;
    float *in = bench_alloc_floats(most), *out = bench_alloc_floats(most);
    device_fill_uniform(in, most, o.seed, -1.0f, 1.0f);
    bench_plan(3 * 7);
    int first_error = 0;
    for (int s = 0; s < 3; ++s) {
        const int edge = EDGES[s];
        const kernel_args args = {.size = {edge, edge}, .in = {in, NULL}, .out = out};
        kernel_call calls[LAB4_ROW_COUNT];
        for (int r = 0; r < LAB4_ROW_COUNT; ++r)
            calls[r] = (kernel_call){&lab_kernel_table.rows[r], args};
        bench_entry kernels[] = {
            {"smem", "(b) shared tile, 32 x 32 threads (lab 4)", kernel_call_launch,
             &calls[LAB4_ROW_SMEM]},
            {"padded", "(c) padded tile (lab 4)", kernel_call_launch, &calls[LAB4_ROW_PADDED]},
            {"multirow", "(d) padded, 32 x 8 threads, 4 rows each (lab 4)", kernel_call_launch,
             &calls[LAB4_ROW_MULTIROW]},
            {"vector", "(e) 64 x 64 tile moved as float4s (final stage)", kernel_call_launch,
             &calls[LAB4_ROW_VECTOR]},
            {"unpadded", "unpadded tile (grader's baseline for (c))", kernel_call_launch,
             &calls[LAB4_ROW_UNPADDED]},
        };
        char size[32];
        snprintf(size, sizeof size, "%dx%d", edge, edge);
        bench_problem p = {
            .lab = 4, .problem = "transpose", .size = size, .x = edge,
            .work = kernel_row_bytes(calls[LAB4_ROW_SMEM].row, args.size), .unit = "GB/s",
            .baseline = {"naive", "naive transpose (grader's baseline)", kernel_call_launch,
                         &calls[LAB4_ROW_NAIVE]},
            .kernels = kernels, .kernel_count = 5, .optional_kernels = 1u << 3, /* (e) */
            .ceiling = {"memcpy", "cudaMemcpy, device to device", kernel_call_launch,
                        &calls[LAB4_ROW_MEMCPY]},
            .ceiling_name = "memcpy_d2d",
            .out = out, .out_count = (size_t)edge * edge, .atol = 0.0, .rtol = 0.0};
        int status = bench_run(&p, &o);
        first_error = first_error ? first_error : status;
    }
    return first_error != 0;
}
