/* make bench, lab 4: the three shared-memory transposes against the naive
 * one (the grader's baseline), beside the grader's unpadded tile and
 * cudaMemcpy of the same bytes (the ceiling). */
#include <stdio.h>

#include "bench_copy.h"
#include "bench_core.h"
#include "device_verify.h"
#include "lab4.h"
#include "lab4_baselines.h"

typedef struct {
    const float *in;
    float *out;
    int edge;
    int version; /* a lab4_version, or -1 for `baseline` */
    lab_status (*baseline)(const float *, float *, int, int);
} transpose_call;

static int launch_transpose(void *ctx)
{
    transpose_call *c = ctx;
    if (c->version < 0)
        return c->baseline(c->in, c->out, c->edge, c->edge);
    return lab4_transpose((lab4_version)c->version, c->in, c->out, c->edge, c->edge);
}

static const int EDGES[] = {2048, 4096, 8192};

int main(int argc, char **argv)
{
    bench_options o = bench_start(argc, argv, "bench_lab4");
    const size_t most = (size_t)8192 * 8192;
    float *in = bench_alloc_floats(most), *out = bench_alloc_floats(most);
    device_fill_uniform(in, most, o.seed, -1.0f, 1.0f);
    bench_plan(3 * 6);
    int first_error = 0;
    for (int s = 0; s < 3; ++s) {
        const int edge = EDGES[s];
        const size_t n = (size_t)edge * edge;
        transpose_call naive = {in, out, edge, -1, lab4_baseline_naive};
        transpose_call unpadded = {in, out, edge, -1, lab4_baseline_unpadded};
        transpose_call smem = {in, out, edge, LAB4_SMEM, NULL};
        transpose_call padded = {in, out, edge, LAB4_PADDED, NULL};
        transpose_call multirow = {in, out, edge, LAB4_MULTIROW, NULL};
        bench_copy_call copy = {in, out, n};
        bench_entry kernels[] = {
            {"smem", "(b) shared tile, 32 x 32 threads (lab 4)", launch_transpose, &smem},
            {"padded", "(c) padded tile (lab 4)", launch_transpose, &padded},
            {"multirow", "(d) padded, 32 x 8 threads, 4 rows each (lab 4)", launch_transpose,
             &multirow},
            {"unpadded", "unpadded tile (grader's baseline for (c))", launch_transpose,
             &unpadded},
        };
        char size[32];
        snprintf(size, sizeof size, "%dx%d", edge, edge);
        bench_problem p = {
            .lab = 4, .problem = "transpose", .size = size, .x = edge,
            .work = 2.0 * n * sizeof(float), .unit = "GB/s",
            .baseline = {"naive", "naive transpose (grader's baseline)", launch_transpose, &naive},
            .kernels = kernels, .kernel_count = 4,
            .ceiling = {"memcpy", "cudaMemcpy, device to device", bench_launch_memcpy, &copy},
            .ceiling_name = "memcpy_d2d",
            .out = out, .out_count = n, .atol = 0.0, .rtol = 0.0};
        int status = bench_run(&p, &o);
        first_error = first_error ? first_error : status;
    }
    return first_error != 0;
}
