/* Lab 5, section 9: what an instruction costs. Integer `%` and `/` by a
 * variable against a power of two, float division three ways and with
 * --use_fast_math (with what each costs in accuracy), FP32 against FP64 FMA.
 *
 *   build/bin/measure_instructions [runs]      default 21 timed runs per row
 *
 * Rows come in four groups; within a group they do the same work, are timed
 * interleaved (A B C A B C ..., events around each launch, warm-up rounds
 * first, median and min .. max of the timed rounds) and are given as G
 * ops/s and as time over the group's fastest. Every kernel is compute
 * bound: 8 independent chains per thread, 4 x (threads per SM / 256)
 * blocks of 256 per SM (at least 4 waves), inputs from kernel arguments or
 * device arrays (nothing to constant-fold), every chain summed into one
 * store per thread (nothing to drop). The integer rows are checked bit for
 * bit against each other and, for 256 threads, against the host; the
 * division rows against each other; the FMA rows against the FP32 peak.
 *
 * What each kernel compiles to (sm_90, CUDA 13.0, per op):
 * docs/notes/measure-programs.md.
 * The division rows are limited by MUFU (the special-function unit, a
 * quarter or less of the FP32 rate in the Programming Guide's throughput
 * table) plus whatever else each issues; the FMA rows show the FP64 : FP32
 * ratio of the GPU (1 : 2 on an H100 or H200; 1 : 32 on a T4).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>

#include "device_info.h"
#include "measure_common.h"
#include "measure_instructions.h"
#include "rng.h"

namespace {

/* The power of two of the integer rows: at run time the variable rows get
 * d = POW2 (mask POW2 - 1, shift 10), so all four rows of a group compute
 * the same sums and are compared bit for bit. */
constexpr unsigned POW2 = 1024, POW2_SHIFT = 10;

enum IntOp {
    MOD_FRESH, /* x % d', d' = d | (acc & zero): a new divisor each time */
    MOD_FIXED, /* x % d, d the same for the whole loop */
    MOD_MASK,  /* x & mask, mask = d - 1 */
    MOD_CONST, /* x % POW2 */
    DIV_FRESH,
    DIV_FIXED,
    DIV_SHIFT, /* x >> shift, shift = log2 d */
    DIV_CONST
};

struct IntArgs {
    unsigned seed, step, d, mask, shift, zero;
};

template <int OP> __device__ __forceinline__ unsigned int_op(unsigned x, unsigned acc,
                                                             const IntArgs &p)
{
    switch (OP) {
    case MOD_FRESH: return x % (p.d | (acc & p.zero));
    case MOD_FIXED: return x % p.d;
    case MOD_MASK: return x & p.mask;
    case MOD_CONST: return x % POW2;
    case DIV_FRESH: return x / (p.d | (acc & p.zero));
    case DIV_FIXED: return x / p.d;
    case DIV_SHIFT: return x >> p.shift;
    default: return x / POW2;
    }
}

/* Each thread: INSTR_CHAINS chains acc += OP(x); x += step, x starting from
 * a hash of its index and a run-time seed, and writes the sum of its accs. */
template <int OP> __global__ void int_chain(IntArgs p, int iters, unsigned *out)
{
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned x[INSTR_CHAINS], acc[INSTR_CHAINS];
#pragma unroll
    for (int j = 0; j < INSTR_CHAINS; ++j) {
        x[j] = (t * INSTR_CHAINS + j) * 2654435761u + p.seed;
        acc[j] = 0;
    }
#pragma unroll 4
    for (int i = 0; i < iters; ++i) {
#pragma unroll
        for (int j = 0; j < INSTR_CHAINS; ++j) {
            acc[j] += int_op<OP>(x[j], acc[j], p);
            x[j] += p.step;
        }
    }
    unsigned sum = 0;
#pragma unroll
    for (int j = 0; j < INSTR_CHAINS; ++j)
        sum += acc[j];
    out[t] = sum;
}

/* The same sum on the host, for thread t of the %-group (op 0) or the
 * /-group (op 1). */
unsigned int_chain_host(int op, const IntArgs &p, int iters, unsigned t)
{
    unsigned sum = 0;
    for (int j = 0; j < INSTR_CHAINS; ++j) {
        unsigned x = (t * INSTR_CHAINS + j) * 2654435761u + p.seed, acc = 0;
        for (int i = 0; i < iters; ++i) {
            acc += op == 0 ? x % p.d : x / p.d;
            x += p.step;
        }
        sum += acc;
    }
    return sum;
}

