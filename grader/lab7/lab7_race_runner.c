/* Lab 7's race runner: each of your four stages once on a small SGEMM of
 * small integers (so C is exact), checked against the CPU. Every stage
 * shares tiles between the warps of a block, so each has barriers to get
 * right. The graded race check (gpu_stages_race_free) runs it under
 * `compute-sanitizer --tool racecheck`; so does `make sanitize-lab7`, with
 * --all for the any-size extension as well.
 *
 *   lab7_racecheck [--all]      M x N x K = 256 x 128 x 64: two block tiles, four K steps
 *
 * Exit status: 0 every stage right, 1 a stage wrong, 2 a stage returned an
 * error or CUDA failed, 77 no CUDA device. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "cpu_reference.h"
#include "device_info.h"
#include "lab7.h"
#include "rng.h"

enum { M = 256, N = 128, K = 64 };
/* The extension on a size that fits no tile. */
enum { ANY_M = 100, ANY_N = 70, ANY_K = 37 };

static const char *const STAGE_NAMES[LAB7_STAGE_COUNT] = {"block_tile_1d", "block_tile_2d",
                                                           "vectorised", "warp_tile"};

static int cuda_ok(cudaError_t err, const char *what)
{
    if (err != cudaSuccess)
        fprintf(stderr, "race runner: %s: %s\n", what, cudaGetErrorString(err));
    return err == cudaSuccess;
}

typedef struct {
    const float *a, *b;
    float *c, *host_c;
    const double *ref;
} sgemm_buffers;

/* The launch's status already checked: 0 right, 1 wrong, 2 CUDA error. */
static int check_c(const char *name, const sgemm_buffers *buf, int m, int n)
{
    size_t bytes = (size_t)m * (size_t)n * sizeof(float);
    if (!cuda_ok(cudaDeviceSynchronize(), name) ||
        !cuda_ok(cudaMemcpy(buf->host_c, buf->c, bytes, cudaMemcpyDeviceToHost), "download"))
        return 2;
    for (int i = 0; i < m * n; ++i)
        if ((double)buf->host_c[i] != buf->ref[i]) {
            fprintf(stderr, "race runner: %s on %dx%d: C[%d][%d] is %g, expected %g\n", name, m,
                    n, i / n, i % n, (double)buf->host_c[i], buf->ref[i]);
            return 1;
        }
    printf("race runner: %s on %dx%d: right\n", name, m, n);
    return 0;
}

static int report_status(const char *name, lab_status status)
{
    if (status == LAB_OK)
        return 1;
    fprintf(stderr, "race runner: %s returned %s: %s\n", name, lab_status_name(status),
            lab_last_error());
    return 0;
}

/* Inputs of m x k and k x n small integers, on the GPU and as a CPU reference. */
static int prepare(sgemm_buffers *buf, float **a, float **b, float **c, int m, int n, int k)
{
    size_t na = (size_t)m * k, nb = (size_t)k * n, nc = (size_t)m * n;
    float *ha = malloc(na * sizeof *ha), *hb = malloc(nb * sizeof *hb);
    double *ref = malloc(nc * sizeof *ref);
    buf->host_c = malloc(nc * sizeof(float));
    if (!ha || !hb || !ref || !buf->host_c) {
        fprintf(stderr, "race runner: out of host memory\n");
        return 0;
    }
    rng_fill_integers(ha, na, 7, -2, 2);
    rng_fill_integers(hb, nb, 8, -2, 2);
    cpu_matmul_ref(ha, hb, ref, m, n, k);
    int ok = cuda_ok(cudaMalloc((void **)a, na * sizeof(float)), "cudaMalloc(a)") &&
             cuda_ok(cudaMalloc((void **)b, nb * sizeof(float)), "cudaMalloc(b)") &&
             cuda_ok(cudaMalloc((void **)c, nc * sizeof(float)), "cudaMalloc(c)") &&
             cuda_ok(cudaMemcpy(*a, ha, na * sizeof(float), cudaMemcpyHostToDevice), "upload a") &&
             cuda_ok(cudaMemcpy(*b, hb, nb * sizeof(float), cudaMemcpyHostToDevice), "upload b");
    free(ha);
    free(hb);
    buf->a = *a;
    buf->b = *b;
    buf->c = *c;
    buf->ref = ref;
    return ok;
}

static void release(sgemm_buffers *buf)
{
    cudaFree((void *)buf->a);
    cudaFree((void *)buf->b);
    cudaFree(buf->c);
    free(buf->host_c);
    free((void *)buf->ref);
}

int main(int argc, char **argv)
{
    int all = argc == 2 && strcmp(argv[1], "--all") == 0;
    if (argc > 2 || (argc == 2 && !all)) {
        fprintf(stderr, "usage: %s [--all]\n", argv[0]);
        return 2;
    }
    if (device_count() == 0) {
        printf("race runner: no CUDA device, nothing to run\n");
        return 77;
    }
    sgemm_buffers buf;
    float *a = NULL, *b = NULL, *c = NULL;
    if (!prepare(&buf, &a, &b, &c, M, N, K))
        return 2;
    int worst = 0;
    for (int s = 0; s < LAB7_STAGE_COUNT; ++s) {
        char name[64];
        snprintf(name, sizeof name, "lab7_sgemm(%s)", STAGE_NAMES[s]);
        cudaMemset(c, 0xFF, (size_t)M * N * sizeof(float)); /* NaN: unwritten shows */
        int result = report_status(name, lab7_sgemm((lab7_stage)s, M, N, K, 1.0f, a, b, 0.0f, c))
                         ? check_c(name, &buf, M, N)
                         : 2;
        worst = result > worst ? result : worst;
    }
    release(&buf);
    if (all) {
        if (!prepare(&buf, &a, &b, &c, ANY_M, ANY_N, ANY_K))
            return 2;
        cudaMemset(c, 0xFF, (size_t)ANY_M * ANY_N * sizeof(float));
        lab_status status = lab7_sgemm_any_size(ANY_M, ANY_N, ANY_K, 1.0f, a, b, 0.0f, c);
        if (status == LAB_OK) {
            int result = check_c("lab7_sgemm_any_size", &buf, ANY_M, ANY_N);
            worst = result > worst ? result : worst;
        } else {
            fprintf(stderr, "race runner: lab7_sgemm_any_size skipped (extension): %s\n",
                    lab_last_error());
        }
        release(&buf);
    }
    return worst;
}
