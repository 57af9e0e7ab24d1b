/* What the second __syncthreads() of the tiled kernel is for, shown twice:
 * by running a copy of the reference tiled kernel WITHOUT it, and by
 * letting compute-sanitizer's racecheck tool look at both versions.
 *
 *   lab3_race_demo [--kernel mutant|tiled] [--size M N K] [--runs R]
 *   lab3_race_demo --probe        exit 0 with a CUDA device, 77 without
 *
 * `mutant` (the default of lab3_race_demo) is the copy without the second
 * barrier; `tiled` is lab3_matmul_tiled from the library this program is
 * linked with: the reference for lab3_race_demo, your labs/ code for
 * lab3_racecheck (whose default it is). Inputs are small integers, so every
 * partial sum is exact in float and any difference from the CPU reference
 * is a race, not rounding.
 *
 * Exit status: 0 every run right, 1 some run wrong, 2 usage or CUDA error,
 * 77 no CUDA device. Under `compute-sanitizer --tool racecheck
 * --error-exitcode 1` a reported hazard also exits 1. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_reference.h"
#include "cuda_check.h"
#include "device_info.h"
#include "lab3.h"
#include "rng.h"

#ifndef RACE_DEMO_DEFAULT_KERNEL
#define RACE_DEMO_DEFAULT_KERNEL "mutant"
#endif

enum { MUTANT_TILE = 32 };

/* The reference solution's tiled kernel for TILE 32 with its index helpers
 * written inline (they live in another translation unit) and the SECOND
 * __syncthreads() removed. Without it, a warp that finishes its share of
 * the inner product goes on to store the next phase's row of b_tile while
 * other warps are still reading the current phase's values of that row. */
__global__ void tiled_matmul_missing_second_barrier(const float *a, const float *b, float *c,
                                                    int m, int n, int k)
{
    __shared__ float a_tile[MUTANT_TILE][MUTANT_TILE];
    __shared__ float b_tile[MUTANT_TILE][MUTANT_TILE];
    int ty = threadIdx.y, tx = threadIdx.x;
    int row = blockIdx.y * MUTANT_TILE + ty, col = blockIdx.x * MUTANT_TILE + tx;
    float sum = 0.0f;
    int phases = (k + MUTANT_TILE - 1) / MUTANT_TILE;
    for (int phase = 0; phase < phases; ++phase) {
        int a_col = phase * MUTANT_TILE + tx, b_row = phase * MUTANT_TILE + ty;
        a_tile[ty][tx] = (row < m && a_col < k) ? a[row * k + a_col] : 0.0f;
        b_tile[ty][tx] = (b_row < k && col < n) ? b[b_row * n + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int q = 0; q < MUTANT_TILE; ++q)
            sum += a_tile[ty][q] * b_tile[q][tx];
        /* The second __syncthreads() belonged here. */
    }
    if (row < m && col < n)
        c[row * n + col] = sum;
}

static lab_status launch_mutant(const float *a, const float *b, float *c, int m, int n, int k)
{
    dim3 block(MUTANT_TILE, MUTANT_TILE);
    dim3 grid((n + MUTANT_TILE - 1) / MUTANT_TILE, (m + MUTANT_TILE - 1) / MUTANT_TILE);
    tiled_matmul_missing_second_barrier<<<grid, block>>>(a, b, c, m, n, k);
    LAB_LAUNCH_CHECK();
    return LAB_OK;
}

static void exit_on_cuda_error(const char *message)
{
    fprintf(stderr, "race demo: %s\n", message);
    exit(2);
}

static void usage(const char *program)
{
    fprintf(stderr, "usage: %s [--kernel mutant|tiled] [--size M N K] [--runs R] | --probe\n",
            program);
    exit(2);
}

typedef struct {
    const char *kernel;
    int m, n, k, runs;
} demo_options;

