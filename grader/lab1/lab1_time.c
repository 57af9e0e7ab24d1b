/* make time-lab1 [SIZE=WxH]: your element-wise kernels against a plain copy
 * kernel moving the same bytes (the grader's yardstick), so the ratio is
 * the fraction of copy bandwidth you reach. The image is W x H floats; the
 * vector add and the grid-stride scale use W*H elements. The copy's output
 * is no reference, so each output is checked against the host's 2 * in or
 * a + b, which float arithmetic gives exactly. Default 8192x8192. */
#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime_api.h>

#include "copy_baseline.h"
#include "lab1.h"
#include "time_kernels.h"

typedef struct {
    const float *in, *in2;
    float *out;
    int width, height;
    size_t n;
} elementwise;

static int launch_image(void *ctx)
{
    const elementwise *e = ctx;
    return lab1_image_double(e->in, e->out, e->width, e->height);
}

static int launch_vector_add(void *ctx)
{
    const elementwise *e = ctx;
    return lab1_vector_add(e->in, e->in2, e->out, (int)e->n);
}

static int launch_grid_stride(void *ctx)
{
    const elementwise *e = ctx;
    return lab1_scale_grid_stride(e->in, e->out, 2.0f, (int)e->n);
}

static int launch_copy(void *ctx)
{
    const elementwise *e = ctx;
    return baseline_copy_floats(e->in, e->out, e->n);
}

/* What the kernels must write, computed on the host from the device's
 * inputs: twice = 2 * a (image double and grid-stride scale), sum = a + b.
 * 0 when the host lacks the memory: the lines then say "not checked". */
static int host_references(const float *a, const float *b, size_t n, float **twice,
                           float **sum)
{
    *twice = malloc(n * sizeof **twice);
    *sum = malloc(n * sizeof **sum);
    if (!*twice || !*sum ||
        cudaMemcpy(*twice, a, n * sizeof **twice, cudaMemcpyDeviceToHost) != cudaSuccess ||
        cudaMemcpy(*sum, b, n * sizeof **sum, cudaMemcpyDeviceToHost) != cudaSuccess) {
        free(*twice);
        free(*sum);
        return 0;
    }
    for (size_t i = 0; i < n; ++i) {
        (*sum)[i] += (*twice)[i];
        (*twice)[i] *= 2.0f;
    }
    return 1;
}

int main(int argc, char **argv)
{
    const char *size = argc > 1 ? argv[1] : "8192x8192";
    long d[3];
    if (!time_parse_size("lab1", size, 2, 1L << 15, d, "8192x8192"))
        return 2;
    if (!time_require_gpu("lab1"))
        return 0;
    size_t n = (size_t)d[0] * (size_t)d[1];
    /* The vector add reads two arrays: its copy moves 1.5 n floats each way. */
    size_t copy_n = n + n / 2;
    const float *a = time_device_floats("lab1", copy_n, 1), *b = time_device_floats("lab1", n, 2);
    float *out = time_device_floats("lab1", copy_n, 3), *copy_out = time_device_floats("lab1", copy_n, 4);
    if (!a || !b || !out || !copy_out)
        return 1;
    elementwise e = {a, b, out, (int)d[0], (int)d[1], n};
    elementwise copy = {a, NULL, copy_out, 0, 0, n};
    elementwise copy_add = {a, NULL, copy_out, 0, 0, copy_n};
    float *twice = NULL, *sum = NULL;
    int checked = host_references(a, b, n, &twice, &sum);
    if (!checked)
        printf("make time-lab1: not enough host memory to check the results at SIZE=%s\n", size);
    /* Exact on the host and the GPU alike; the tolerance only forgives a
     * compiler that fuses differently. */
    time_check check_twice = {"lab1", out, twice, n, 0.0, 1e-6};
    time_check check_sum = {"lab1", out, sum, n, 0.0, 1e-6};
    double bytes = 2.0 * n * sizeof(float);
    time_pair pairs[] = {
        {"lab1_image_double", launch_image, &e, "copy kernel", launch_copy, &copy, bytes, 0,
         checked ? &check_twice : NULL},
        {"lab1_vector_add", launch_vector_add, &e, "copy kernel", launch_copy, &copy_add,
         3.0 * n * sizeof(float), 0, checked ? &check_sum : NULL},
        {"lab1_scale_grid_stride", launch_grid_stride, &e, "copy kernel", launch_copy, &copy,
         bytes, 0, checked ? &check_twice : NULL},
    };
    int failed = 0;
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; ++i)
        failed |= time_pair_run(&pairs[i], size) != TIME_OK;
    return failed;
}
