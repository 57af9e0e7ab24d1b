#include "device_verify.h"

#include "cuda_check.h"

namespace {

const int BLOCK = 256;

/* splitmix64 of (seed + index): independent values without any state. */
__device__ unsigned long long mix(unsigned long long x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/* Element i of device_fill_uniform's array. */
__device__ float uniform_at(unsigned long long seed, size_t i, float lo, float hi)
{
    float unit = (float)(mix(seed + i) >> 40) * (1.0f / 16777216.0f); /* 24 bits: [0,1) */
    return lo + (hi - lo) * unit;
}

__global__ void fill_uniform_kernel(float *out, size_t n, unsigned long long seed, float lo,
                                    float hi)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        out[i] = uniform_at(seed, i, lo, hi);
}

/* Counts got[i] != factor * uniform_at(i) (beyond rtol) and keeps the
 * lowest such index: a whole output checked without a second array. */
__global__ void scaled_uniform_mismatch_kernel(const float *got, size_t n,
                                               unsigned long long seed, float lo, float hi,
                                               float factor, double rtol,
                                               unsigned long long *count,
                                               unsigned long long *first)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    unsigned long long mine = 0, lowest = ~0ull;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        double w = (double)(factor * uniform_at(seed, i, lo, hi)), g = got[i];
        if (!(fabs(g - w) <= rtol * fabs(w))) { /* NaN fails too */
            ++mine;
            lowest = i < lowest ? i : lowest;
        }
    }
    if (mine) {
        atomicAdd(count, mine);
        atomicMin(first, lowest);
    }
}

__global__ void scale_kernel(const float *in, float *out, float factor, size_t n)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        out[i] = factor * in[i];
}

__global__ void mismatch_kernel(const float *got, const float *want, size_t n, double atol,
                                double rtol, unsigned long long *count)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    unsigned long long mine = 0;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        double g = got[i], w = want[i];
        /* Written so that NaN fails: NaN compares false. */
        mine += !(fabs(g - w) <= atol + rtol * fabs(w)) || isinf(g);
    }
    if (mine)
        atomicAdd(count, mine);
}

unsigned grid_for(size_t n)
{
    size_t blocks = (n + BLOCK - 1) / BLOCK;
    return (unsigned)(blocks < 4096 ? (blocks ? blocks : 1) : 4096);
}

} // namespace

extern "C" void device_fill_uniform(float *out, size_t n, uint64_t seed, float lo, float hi)
{
    fill_uniform_kernel<<<grid_for(n), BLOCK>>>(out, n, seed, lo, hi);
    CUDA_CHECK(cudaGetLastError());
}

extern "C" void device_scale(const float *in, float *out, float factor, size_t n)
{
    scale_kernel<<<grid_for(n), BLOCK>>>(in, out, factor, n);
    CUDA_CHECK(cudaGetLastError());
}

extern "C" size_t device_count_mismatches(const float *got, const float *want, size_t n,
                                          double atol, double rtol)
{
    unsigned long long *count = nullptr, host = 0;
    CUDA_CHECK(cudaMalloc(&count, sizeof *count));
    CUDA_CHECK(cudaMemset(count, 0, sizeof *count));
    mismatch_kernel<<<grid_for(n), BLOCK>>>(got, want, n, atol, rtol, count);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(&host, count, sizeof host, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(count));
    return (size_t)host;
}

extern "C" size_t device_count_scaled_uniform_mismatches(const float *got, size_t n,
                                                        uint64_t seed, float lo, float hi,
                                                        float factor, double rtol,
                                                        size_t *first_bad)
{
    unsigned long long *counters = nullptr, host[2] = {0, 0};
    const unsigned long long init[2] = {0, ~0ull};
    CUDA_CHECK(cudaMalloc(&counters, sizeof host));
    CUDA_CHECK(cudaMemcpy(counters, init, sizeof init, cudaMemcpyHostToDevice));
    scaled_uniform_mismatch_kernel<<<grid_for(n), BLOCK>>>(got, n, seed, lo, hi, factor, rtol,
                                                           &counters[0], &counters[1]);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(host, counters, sizeof host, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(counters));
    if (first_bad)
        *first_bad = (size_t)host[1];
    return (size_t)host[0];
}
