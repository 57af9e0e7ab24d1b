/* Lab 8's kernel table (grader/support/kernel_table.h): one row per
 * kernel that make time-lab8 and make profile-lab8 run, read by the one
 * kernel driver (grader/driver/kernel_driver.c). The placeholder: the
 * student's scale against a copy kernel moving the same bytes, so the
 * ratio is the fraction of copy bandwidth reached; its output is checked
 * against factor * in, made on the host. Replace the rows with the lab's
 * own; a lab with shared memory adds KERNEL_RACE rows and RACE_FROM_TABLE
 * in its CMakeLists.txt (docs/design.md, section 6). */
#include <stdlib.h>

#include <cuda_runtime_api.h>

#include "copy_baseline.h"
#include "kernel_table.h"
#include "lab8.h"
#include "time_kernels.h"

#define FACTOR 3.0f

enum { ROW_COPY, ROW_SCALE, ROW_COUNT };

static int copy(const kernel_args *a)
{
    return baseline_copy_floats(a->in[0], a->out, (size_t)a->size[0]);
}

static int scale(const kernel_args *a)
{
    return lab8_scale(a->in[0], a->out, FACTOR, (int)a->size[0]);
}

static double read_write(const kernel_size size) { return 2.0 * (double)size[0] * sizeof(float); }

/* One float multiplication per element: only its rounding may differ. */
static kernel_tolerance one_rounding(const kernel_size size)
{
    (void)size;
    return (kernel_tolerance){0.0, 1e-6};
}

static const kernel_row ROWS[ROW_COUNT] = {
    [ROW_COPY] = {.name = "copy kernel", .launch = copy, .modes = KERNEL_PROFILE,
                  .yardstick = ROW_COPY, .bytes = read_write},
    [ROW_SCALE] = {.name = "lab8_scale", .launch = scale, .modes = KERNEL_TIME | KERNEL_PROFILE,
                   .yardstick = ROW_COPY, .bytes = read_write, .want = KERNEL_WANT_REFERENCE_0,
                   .tolerance = one_rounding},
};

/* factor * in on the host, from the device's input; NULL (not checked)
 * when the host lacks the memory. */
static const float *host_reference(const float *in, size_t n)
{
    float *want = malloc(n * sizeof *want);
    if (!want || cudaMemcpy(want, in, n * sizeof *want, cudaMemcpyDeviceToHost) != cudaSuccess) {
        free(want);
        return NULL;
    }
    for (size_t i = 0; i < n; ++i)
        want[i] *= FACTOR;
    return want;
}

static int setup(kernel_mode mode, const kernel_size size, kernel_problem *p)
{
    size_t n = (size_t)size[0];
    p->args.size[0] = size[0];
    if (mode == KERNEL_TIME) {
        p->args.in[0] = time_device_floats("lab8", n, 1);
        p->args.out = time_device_floats("lab8", n, 2);
        p->yardstick_out = time_device_floats("lab8", n, 3);
        if (!p->args.in[0] || !p->args.out || !p->yardstick_out)
            return 0;
        p->reference[0] = host_reference(p->args.in[0], n);
        p->checked = n;
        return 1;
    }
    p->args.in[0] = kernel_device_array("lab8_profile", NULL, n);
    p->args.out = kernel_device_array("lab8_profile", NULL, n);
    return p->args.in[0] && p->args.out;
}

const kernel_table lab_kernel_table = {
    .lab = "lab8",
    .rows = ROWS,
    .count = ROW_COUNT,
    .time = {1, 1L << 30, "67108864"},
    .profile = {1, 1L << 30, "16777216"},
    .race = {1, 1L << 20, "5000"}, /* no race rows yet */
    .setup = setup,
};
