/* What the second __syncthreads() of the tiled kernel is for, shown twice:
 * by running the reference tiled kernel WITHOUT it, and by letting
 * compute-sanitizer's racecheck tool look at a kernel.
 *
 *   lab3_racecheck [--size M N K] [--runs R]
 *   lab3_race_demo [--kernel mutant|tiled] [--size M N K] [--runs R]
 *   either --probe        exit 0 with a CUDA device, 77 without
 *
 * `tiled` is lab3_matmul_tiled from the library this program is linked
 * with: your labs/ code for lab3_racecheck (its only kernel), the
 * reference for lab3_race_demo. `mutant` (lab3_race_demo's default) is the
 * reference without its second barrier; being nearly the answer, it lives
 * in solutions/lab3_shared_tiles/race_demo_kernel.cu, and lab3_race_demo
 * is built only where solutions/ exists (RACE_DEMO_HAS_MUTANT). Inputs are
 * small integers, so every partial sum is exact in float and any
 * difference from the CPU reference is a race, not rounding.
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
#define RACE_DEMO_DEFAULT_KERNEL "tiled"
#endif

#ifndef RACE_DEMO_HAS_MUTANT
#define RACE_DEMO_HAS_MUTANT 0
#endif

typedef lab_status (*matmul_launch)(const float *a, const float *b, float *c, int m, int n,
                                    int k);

#if RACE_DEMO_HAS_MUTANT
/* solutions/lab3_shared_tiles/race_demo_kernel.cu */
extern "C" lab_status lab3_race_demo_mutant(const float *a, const float *b, float *c, int m,
                                            int n, int k);
#define RACE_DEMO_KERNELS "mutant|tiled"
#else
#define RACE_DEMO_KERNELS "tiled"
#endif

/* The kernel named on the command line; NULL if this build lacks it. */
static matmul_launch kernel_named(const char *name)
{
    if (strcmp(name, "tiled") == 0)
        return lab3_matmul_tiled;
#if RACE_DEMO_HAS_MUTANT
    if (strcmp(name, "mutant") == 0)
        return lab3_race_demo_mutant;
#endif
    return NULL;
}

static void exit_on_cuda_error(const char *message)
{
    fprintf(stderr, "race demo: %s\n", message);
    exit(2);
}

static void usage(const char *program)
{
    fprintf(stderr, "usage: %s [--kernel " RACE_DEMO_KERNELS "] [--size M N K] [--runs R] | "
            "--probe\n", program);
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
    if (!kernel_named(o.kernel))
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
    matmul_launch run_kernel = kernel_named(o.kernel);
    printf("race demo: %s on %dx%dx%d (MxNxK), %d run(s)\n",
           mutant ? "the tiled kernel WITHOUT its second __syncthreads()"
                  : "lab3_matmul_tiled",
           o.m, o.n, o.k, o.runs);
    int wrong_runs = 0;
    for (int r = 0; r < o.runs; ++r) {
        CUDA_CHECK(cudaMemset(c, 0xFF, nc * sizeof(float))); /* NaN: unwritten shows */
        lab_status status = run_kernel(a, b, c, o.m, o.n, o.k);
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
