/* What the two translation units of measure_instructions share: the float
 * division chain, compiled once with the default (IEEE) division and once
 * with --use_fast_math (measure_instructions_fast.cu), so that both kinds
 * of `a / b` run in one binary and are timed side by side. */
#ifndef MEASURE_INSTRUCTIONS_H
#define MEASURE_INSTRUCTIONS_H

#include <cuda_runtime_api.h>

/* Independent chains per thread: enough work in flight that the kernels are
 * limited by the rate instructions issue, not by their latency. */
enum { INSTR_CHAINS = 8, INSTR_BLOCK = 256 };

/* `x / y` compiled with --use_fast_math, in the chain of instr_divide_chain;
 * blocks x INSTR_BLOCK threads, on the default stream. */
extern "C" cudaError_t instr_fast_divide_chains(int blocks, const float *a, const float *b,
                                                float c, int iters, float *out);
/* q[k] = a[k] / b[k] compiled with --use_fast_math, k < n. */
extern "C" cudaError_t instr_fast_quotients(const float *a, const float *b, float *q, int n);

#ifdef __CUDACC__
namespace {

/* Each thread runs INSTR_CHAINS chains y <- DIV(x, y) + c, x and y loaded
 * from a and b (element j * threads + t for chain j), and writes the sum of
 * its chains: every division depends on the one before it in its chain, and
 * its divisor is new each time, so no compiler can hoist a reciprocal out
 * of the loop or share one between divisions. y converges to the positive
 * root of y^2 = x + c*y (a contraction for x, c > 0), so every quotient
 * stays in the range where division takes its fast path. */
template <class DIV>
__global__ void instr_divide_chain(const float *a, const float *b, float c, int iters,
                                   float *out)
{
    const size_t threads = (size_t)gridDim.x * blockDim.x;
    const size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    float x[INSTR_CHAINS], y[INSTR_CHAINS];
#pragma unroll
    for (int j = 0; j < INSTR_CHAINS; ++j) {
        x[j] = a[j * threads + t];
        y[j] = b[j * threads + t];
    }
#pragma unroll 4
    for (int i = 0; i < iters; ++i) {
#pragma unroll
        for (int j = 0; j < INSTR_CHAINS; ++j)
            y[j] = DIV::apply(x[j], y[j]) + c;
    }
    float sum = 0.0f;
#pragma unroll
    for (int j = 0; j < INSTR_CHAINS; ++j)
        sum += y[j];
    out[t] = sum;
}

/* One quotient per pair: the accuracy of DIV on the chains' first inputs. */
template <class DIV>
__global__ void instr_quotients(const float *a, const float *b, float *q, int n)
{
    for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < n; k += gridDim.x * blockDim.x)
        q[k] = DIV::apply(a[k], b[k]);
}

} // namespace
#endif

#endif
