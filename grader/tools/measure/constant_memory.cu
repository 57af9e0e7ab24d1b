/* The constant-memory exercise of lab 3's handout (section 11, "Constant
 * memory, measured"): out[i] = in[i] * coefficient, with 256 coefficients
 * kept in __constant__ memory or in a global array, read either by every
 * lane at the same index (a broadcast) or by lane l at index l (32
 * different addresses per warp). Prints the median ms of each of the four.
 * Built and run by grader/tools/handout_measurements.sh. */
#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime.h>

enum { N = 1 << 24, COEFFICIENTS = 256, BLOCK = 256, RUNS = 21 };

__constant__ float constant_coefficients[COEFFICIENTS];

#define CHECK(call)                                                                        \
    do {                                                                                   \
        cudaError_t err_ = (call);                                                         \
        if (err_ != cudaSuccess) {                                                         \
            fprintf(stderr, "%s failed: %s\n", #call, cudaGetErrorString(err_));           \
            exit(1);                                                                       \
        }                                                                                  \
    } while (0)

/* spread = 0: every lane reads coefficient 0; 1: lane l reads coefficient l. */
__global__ void scale_from_constant(const float *in, float *out, int n, int spread)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] * constant_coefficients[spread * (threadIdx.x % 32)];
}

__global__ void scale_from_global(const float *in, float *out, const float *coefficients, int n,
                                  int spread)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] * coefficients[spread * (threadIdx.x % 32)];
}

static int compare_floats(const void *x, const void *y)
{
    float a = *(const float *)x, b = *(const float *)y;
    return (a > b) - (a < b);
}

static float median_ms(int use_constant, int spread, const float *in, float *out,
                       const float *coefficients)
{
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    float ms[RUNS];
    for (int r = -3; r < RUNS; ++r) { /* 3 warm-ups */
        CHECK(cudaEventRecord(start, 0));
        if (use_constant)
            scale_from_constant<<<N / BLOCK, BLOCK>>>(in, out, N, spread);
        else
            scale_from_global<<<N / BLOCK, BLOCK>>>(in, out, coefficients, N, spread);
        CHECK(cudaEventRecord(stop, 0));
        CHECK(cudaEventSynchronize(stop));
        if (r >= 0)
            CHECK(cudaEventElapsedTime(&ms[r], start, stop));
    }
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    qsort(ms, RUNS, sizeof(float), compare_floats);
    return ms[RUNS / 2];
}

int main(void)
{
    float host[COEFFICIENTS];
    for (int i = 0; i < COEFFICIENTS; ++i)
        host[i] = 1.0f + i / 256.0f;
    float *in, *out, *coefficients;
    CHECK(cudaMalloc((void **)&in, N * sizeof(float)));
    CHECK(cudaMalloc((void **)&out, N * sizeof(float)));
    CHECK(cudaMalloc((void **)&coefficients, sizeof host));
    CHECK(cudaMemset(in, 0, N * sizeof(float)));
    CHECK(cudaMemcpy(coefficients, host, sizeof host, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpyToSymbol(constant_coefficients, host, sizeof host));
    printf("constant memory, broadcast (all lanes index 0): %.4f ms\n",
           median_ms(1, 0, in, out, coefficients));
    printf("constant memory, lane l reads index l:          %.4f ms\n",
           median_ms(1, 1, in, out, coefficients));
    printf("global memory, broadcast (all lanes index 0):   %.4f ms\n",
           median_ms(0, 0, in, out, coefficients));
    printf("global memory, lane l reads index l:            %.4f ms\n",
           median_ms(0, 1, in, out, coefficients));
    return 0;
}