struct IeeeDivide {
    static __device__ __forceinline__ float apply(float x, float y) { return x / y; }
};
struct FastDivide {
    static __device__ __forceinline__ float apply(float x, float y) { return __fdividef(x, y); }
};
struct ReciprocalDivide {
    static __device__ __forceinline__ float apply(float x, float y) { return x * (1.0f / y); }
};

/* Each thread: INSTR_CHAINS chains acc = fma(acc, m, c), from a. */
template <typename T> __global__ void fma_chain(const float *a, T m, T c, int iters, T *out)
{
    const size_t threads = (size_t)gridDim.x * blockDim.x;
    const size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    T acc[INSTR_CHAINS];
#pragma unroll
    for (int j = 0; j < INSTR_CHAINS; ++j)
        acc[j] = (T)a[j * threads + t];
#pragma unroll 4
    for (int i = 0; i < iters; ++i) {
#pragma unroll
        for (int j = 0; j < INSTR_CHAINS; ++j)
            acc[j] = fma(acc[j], m, c);
    }
    T sum = 0;
#pragma unroll
    for (int j = 0; j < INSTR_CHAINS; ++j)
        sum += acc[j];
    out[t] = sum;
}

enum RowKind { ROW_INT, ROW_DIVIDE, ROW_FAST_MATH, ROW_FMA32, ROW_FMA64 };

/* One table row: what it launches, and where its result goes. */
struct Row {
    const char *label;
    RowKind kind;
    void (*int_kernel)(IntArgs, int, unsigned *);         /* ROW_INT */
    void (*divide_kernel)(const float *, const float *, float, int, float *); /* ROW_DIVIDE */
    void (*quotients)(const float *, const float *, float *, int);            /* ROW_DIVIDE */
    void *out;            /* one result per thread */
    stats_summary ms;     /* per launch */
    double max_rel_error; /* float division rows; NaN elsewhere */
};

struct Setup {
    int blocks, threads, iters;
    IntArgs int_args;
    const float *a, *b; /* threads * INSTR_CHAINS each */
};

cudaError_t launch(const Row &r, const Setup &s)
{
    switch (r.kind) {
    case ROW_INT:
        r.int_kernel<<<s.blocks, INSTR_BLOCK>>>(s.int_args, s.iters, (unsigned *)r.out);
        break;
    case ROW_DIVIDE:
        r.divide_kernel<<<s.blocks, INSTR_BLOCK>>>(s.a, s.b, 1.0f, s.iters, (float *)r.out);
        break;
    case ROW_FAST_MATH:
        return instr_fast_divide_chains(s.blocks, s.a, s.b, 1.0f, s.iters, (float *)r.out);
    case ROW_FMA32:
        fma_chain<float><<<s.blocks, INSTR_BLOCK>>>(s.a, 0.5f, 1.0f, s.iters, (float *)r.out);
        break;
    case ROW_FMA64:
        fma_chain<double><<<s.blocks, INSTR_BLOCK>>>(s.a, 0.5, 1.0, s.iters, (double *)r.out);
        break;
    }
    return cudaGetLastError();
}

/* Times a group's rows interleaved (A B C A B C ...), `warmup` untimed
 * rounds first, each launch between its own pair of events. */
int time_group(Row *rows, int count, const Setup &s, int warmup, int runs)
{
    cudaEvent_t start, stop;
    double *ms = (double *)malloc(sizeof(double) * (size_t)count * (size_t)runs);
    if (!ms || cudaEventCreate(&start) != cudaSuccess || cudaEventCreate(&stop) != cudaSuccess) {
        free(ms);
        return -1;
    }
    int status = 0;
    for (int round = 0; round < warmup + runs && status == 0; ++round)
        for (int k = 0; k < count && status == 0; ++k) {
            float elapsed = 0.0f;
            if (cudaEventRecord(start) != cudaSuccess || launch(rows[k], s) != cudaSuccess ||
                cudaEventRecord(stop) != cudaSuccess || cudaEventSynchronize(stop) != cudaSuccess ||
                cudaEventElapsedTime(&elapsed, start, stop) != cudaSuccess) {
                printf("  %s: %s\n", rows[k].label, cudaGetErrorString(cudaGetLastError()));
                status = -1;
            } else if (round >= warmup) {
                ms[(size_t)k * runs + (round - warmup)] = elapsed;
            }
        }
    for (int k = 0; k < count && status == 0; ++k)
        rows[k].ms = stats_summarize(ms + (size_t)k * runs, (size_t)runs);
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    free(ms);
    return status;
}

