/* Lab 1's kernel table: the student's element-wise kernels over a W x H
 * image (the vector add and the grid-stride scale over W*H elements),
 * each against a plain copy kernel moving the same bytes (the graders'
 * yardstick), so the ratio is the fraction of copy bandwidth reached. The
 * copy's output is no reference, so each output is checked against the
 * host's 2 * in, a + b or 3 * in, which float arithmetic gives exactly.
 * The grader's two mistakes on purpose (the image kernel with x picking
 * the row, the block-stride loop) stand in for the student in the speed
 * checks' self-tests; they and cudaMemcpy are rows for make bench too. */
#include "lab1_kernels.h"

#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime_api.h>

#include "copy_baseline.h"
#include "lab1.h"
#include "lab1_checks.h"
#include "time_kernels.h"

/* ------------------------------------------------------------ adapters */

static size_t elements(const kernel_args *a) { return (size_t)a->size[0] * (size_t)a->size[1]; }

static int copy(const kernel_args *a)
{
    return baseline_copy_floats(a->in[0], a->out, elements(a));
}

/* The vector add reads two arrays: its copy moves 1.5 n floats each way. */
static int copy_add(const kernel_args *a)
{
    size_t n = elements(a);
    return baseline_copy_floats(a->in[0], a->out, n + n / 2);
}

static int image(const kernel_args *a)
{
    return lab1_image_double(a->in[0], a->out, (int)a->size[0], (int)a->size[1]);
}

static int vector_add(const kernel_args *a)
{
    return lab1_vector_add(a->in[0], a->in[1], a->out, (int)elements(a));
}

static int grid_stride(const kernel_args *a)
{
    return lab1_scale_grid_stride(a->in[0], a->out, LAB1_STRIDE_FACTOR, (int)elements(a));
}

static int swapped(const kernel_args *a)
{
    return lab1_baseline_image_double_swapped(a->in[0], a->out, (int)a->size[0],
                                              (int)a->size[1]);
}

static int block_stride(const kernel_args *a)
{
    return lab1_baseline_scale_block_stride(a->in[0], a->out, LAB1_STRIDE_FACTOR,
                                            (int)elements(a));
}

static int memcpy_same_bytes(const kernel_args *a)
{
    return baseline_memcpy_floats(a->in[0], a->out, elements(a));
}

static double read_write(const kernel_size s)
{
    return 2.0 * (double)s[0] * (double)s[1] * sizeof(float);
}
static double two_reads_one_write(const kernel_size s) { return 1.5 * read_write(s); }

/* Exact on the host and the GPU alike; the tolerance only forgives a
 * compiler that fuses differently. */
static kernel_tolerance nearly_exact(const kernel_size s)
{
    (void)s;
    return (kernel_tolerance){0.0, 1e-6};
}

/* ---------------------------------------------------------------- rows */

#define STUDENT (KERNEL_TIME | KERNEL_PROFILE)

/* The graded sizes (gpu_image_bandwidth, gpu_grid_stride_bandwidth). The
 * image: 256 MiB each way, five times an H100's L2. The loop: more
 * elements than the fixed grid has threads (128 passes), small enough that
 * a loop stepping by one block (128 times the work) still ends in
 * milliseconds. */
#define IMAGE_GRADED {8192, 8192}
#define STRIDE_GRADED {(1L << 22) + 3, 1}

/* make bench's two problems: the image kernel against the swapped
 * mapping, the grid-stride loop against the block-stride mistake, each
 * beside the copy kernel and cudaMemcpy of the same bytes (the ceiling). */
#define IMAGE KERNEL_BENCH_IN(0)
#define STRIDE KERNEL_BENCH_IN(1)

static const kernel_row ROWS[LAB1_ROW_COUNT] = {
    [LAB1_ROW_COPY] = {.name = "copy kernel", .launch = copy, .modes = KERNEL_PROFILE,
                       .yardstick = LAB1_ROW_COPY, .bytes = read_write,
                       .bench = {IMAGE | STRIDE, KERNEL_BENCH_BESIDE, "copy_kernel",
                                 "1D copy kernel (the graders' yardstick)"}},
    [LAB1_ROW_COPY_ADD] = {.name = "copy kernel", .launch = copy_add,
                           .yardstick = LAB1_ROW_COPY_ADD, .bytes = two_reads_one_write},
    [LAB1_ROW_IMAGE] = {.name = "lab1_image_double", .launch = image, .modes = STUDENT,
                        .yardstick = LAB1_ROW_COPY, .bytes = read_write,
                        .want = KERNEL_WANT_REFERENCE_0, .tolerance = nearly_exact,
                        .graded_size = IMAGE_GRADED,
                        .bench = {IMAGE, KERNEL_BENCH_KERNEL, "image_double",
                                  "2D image kernel, x picks the column (lab 1)"}},
    [LAB1_ROW_VECTOR_ADD] = {.name = "lab1_vector_add", .launch = vector_add, .modes = STUDENT,
                             .yardstick = LAB1_ROW_COPY_ADD, .bytes = two_reads_one_write,
                             .want = KERNEL_WANT_REFERENCE_1, .tolerance = nearly_exact},
    [LAB1_ROW_GRID_STRIDE] = {.name = "lab1_scale_grid_stride", .launch = grid_stride,
                              .modes = STUDENT, .yardstick = LAB1_ROW_COPY,
                              .bytes = read_write, .want = KERNEL_WANT_REFERENCE_2,
                              .tolerance = nearly_exact, .graded_size = STRIDE_GRADED,
                              .bench = {STRIDE, KERNEL_BENCH_KERNEL, "grid_stride",
                                        "grid-stride loop, fixed grid (lab 1)"}},
    [LAB1_ROW_SWAPPED] = {.name = "2D, x picks the row", .launch = swapped,
                          .yardstick = LAB1_ROW_SWAPPED, .bytes = read_write,
                          .bench = {IMAGE, KERNEL_BENCH_BASELINE, "swapped",
                                    "2D, x picks the row (grader's baseline)"}},
    [LAB1_ROW_BLOCK_STRIDE] = {.name = "block-stride loop", .launch = block_stride,
                               .yardstick = LAB1_ROW_BLOCK_STRIDE, .bytes = read_write,
                               .bench = {STRIDE, KERNEL_BENCH_BASELINE, "block_stride",
                                         "block-stride loop (grader's baseline)"}},
    [LAB1_ROW_MEMCPY] = {.name = "cudaMemcpy device-to-device", .launch = memcpy_same_bytes,
                         .yardstick = LAB1_ROW_MEMCPY, .bytes = read_write,
                         .bench = {IMAGE | STRIDE, KERNEL_BENCH_CEILING, "memcpy",
                                   "cudaMemcpy, device to device", .ceiling = "memcpy_d2d"}},
};

