/* lab1_stride_bench: what misaligned and strided reads cost, measured
 * (handout lab 1, section 4, "Misaligned and strided access"; TODO(1.6)).
 *
 * Thread i of a 1D launch copies in[offset + i * stride] to out[i], for
 * 2^24 outputs: the reads are misaligned by `offset` floats or spread
 * `stride` floats apart, the writes are always coalesced. For offsets 0..32
 * (stride 1) and strides 1..32 (offset 0) it prints the time, the useful
 * bandwidth (bytes the program asked for: 4 read + 4 written per output),
 * the sectors per read request predicted by lab1_sectors_per_request (the
 * student's TODO(1.6), or the reference's in the _solution build) and the
 * efficiency that predicts, 128 / (32 x sectors).
 *
 * Usage: lab1_stride_bench [runs]   (median of `runs` launches, default 21) */
#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime.h>

#include "lab1.h"

enum { OUTPUTS = 1 << 24, BLOCK = 256, MAX_SHIFT = 32 };

#define CHECK(call)                                                                        \
    do {                                                                                   \
        cudaError_t err_ = (call);                                                         \
        if (err_ != cudaSuccess) {                                                         \
            fprintf(stderr, "lab1_stride_bench: %s failed: %s\n", #call,                   \
                    cudaGetErrorString(err_));                                             \
            exit(1);                                                                       \
        }                                                                                  \
    } while (0)

__global__ void strided_read_kernel(const float *in, float *out, int offset, int stride, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[offset + (long long)i * stride];
}

static int compare_floats(const void *x, const void *y)
{
    float a = *(const float *)x, b = *(const float *)y;
    return (a > b) - (a < b);
}

/* Median ms of `runs` launches after 3 untimed ones. */
static float time_reads(const float *in, float *out, int offset, int stride, int runs)
{
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    int blocks = (OUTPUTS + BLOCK - 1) / BLOCK;
    for (int i = 0; i < 3; ++i)
        strided_read_kernel<<<blocks, BLOCK>>>(in, out, offset, stride, OUTPUTS);
    CHECK(cudaGetLastError());
    float *ms = (float *)malloc(sizeof(float) * runs);
    for (int r = 0; r < runs; ++r) {
        CHECK(cudaEventRecord(start, 0));
        strided_read_kernel<<<blocks, BLOCK>>>(in, out, offset, stride, OUTPUTS);
        CHECK(cudaEventRecord(stop, 0));
        CHECK(cudaEventSynchronize(stop));
        CHECK(cudaEventElapsedTime(&ms[r], start, stop));
    }
    qsort(ms, runs, sizeof(float), compare_floats);
    float median = ms[runs / 2];
    free(ms);
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    return median;
}

static void report(const char *what, int value, const float *in, float *out, int offset,
                   int stride, int runs)
{
    float ms = time_reads(in, out, offset, stride, runs);
    double useful_gbps = 2.0 * OUTPUTS * sizeof(float) / (ms * 1e-3) / 1e9;
    int sectors = lab1_sectors_per_request(offset, stride);
    printf("%-6s %3d  %8.4f ms  %8.1f GB/s useful  predicted %2d sectors/request, %5.1f%% of "
           "read bytes used\n",
           what, value, ms, useful_gbps, sectors, sectors > 0 ? 100.0 * 128 / (32.0 * sectors) : 0.0);
}

int main(int argc, char **argv)
{
    int runs = argc > 1 ? atoi(argv[1]) : 21;
    if (runs < 1)
        runs = 21;
    struct cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    printf("lab1_stride_bench on %s: out[i] = in[offset + i * stride], %d outputs, blocks of "
           "%d, median of %d runs\n",
           prop.name, OUTPUTS, BLOCK, runs);
    float *in, *out;
    /* Large enough for the widest stride: OUTPUTS * 32 floats = 2 GiB. */
    size_t in_floats = (size_t)OUTPUTS * MAX_SHIFT + MAX_SHIFT;
    CHECK(cudaMalloc((void **)&in, in_floats * sizeof(float)));
    CHECK(cudaMalloc((void **)&out, (size_t)OUTPUTS * sizeof(float)));
    CHECK(cudaMemset(in, 0, in_floats * sizeof(float)));
    for (int offset = 0; offset <= MAX_SHIFT; ++offset)
        report("offset", offset, in, out, offset, 1, runs);
    for (int stride = 1; stride <= MAX_SHIFT; ++stride)
        report("stride", stride, in, out, 0, stride, runs);
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
    return 0;
}
