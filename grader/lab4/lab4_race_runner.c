/* Lab 4's race runner: each of your three transposes once on a small
 * matrix with partial tiles at both edges, checked against the CPU. The
 * graded race check (gpu_transpose_race_free) runs it under
 * `compute-sanitizer --tool racecheck`; so does `make sanitize-lab4`.
 *
 *   lab4_racecheck [rows cols]     default 70 45 (3 x 2 tiles, both partial)
 *
 * Exit status: 0 every version right, 1 a version wrong, 2 a version
 * returned an error or CUDA failed, 77 no CUDA device. */
#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime_api.h>

#include "device_info.h"
#include "lab4.h"
#include "rng.h"

static int cuda_ok(cudaError_t err, const char *what)
{
    if (err != cudaSuccess)
        fprintf(stderr, "race runner: %s: %s\n", what, cudaGetErrorString(err));
    return err == cudaSuccess;
}

/* 0 right, 1 wrong (first wrong element reported), 2 error. */
static int run_version(lab4_version version, const char *name, const float *in, float *out,
                       const float *host_in, float *host_out, int rows, int cols)
{
    size_t bytes = (size_t)rows * (size_t)cols * sizeof(float);
    if (!cuda_ok(cudaMemset(out, 0xFF, bytes), "cudaMemset(out)")) /* NaN: unwritten shows */
        return 2;
    lab_status status = lab4_transpose(version, in, out, rows, cols);
    if (status != LAB_OK) {
        fprintf(stderr, "race runner: lab4_transpose(%s) returned %s: %s\n", name,
                lab_status_name(status), lab_last_error());
        return 2;
    }
    if (!cuda_ok(cudaDeviceSynchronize(), name) ||
        !cuda_ok(cudaMemcpy(host_out, out, bytes, cudaMemcpyDeviceToHost), "download"))
        return 2;
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
            if (host_out[(size_t)c * rows + r] != host_in[(size_t)r * cols + c]) {
                fprintf(stderr, "race runner: lab4_transpose(%s) on %dx%d: out[%d][%d] is %g, "
                        "expected in[%d][%d] = %g\n", name, rows, cols, c, r,
                        (double)host_out[(size_t)c * rows + r], r, c,
                        (double)host_in[(size_t)r * cols + c]);
                return 1;
            }
    printf("race runner: lab4_transpose(%s) on %dx%d: right\n", name, rows, cols);
    return 0;
}

int main(int argc, char **argv)
{
    int rows = 70, cols = 45;
    if (argc == 3) {
        rows = atoi(argv[1]);
        cols = atoi(argv[2]);
    }
    if ((argc != 1 && argc != 3) || rows <= 0 || cols <= 0 || rows > 4096 || cols > 4096) {
        fprintf(stderr, "usage: %s [rows cols]   (1..4096 each; default 70 45)\n", argv[0]);
        return 2;
    }
    if (device_count() == 0) {
        printf("race runner: no CUDA device, nothing to run\n");
        return 77;
    }
    size_t count = (size_t)rows * (size_t)cols, bytes = count * sizeof(float);
    float *host_in = malloc(bytes), *host_out = malloc(bytes);
    float *in = NULL, *out = NULL;
    if (!host_in || !host_out) {
        fprintf(stderr, "race runner: out of host memory\n");
        return 2;
    }
    rng_fill_integers(host_in, count, 4, -1000, 1000);
    if (!cuda_ok(cudaMalloc((void **)&in, bytes), "cudaMalloc(in)") ||
        !cuda_ok(cudaMalloc((void **)&out, bytes), "cudaMalloc(out)") ||
        !cuda_ok(cudaMemcpy(in, host_in, bytes, cudaMemcpyHostToDevice), "upload"))
        return 2;
    static const char *const names[] = {"smem", "padded", "multirow"};
    int worst = 0;
    for (int v = 0; v < 3; ++v) {
        int result = run_version((lab4_version)v, names[v], in, out, host_in, host_out, rows, cols);
        worst = result > worst ? result : worst;
    }
    cudaFree(in);
    cudaFree(out);
    free(host_in);
    free(host_out);
    return worst;
}