/* --------------------------------------------------------------- setup */

/* What the kernels must write, computed on the host from the device's
 * inputs: twice = 2 * a (image double), sum = a + b, scaled =
 * LAB1_STRIDE_FACTOR * a (grid-stride scale). 0 when the host lacks the
 * memory: the lines then say "not checked". */
static int host_references(const float *a, const float *b, size_t n, float **twice,
                           float **sum, float **scaled)
{
    *twice = malloc(n * sizeof **twice);
    *sum = malloc(n * sizeof **sum);
    *scaled = malloc(n * sizeof **scaled);
    if (!*twice || !*sum || !*scaled ||
        cudaMemcpy(*twice, a, n * sizeof **twice, cudaMemcpyDeviceToHost) != cudaSuccess ||
        cudaMemcpy(*sum, b, n * sizeof **sum, cudaMemcpyDeviceToHost) != cudaSuccess) {
        free(*twice);
        free(*sum);
        free(*scaled);
        *twice = *sum = *scaled = NULL;
        return 0;
    }
    for (size_t i = 0; i < n; ++i) {
        (*sum)[i] += (*twice)[i];
        (*scaled)[i] = LAB1_STRIDE_FACTOR * (*twice)[i];
        (*twice)[i] *= 2.0f;
    }
    return 1;
}

static int setup_time(const kernel_size size, kernel_problem *p)
{
    size_t n = (size_t)size[0] * (size_t)size[1];
    size_t copy_n = n + n / 2; /* the vector add's copy */
    const float *a = time_device_floats("lab1", copy_n, 1), *b = time_device_floats("lab1", n, 2);
    float *out = time_device_floats("lab1", copy_n, 3);
    float *copy_out = time_device_floats("lab1", copy_n, 4);
    if (!a || !b || !out || !copy_out)
        return 0;
    float *twice = NULL, *sum = NULL, *scaled = NULL;
    if (!host_references(a, b, n, &twice, &sum, &scaled))
        printf("make time-lab1: not enough host memory to check the results at SIZE=%ldx%ld\n",
               size[0], size[1]);
    p->args.in[0] = a;
    p->args.in[1] = b;
    p->args.out = out;
    p->yardstick_out = copy_out;
    p->reference[0] = twice;
    p->reference[1] = sum;
    p->reference[2] = scaled;
    p->checked = n;
    return 1;
}

static int setup(kernel_mode mode, const kernel_size size, kernel_problem *p)
{
    p->args.size[0] = size[0];
    p->args.size[1] = size[1];
    if (mode == KERNEL_TIME)
        return setup_time(size, p);
    size_t n = (size_t)size[0] * (size_t)size[1];
    if (mode == KERNEL_BENCH) { /* nothing compared: the copy kernel writes in, not 2 * in */
        p->args.in[0] = kernel_bench_array(n, p->seed, 0.0f);
        p->args.out = kernel_bench_array(n, 0, 0.0f);
        return p->args.in[0] && p->args.out;
    }
    p->args.in[0] = kernel_device_array("lab1_profile", NULL, n);
    p->args.in[1] = kernel_device_array("lab1_profile", NULL, n);
    p->args.out = kernel_device_array("lab1_profile", NULL, n);
    return p->args.in[0] && p->args.in[1] && p->args.out;
}

static const char *size_problem(kernel_mode mode, const kernel_size size)
{
    if (mode == KERNEL_PROFILE && (double)size[0] * (double)size[1] > (double)(1L << 28))
        return "at most 2^28 floats";
    return NULL;
}

const kernel_table lab_kernel_table = {
    .lab = "lab1",
    .rows = ROWS,
    .count = LAB1_ROW_COUNT,
    .time = {2, 1L << 15, "8192x8192"},
    .profile = {2, 1L << 15, "4096x4096"},
    .race = {2, 1L << 15, "4096x4096"}, /* no race rows: lab 1 shares no memory */
    .size_problem = size_problem,
    .setup = setup,
    /* The grid-stride loop at the grader's size (2^22 + 3) and one four
     * times larger; a vector of n is n x 1. */
    .bench = {{"image_double", {{"2048x2048", {2048, 2048}}, {"4096x4096", {4096, 4096}},
                                {"8192x8192", {8192, 8192}}}},
              {"grid_stride", {{"2^22+3", {(1L << 22) + 3, 1}}, {"2^24+3", {(1L << 24) + 3, 1}}}}},
    .bench_count = 2,
};