/* Largest |q - a/b| / |a/b| over the n pairs, the reference in double. */
double max_relative_error(const float *q, const float *a, const float *b, size_t n)
{
    double worst = 0.0;
    for (size_t k = 0; k < n; ++k) {
        const double exact = (double)a[k] / (double)b[k];
        const double error = fabs((double)q[k] - exact) / fabs(exact);
        if (!(error <= worst)) /* a NaN quotient counts as the worst */
            worst = error;
    }
    return worst;
}

void print_group(const char *title, const Row *rows, int count, double ops, int with_error)
{
    double cheapest = rows[0].ms.median;
    for (int k = 1; k < count; ++k)
        if (rows[k].ms.median < cheapest)
            cheapest = rows[k].ms.median;
    printf("\n%s\n", title);
    printf("  %-42s %30s %9s%s\n", "row", "G ops/s median (min .. max)", "time/min",
           with_error ? "  max rel. error (x 2^-24)" : "");
    for (int k = 0; k < count; ++k) {
        const stats_summary rate = measure_rate(&rows[k].ms, ops, 1e9);
        printf("  %-42s %9.0f (%7.0f .. %7.0f) %8.2fx", rows[k].label, rate.median, rate.min,
               rate.max, rows[k].ms.median / cheapest);
        if (with_error)
            printf("  %10.3g (%5.2f)", rows[k].max_rel_error, ldexp(rows[k].max_rel_error, 24));
        printf("\n");
    }
    fflush(stdout);
}

/* Copies `bytes` of each row's result back: do all rows agree bit for bit? */
int rows_identical(const Row *rows, int count, size_t bytes, void *first, void *other)
{
    if (cudaMemcpy(first, rows[0].out, bytes, cudaMemcpyDeviceToHost) != cudaSuccess)
        return 0;
    for (int k = 1; k < count; ++k)
        if (cudaMemcpy(other, rows[k].out, bytes, cudaMemcpyDeviceToHost) != cudaSuccess ||
            memcmp(first, other, bytes) != 0) {
            printf("  WRONG: %s differs from %s: the times mean nothing\n", rows[k].label,
                   rows[0].label);
            return 0;
        }
    return 1;
}

} // namespace

