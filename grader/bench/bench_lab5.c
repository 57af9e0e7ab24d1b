/* make bench, lab 5: the six reduction stages against the grader's
 * divergent stage (1), with cudaMemcpy as the ceiling: the copy moves n/2
 * floats, so it reads and writes as many bytes as the reduction reads (the
 * graders' definition, grader/lab5/lab5_rubric.h). */
#include <stdio.h>

#include "bench_copy.h"
#include "bench_core.h"
#include "device_buffer.h"
#include "lab5.h"
#include "lab5_baselines.h"

typedef struct {
    const float *in;
    float *out;
    int n;
    lab_status (*fn)(const float *, float *, int);
} sum_call;

static int launch_sum(void *ctx)
{
    sum_call *c = ctx;
    return c->fn(c->in, c->out, c->n);
}

static const int SIZES[] = {1 << 24, 1 << 26, 1 << 27};
static const char *SIZE_NAMES[] = {"2^24", "2^26", "2^27"};
enum { STAGES = 6 };

int main(int argc, char **argv)
{
    bench_options o = bench_start(argc, argv, "bench_lab5");
    const size_t most = (size_t)1 << 27;
    float *in = bench_alloc_floats(most), *copy_out = bench_alloc_floats(most / 2),
          *sum = bench_alloc_floats(1);
    /* All ones: every partial sum is an integer a float holds exactly, so
     * every stage must agree with the baseline to the last bit. */
    device_fill_u32(in, 0x3f800000u, most);
    bench_plan(3 * (STAGES + 2));
    static const struct {
        const char *name, *label;
        lab_status (*fn)(const float *, float *, int);
    } STAGE[STAGES] = {
        {"divergent", "(1) interleaved pairs, divergent", lab5_sum_divergent},
        {"strided", "(2) contiguous threads, bank conflicts", lab5_sum_strided},
        {"sequential", "(3) sequential addressing", lab5_sum_sequential},
        {"first_add", "(4) first add during the load", lab5_sum_first_add},
        {"warp_shuffle", "(5) last warp with shuffles", lab5_sum_warp_shuffle},
        {"grid_stride", "(6) grid-stride, float4, one wave", lab5_sum_grid_stride},
    };
    int first_error = 0;
    for (int s = 0; s < 3; ++s) {
        const int n = SIZES[s];
        sum_call baseline = {in, sum, n, lab5_baseline_sum_divergent};
        sum_call calls[STAGES];
        bench_entry kernels[STAGES];
        for (int k = 0; k < STAGES; ++k) {
            calls[k] = (sum_call){in, sum, n, STAGE[k].fn};
            kernels[k] = (bench_entry){STAGE[k].name, STAGE[k].label, launch_sum, &calls[k]};
        }
        bench_copy_call copy = {in, copy_out, (size_t)n / 2};
        bench_problem p = {
            .lab = 5, .problem = "sum", .size = SIZE_NAMES[s], .x = n,
            .work = (double)n * sizeof(float), .unit = "GB/s",
            .baseline = {"grader_divergent", "the grader's divergent stage (1)", launch_sum,
                         &baseline},
            .kernels = kernels, .kernel_count = STAGES,
            .ceiling = {"memcpy", "cudaMemcpy of n/2 floats (the same bytes)",
                        bench_launch_memcpy, &copy},
            .ceiling_name = "memcpy_d2d",
            .out = sum, .out_count = 1, .atol = 0.0, .rtol = 0.0};
        int status = bench_run(&p, &o);
        first_error = first_error ? first_error : status;
    }
    return first_error != 0;
}
