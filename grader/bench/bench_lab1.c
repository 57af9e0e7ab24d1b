/* make bench, lab 1: the 2D image kernel against the grader's swapped
 * mapping (x picks the row), and the grid-stride loop against the grader's
 * block-stride mistake; each beside the graders' copy kernel (the yardstick
 * of lab 1's speed checks) and cudaMemcpy (the ceiling) on the same bytes.
 * The kernels and their work are rows of lab 1's kernel table
 * (lab1_kernels.c); the keys and labels are the result file's. */
#include <stdio.h>

#include "bench_core.h"
#include "device_verify.h"
#include "lab1_kernels.h"

static const int IMAGE_EDGES[] = {2048, 4096, 8192};
/* The grader's size (2^22 + 3) and one four times larger. */
static const int STRIDE_SIZES[] = {(1 << 22) + 3, (1 << 24) + 3};
static const char *STRIDE_NAMES[] = {"2^22+3", "2^24+3"};

/* Every row of the table on one size (W x H; a vector of n is n x 1). */
static void calls_at(kernel_call calls[LAB1_ROW_COUNT], int width, int height, const float *in,
                     float *out)
{
    const kernel_args args = {.size = {width, height}, .in = {in, NULL}, .out = out};
    for (int r = 0; r < LAB1_ROW_COUNT; ++r)
        calls[r] = (kernel_call){&lab_kernel_table.rows[r], args};
}

static bench_entry entry(const char *name, const char *label, kernel_call *call)
{
    return (bench_entry){name, label, kernel_call_launch, call};
}

int main(int argc, char **argv)
{
    bench_options o = bench_start(argc, argv, "bench_lab1");
    const size_t most = (size_t)8192 * 8192;
    float *in = bench_alloc_floats(most), *out = bench_alloc_floats(most);
    device_fill_uniform(in, most, o.seed, -1.0f, 1.0f);
    bench_plan(3 * 4 + 2 * 4);
    int first_error = 0;
    kernel_call calls[LAB1_ROW_COUNT];

    for (int s = 0; s < 3; ++s) {
        const int edge = IMAGE_EDGES[s];
        calls_at(calls, edge, edge, in, out);
        bench_entry kernels[] = {
            entry("image_double", "2D image kernel, x picks the column (lab 1)",
                  &calls[LAB1_ROW_IMAGE]),
            entry("copy_kernel", "1D copy kernel (the graders' yardstick)",
                  &calls[LAB1_ROW_COPY]),
        };
        char size[32];
        snprintf(size, sizeof size, "%dx%d", edge, edge);
        bench_problem p = {
            .lab = 1, .problem = "image_double", .size = size, .x = edge,
            .work = kernel_row_bytes(calls[LAB1_ROW_IMAGE].row, calls[LAB1_ROW_IMAGE].args.size),
            .unit = "GB/s",
            .baseline = entry("swapped", "2D, x picks the row (grader's baseline)",
                              &calls[LAB1_ROW_SWAPPED]),
            .kernels = kernels, .kernel_count = 2,
            .ceiling = entry("memcpy", "cudaMemcpy, device to device", &calls[LAB1_ROW_MEMCPY]),
            .ceiling_name = "memcpy_d2d",
            /* The copy kernel writes in, not 2 * in: it is timed, not compared. */
            .out = NULL};
        int status = bench_run(&p, &o);
        first_error = first_error ? first_error : status;
    }
    for (int s = 0; s < 2; ++s) {
        const int n = STRIDE_SIZES[s];
        calls_at(calls, n, 1, in, out);
        bench_entry kernels[] = {
            entry("grid_stride", "grid-stride loop, fixed grid (lab 1)",
                  &calls[LAB1_ROW_GRID_STRIDE]),
            entry("copy_kernel", "1D copy kernel (the graders' yardstick)",
                  &calls[LAB1_ROW_COPY]),
        };
        bench_problem p = {
            .lab = 1, .problem = "grid_stride", .size = STRIDE_NAMES[s], .x = n,
            .work = kernel_row_bytes(calls[LAB1_ROW_GRID_STRIDE].row,
                                     calls[LAB1_ROW_GRID_STRIDE].args.size),
            .unit = "GB/s",
            .baseline = entry("block_stride", "block-stride loop (grader's baseline)",
                              &calls[LAB1_ROW_BLOCK_STRIDE]),
            .kernels = kernels, .kernel_count = 2,
            .ceiling = entry("memcpy", "cudaMemcpy, device to device", &calls[LAB1_ROW_MEMCPY]),
            .ceiling_name = "memcpy_d2d", .out = NULL};
        int status = bench_run(&p, &o);
        first_error = first_error ? first_error : status;
    }
    return first_error != 0;
}