int main(int argc, char **argv)
{
    const int runs = argc > 1 ? atoi(argv[1]) : 21;
    if (argc > 2 || runs < 1 || runs > 1000) {
        fprintf(stderr, "usage: %s [runs]   (timed runs per row, 1 .. 1000; default 21)\n",
                argv[0]);
        return 2;
    }
    if (!measure_start("Lab 5, section 9: instruction throughput (integer % and /, float "
                       "division, FP32 and FP64 FMA)", argc, argv))
        return MEASURE_NO_DEVICE;

    /* Four full waves of INSTR_BLOCK-thread blocks: every SM busy, every
     * scheduler with as many warps as the SM holds. */
    int sms = 0, threads_per_sm = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    cudaDeviceGetAttribute(&threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, 0);
    const int blocks = sms * (threads_per_sm / INSTR_BLOCK) * 4, threads = blocks * INSTR_BLOCK;
    const size_t pairs = (size_t)threads * INSTR_CHAINS;
    const int warmup = 3, int_iters = 1024, float_iters = 1024, fma_iters = 4096;
    const timing_plan plan = {warmup, runs, 1, 0};
    printf("launch:  %d blocks x %d threads (%d SMs x 4 x the blocks an SM holds, at least 4 "
           "waves), %d\n         independent chains per thread\n", blocks, INSTR_BLOCK, sms,
           INSTR_CHAINS);
    printf("work:    iterations per chain: %d (integer rows), %d (division rows), %d (FMA "
           "rows);\n         one op = one %%, /, division or FMA\n", int_iters, float_iters,
           fma_iters);
    measure_print_plan(&plan);
    printf("         rows of a group interleaved (A B C A B C ...); time/min = median time over "
           "the group's\n         fastest median; max rel. error: each division on the "
           "chains' first %zu inputs\n         against a double division of the same floats\n",
           pairs);

    /* a, b: log-uniform in [1/16, 16), the same for every float row. */
    float *host_a = (float *)malloc(pairs * sizeof(float));
    float *host_b = (float *)malloc(pairs * sizeof(float));
    float *host_q = (float *)malloc(pairs * sizeof(float));
    float *a = NULL, *b = NULL, *q = NULL;
    void *outs[14] = {0};
    if (!host_a || !host_b || !host_q) {
        printf("measure_instructions: out of host memory\n");
        return 1;
    }
    rng_fill_uniform(host_a, pairs, 20261201, -4.0f, 4.0f);
    rng_fill_uniform(host_b, pairs, 20261202, -4.0f, 4.0f);
    for (size_t k = 0; k < pairs; ++k) {
        host_a[k] = exp2f(host_a[k]);
        host_b[k] = exp2f(host_b[k]);
    }
    int failed = cudaMalloc((void **)&a, pairs * sizeof(float)) != cudaSuccess ||
                 cudaMalloc((void **)&b, pairs * sizeof(float)) != cudaSuccess ||
                 cudaMalloc((void **)&q, pairs * sizeof(float)) != cudaSuccess ||
                 cudaMemcpy(a, host_a, pairs * sizeof(float), cudaMemcpyHostToDevice) !=
                     cudaSuccess ||
                 cudaMemcpy(b, host_b, pairs * sizeof(float), cudaMemcpyHostToDevice) !=
                     cudaSuccess;
    for (int k = 0; k < 14 && !failed; ++k)
        failed = cudaMalloc(&outs[k], (size_t)threads * sizeof(double)) != cudaSuccess;
    if (failed) {
        printf("measure_instructions: cannot allocate the inputs: %s\n",
               cudaGetErrorString(cudaGetLastError()));
        return 1;
    }

    const IntArgs int_args = {20261203u, 0x9e3779b9u, POW2, POW2 - 1, POW2_SHIFT, 0u};
    Row mod_rows[] = {
        {"x % d, d run-time, new each time", ROW_INT, int_chain<MOD_FRESH>, 0, 0, outs[0], {}, NAN},
        {"x % d, d run-time, fixed in the loop", ROW_INT, int_chain<MOD_FIXED>, 0, 0, outs[1], {},
         NAN},
        {"x & (d - 1), d a run-time power of 2", ROW_INT, int_chain<MOD_MASK>, 0, 0, outs[2], {},
         NAN},
        {"x % 1024, a compile-time power of 2", ROW_INT, int_chain<MOD_CONST>, 0, 0, outs[3], {},
         NAN},
    };
    Row div_rows[] = {
        {"x / d, d run-time, new each time", ROW_INT, int_chain<DIV_FRESH>, 0, 0, outs[4], {}, NAN},
        {"x / d, d run-time, fixed in the loop", ROW_INT, int_chain<DIV_FIXED>, 0, 0, outs[5], {},
         NAN},
        {"x >> s, d = 2^s a run-time power of 2", ROW_INT, int_chain<DIV_SHIFT>, 0, 0, outs[6], {},
         NAN},
        {"x / 1024, a compile-time power of 2", ROW_INT, int_chain<DIV_CONST>, 0, 0, outs[7], {},
         NAN},
    };
    Row float_rows[] = {
        {"a / b (IEEE, the default)", ROW_DIVIDE, 0, instr_divide_chain<IeeeDivide>,
         instr_quotients<IeeeDivide>, outs[8], {}, NAN},
        {"__fdividef(a, b)", ROW_DIVIDE, 0, instr_divide_chain<FastDivide>,
         instr_quotients<FastDivide>, outs[9], {}, NAN},
        {"a * (1 / b)", ROW_DIVIDE, 0, instr_divide_chain<ReciprocalDivide>,
         instr_quotients<ReciprocalDivide>, outs[10], {}, NAN},
        {"a / b with -use_fast_math", ROW_FAST_MATH, 0, 0, 0, outs[11], {}, NAN},
    };
    Row fma_rows[] = {
        {"FP32 FMA, fmaf(acc, m, c)", ROW_FMA32, 0, 0, 0, outs[12], {}, NAN},
        {"FP64 FMA, fma(acc, m, c)", ROW_FMA64, 0, 0, 0, outs[13], {}, NAN},
    };
    const double int_ops = (double)pairs * int_iters, float_ops = (double)pairs * float_iters;
    const double fma_ops = (double)pairs * fma_iters;
    Setup int_setup = {blocks, threads, int_iters, int_args, a, b};
    Setup float_setup = {blocks, threads, float_iters, int_args, a, b};
    Setup fma_setup = {blocks, threads, fma_iters, int_args, a, b};

    unsigned *first = (unsigned *)malloc((size_t)threads * sizeof(double));
    unsigned *other = (unsigned *)malloc((size_t)threads * sizeof(double));
    if (!first || !other)
        return 1;

    /* Integer groups: every row the same sums, and thread 0..255's sums
     * computed again on the host. */
    Row *int_groups[2] = {mod_rows, div_rows};
    const char *int_titles[2] = {"integer %, by 1024 (unsigned; d, mask and shift arrive as "
                                 "kernel arguments)",
                                 "integer /, by 1024 (unsigned; as above)"};
    for (int g = 0; g < 2; ++g) {
        if (time_group(int_groups[g], 4, int_setup, warmup, runs) != 0) {
            failed = 1;
            continue;
        }
        print_group(int_titles[g], int_groups[g], 4, int_ops, 0);
        int same = rows_identical(int_groups[g], 4, (size_t)threads * sizeof(unsigned), first,
                                  other);
        for (unsigned t = 0; same && t < 256; ++t)
            if (first[t] != int_chain_host(g, int_args, int_iters, t)) {
                printf("  WRONG: thread %u's sum differs from the host's: the times mean "
                       "nothing\n", t);
                same = 0;
            }
        failed |= !same;
    }

    /* Float division: the chains' results agree to within the contraction
     * of their rounding differences; the accuracy is measured apart. */
    if (time_group(float_rows, 4, float_setup, warmup, runs) != 0) {
        failed = 1;
    } else {
        for (int k = 0; k < 4; ++k) {
            cudaError_t err;
            if (float_rows[k].kind == ROW_FAST_MATH) {
                err = instr_fast_quotients(a, b, q, (int)pairs);
            } else {
                float_rows[k].quotients<<<(int)((pairs + INSTR_BLOCK - 1) / INSTR_BLOCK),
                                          INSTR_BLOCK>>>(a, b, q, (int)pairs);
                err = cudaGetLastError();
            }
            if (err != cudaSuccess ||
                cudaMemcpy(host_q, q, pairs * sizeof(float), cudaMemcpyDeviceToHost) !=
                    cudaSuccess) {
                printf("  %s: quotients failed: %s\n", float_rows[k].label,
                       cudaGetErrorString(cudaGetLastError()));
                failed = 1;
                break;
            }
            float_rows[k].max_rel_error = max_relative_error(host_q, host_a, host_b, pairs);
        }
        print_group("float division, a and b log-uniform in [1/16, 16); each chain "
                    "y <- a / y + 1", float_rows, 4, float_ops, 1);
        float *ieee = (float *)first, *row = (float *)other;
        int wrong = cudaMemcpy(ieee, float_rows[0].out, (size_t)threads * sizeof(float),
                               cudaMemcpyDeviceToHost) != cudaSuccess;
        for (int k = 1; k < 4 && !wrong; ++k) {
            wrong = cudaMemcpy(row, float_rows[k].out, (size_t)threads * sizeof(float),
                               cudaMemcpyDeviceToHost) != cudaSuccess;
            for (int t = 0; t < threads && !wrong; ++t)
                if (!(fabsf(row[t] - ieee[t]) <= 1e-4f * fabsf(ieee[t]))) {
                    printf("  WRONG: %s ends at %g in thread %d, the IEEE row at %g: the times "
                           "mean nothing\n", float_rows[k].label, row[t], t, ieee[t]);
                    wrong = 1;
                }
        }
        failed |= wrong;
    }

    /* FMA: FP32 against FP64; no row may beat the FP32 peak the SM count
     * and clock allow (one FMA per lane per clock, 128 lanes per SM). */
    if (time_group(fma_rows, 2, fma_setup, warmup, runs) != 0) {
        failed = 1;
    } else {
        print_group("FMA chains acc <- acc * 0.5 + 1 (one FMA = 2 FLOP)", fma_rows, 2, fma_ops,
                    0);
        const double peak_fma = device_fp32_peak_flops() / 2.0;
        for (int k = 0; k < 2; ++k) {
            const stats_summary rate = measure_rate(&fma_rows[k].ms, fma_ops, 1.0);
            if (peak_fma > 0.0 && rate.max > peak_fma) {
                printf("  WRONG: %s ran %.0f G FMA/s, above the FP32 peak %.0f: it did not do "
                       "its work\n", fma_rows[k].label, rate.max * 1e-9, peak_fma * 1e-9);
                failed = 1;
            }
        }
    }

    free(first);
    free(other);
    free(host_a);
    free(host_b);
    free(host_q);
    return failed;
}
