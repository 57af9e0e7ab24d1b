/* Lab 5's race runner: stages (1)-(3) once each on a small input of small
 * integers (so every sum is exact), checked against the CPU. The graded
 * race check (gpu_reduction_race_free) runs it under
 * `compute-sanitizer --tool racecheck`; so does `make sanitize-lab5`,
 * with --all for the extension stages (4)-(6) as well.
 *
 *   lab5_racecheck [--all] [n]     default n = 5000 (19 full blocks and a part)
 *
 * With --all, an extension stage not written yet (it returns an error) is
 * skipped with a line. Exit status: 0 every stage right, 1 a stage wrong,
 * 2 a required stage returned an error or CUDA failed, 77 no CUDA device. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "device_info.h"
#include "lab5.h"
#include "rng.h"

typedef struct {
    const char *name;
    lab_status (*sum)(const float *, float *, int);
    int required;
} stage;

static const stage STAGES[] = {
    {"(1) lab5_sum_divergent", lab5_sum_divergent, 1},
    {"(2) lab5_sum_strided", lab5_sum_strided, 1},
    {"(3) lab5_sum_sequential", lab5_sum_sequential, 1},
    {"(4) lab5_sum_first_add", lab5_sum_first_add, 0},
    {"(5) lab5_sum_warp_shuffle", lab5_sum_warp_shuffle, 0},
    {"(6) lab5_sum_grid_stride", lab5_sum_grid_stride, 0},
};

static int cuda_ok(cudaError_t err, const char *what)
{
    if (err != cudaSuccess)
        fprintf(stderr, "race runner: %s: %s\n", what, cudaGetErrorString(err));
    return err == cudaSuccess;
}

/* 0 right, 1 wrong, 2 error, 3 skipped (an extension not written). */
static int run_stage(const stage *s, const float *in, float *out, int n, double expected)
{
    lab_status status = s->sum(in, out, n);
    if (status != LAB_OK) {
        fprintf(stderr, "race runner: %s %s %s: %s\n", s->name,
                s->required ? "returned" : "skipped, it returned", lab_status_name(status),
                lab_last_error());
        return s->required ? 2 : 3;
    }
    float got = 0.0f;
    if (!cuda_ok(cudaDeviceSynchronize(), s->name) ||
        !cuda_ok(cudaMemcpy(&got, out, sizeof got, cudaMemcpyDeviceToHost), "download"))
        return 2;
    if ((double)got != expected) {
        fprintf(stderr, "race runner: %s on n=%d: the sum is %g, expected %g\n", s->name, n,
                (double)got, expected);
        return 1;
    }
    printf("race runner: %s on n=%d: right\n", s->name, n);
    return 0;
}

int main(int argc, char **argv)
{
    int all = 0, n = 5000;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--all") == 0)
            all = 1;
        else if ((n = atoi(argv[i])) <= 0 || n > (1 << 20)) {
            fprintf(stderr, "usage: %s [--all] [n]   (1 <= n <= 2^20; default 5000)\n", argv[0]);
            return 2;
        }
    }
    if (device_count() == 0) {
        printf("race runner: no CUDA device, nothing to run\n");
        return 77;
    }
    float *host = malloc((size_t)n * sizeof *host);
    if (!host) {
        fprintf(stderr, "race runner: out of host memory\n");
        return 2;
    }
    /* Integers in [-3, 3]: every partial sum is exact in float at these sizes. */
    rng_fill_integers(host, (size_t)n, 5, -3, 3);
    double expected = 0.0;
    for (int i = 0; i < n; ++i)
        expected += host[i];
    float *in = NULL, *out = NULL;
    if (!cuda_ok(cudaMalloc((void **)&in, (size_t)n * sizeof *in), "cudaMalloc(in)") ||
        !cuda_ok(cudaMalloc((void **)&out, sizeof *out), "cudaMalloc(out)") ||
        !cuda_ok(cudaMemcpy(in, host, (size_t)n * sizeof *in, cudaMemcpyHostToDevice), "upload"))
        return 2;
    int worst = 0;
    for (size_t s = 0; s < sizeof STAGES / sizeof STAGES[0]; ++s) {
        if (!STAGES[s].required && !all)
            continue;
        int result = run_stage(&STAGES[s], in, out, n, expected);
        if (result != 3 && result > worst)
            worst = result;
    }
    cudaFree(in);
    cudaFree(out);
    free(host);
    return worst;
}
