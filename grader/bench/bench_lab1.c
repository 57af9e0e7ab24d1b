/* make bench, lab 1: the 2D image kernel against the grader's swapped
 * mapping (x picks the row), and the grid-stride loop against the grader's
 * block-stride mistake; each beside the graders' copy kernel (the yardstick
 * of lab 1's speed checks) and cudaMemcpy (the ceiling) on the same bytes. */
#include <stdio.h>

#include "bench_copy.h"
#include "bench_core.h"
#include "device_verify.h"
#include "lab1.h"
#include "lab1_checks.h"

typedef struct {
    const float *in;
    float *out;
    int width, height;
    lab_status (*fn)(const float *, float *, int, int);
} image_call;

static int launch_image(void *ctx)
{
    image_call *c = ctx;
    return c->fn(c->in, c->out, c->width, c->height);
}

typedef struct {
    const float *in;
    float *out;
    int n;
    lab_status (*fn)(const float *, float *, float, int);
} scale_call;

static int launch_scale(void *ctx)
{
    scale_call *c = ctx;
    return c->fn(c->in, c->out, 2.0f, c->n);
}

static const int IMAGE_EDGES[] = {2048, 4096, 8192};
/* The grader's size (2^22 + 3) and one four times larger. */
static const int STRIDE_SIZES[] = {(1 << 22) + 3, (1 << 24) + 3};
static const char *STRIDE_NAMES[] = {"2^22+3", "2^24+3"};

int main(int argc, char **argv)
{
    bench_options o = bench_start(argc, argv, "bench_lab1");
    const size_t most = (size_t)8192 * 8192;
    float *in = bench_alloc_floats(most), *out = bench_alloc_floats(most);
    device_fill_uniform(in, most, o.seed, -1.0f, 1.0f);
    bench_plan(3 * 4 + 2 * 4);
    int first_error = 0;

    for (int s = 0; s < 3; ++s) {
        const int edge = IMAGE_EDGES[s];
        const size_t n = (size_t)edge * edge;
        image_call swapped = {in, out, edge, edge, lab1_baseline_image_double_swapped};
        image_call image = {in, out, edge, edge, lab1_image_double};
        bench_copy_call copy = {in, out, n};
        bench_entry kernels[] = {
            {"image_double", "2D image kernel, x picks the column (lab 1)", launch_image, &image},
            {"copy_kernel", "1D copy kernel (the graders' yardstick)", bench_launch_copy_kernel,
             &copy},
        };
        char size[32];
        snprintf(size, sizeof size, "%dx%d", edge, edge);
        bench_problem p = {
            .lab = 1, .problem = "image_double", .size = size, .x = edge,
            .work = 2.0 * n * sizeof(float), .unit = "GB/s",
            .baseline = {"swapped", "2D, x picks the row (grader's baseline)", launch_image,
                         &swapped},
            .kernels = kernels, .kernel_count = 2,
            .ceiling = {"memcpy", "cudaMemcpy, device to device", bench_launch_memcpy, &copy},
            .ceiling_name = "memcpy_d2d",
            /* The copy kernel writes in, not 2 * in: it is timed, not compared. */
            .out = NULL};
        int status = bench_run(&p, &o);
        first_error = first_error ? first_error : status;
    }
    for (int s = 0; s < 2; ++s) {
        const int n = STRIDE_SIZES[s];
        scale_call block_stride = {in, out, n, lab1_baseline_scale_block_stride};
        scale_call grid_stride = {in, out, n, lab1_scale_grid_stride};
        bench_copy_call copy = {in, out, (size_t)n};
        bench_entry kernels[] = {
            {"grid_stride", "grid-stride loop, fixed grid (lab 1)", launch_scale, &grid_stride},
            {"copy_kernel", "1D copy kernel (the graders' yardstick)", bench_launch_copy_kernel,
             &copy},
        };
        bench_problem p = {
            .lab = 1, .problem = "grid_stride", .size = STRIDE_NAMES[s], .x = n,
            .work = 2.0 * n * sizeof(float), .unit = "GB/s",
            .baseline = {"block_stride", "block-stride loop (grader's baseline)", launch_scale,
                         &block_stride},
            .kernels = kernels, .kernel_count = 2,
            .ceiling = {"memcpy", "cudaMemcpy, device to device", bench_launch_memcpy, &copy},
            .ceiling_name = "memcpy_d2d", .out = NULL};
        int status = bench_run(&p, &o);
        first_error = first_error ? first_error : status;
    }
    return first_error != 0;
}