static demo_options parse(int argc, char **argv)
{
    demo_options o = {RACE_DEMO_DEFAULT_KERNEL, 1024, 1024, 1024, 5};
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--probe") == 0) {
            exit(device_count() > 0 ? 0 : 77);
        } else if (strcmp(argv[i], "--kernel") == 0 && i + 1 < argc) {
            o.kernel = argv[++i];
        } else if (strcmp(argv[i], "--size") == 0 && i + 3 < argc) {
            o.m = atoi(argv[++i]);
            o.n = atoi(argv[++i]);
            o.k = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
            o.runs = atoi(argv[++i]);
        } else {
            usage(argv[0]);
        }
    }
    if (strcmp(o.kernel, "mutant") != 0 && strcmp(o.kernel, "tiled") != 0)
        usage(argv[0]);
    /* Small integers keep every sum exact only while K * 4 < 2^24. */
    if (o.m <= 0 || o.n <= 0 || o.k <= 0 || o.k > (1 << 20) || o.runs <= 0)
        usage(argv[0]);
    return o;
}

/* Elements of got that differ from the exact reference. */
static size_t count_wrong(const float *got, const double *ref, size_t n, size_t *first)
{
    size_t wrong = 0;
    for (size_t i = 0; i < n; ++i)
        if ((double)got[i] != ref[i] && wrong++ == 0)
            *first = i;
    return wrong;
}

int main(int argc, char **argv)
{
    demo_options o = parse(argc, argv);
    if (device_count() == 0) {
        printf("race demo: no CUDA device, nothing to run\n");
        return 77;
    }
    cuda_set_error_handler(exit_on_cuda_error);
    size_t na = (size_t)o.m * o.k, nb = (size_t)o.k * o.n, nc = (size_t)o.m * o.n;
    float *ha = (float *)malloc(na * sizeof(float)), *hb = (float *)malloc(nb * sizeof(float));
    float *hc = (float *)malloc(nc * sizeof(float));
    double *ref = (double *)malloc(nc * sizeof(double));
    if (!ha || !hb || !hc || !ref) {
        fprintf(stderr, "race demo: out of host memory\n");
        return 2;
    }
    rng_fill_integers(ha, na, 3, -2, 2);
    rng_fill_integers(hb, nb, 4, -2, 2);
    cpu_matmul_ref(ha, hb, ref, o.m, o.n, o.k);

    float *a, *b, *c;
    CUDA_CHECK(cudaMalloc((void **)&a, na * sizeof(float)));
    CUDA_CHECK(cudaMalloc((void **)&b, nb * sizeof(float)));
    CUDA_CHECK(cudaMalloc((void **)&c, nc * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(a, ha, na * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(b, hb, nb * sizeof(float), cudaMemcpyHostToDevice));

    int mutant = strcmp(o.kernel, "mutant") == 0;
    printf("race demo: %s on %dx%dx%d (MxNxK), %d run(s)\n",
           mutant ? "the tiled kernel WITHOUT its second __syncthreads()"
                  : "lab3_matmul_tiled",
           o.m, o.n, o.k, o.runs);
    int wrong_runs = 0;
    for (int r = 0; r < o.runs; ++r) {
        CUDA_CHECK(cudaMemset(c, 0xFF, nc * sizeof(float))); /* NaN: unwritten shows */
        lab_status status = mutant ? launch_mutant(a, b, c, o.m, o.n, o.k)
                                   : lab3_matmul_tiled(a, b, c, o.m, o.n, o.k);
        if (status != LAB_OK) {
            fprintf(stderr, "race demo: launch failed: %s\n", lab_last_error());
            return 2;
        }
        CUDA_CHECK(cudaDeviceSynchronize());
        CUDA_CHECK(cudaMemcpy(hc, c, nc * sizeof(float), cudaMemcpyDeviceToHost));
        size_t first = 0, wrong = count_wrong(hc, ref, nc, &first);
        if (wrong) {
            ++wrong_runs;
            printf("  run %d: %zu of %zu elements wrong; first (%zu,%zu): got %g, expected %g\n",
                   r + 1, wrong, nc, first / (size_t)o.n, first % (size_t)o.n, (double)hc[first],
                   ref[first]);
        } else {
            printf("  run %d: every element right\n", r + 1);
        }
    }
    if (mutant && wrong_runs == 0)
        printf("The race did not show in these runs (it depends on timing); "
               "compute-sanitizer --tool racecheck finds it every time.\n");
    CUDA_CHECK(cudaFree(a));
    CUDA_CHECK(cudaFree(b));
    CUDA_CHECK(cudaFree(c));
    free(ha);
    free(hb);
    free(hc);
    free(ref);
    return wrong_runs ? 1 : 0;
}
