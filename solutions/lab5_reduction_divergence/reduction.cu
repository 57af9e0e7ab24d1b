/* Lab 5 - parallel reduction: reference solution.
 *
 * Read top to bottom: the three helpers and the kernels of stages (1)-(3),
 * the extension's stages (4)-(6), then the entry points.
 * handouts/lab5-reduction-divergence.md explains each step. */
#include "lab5.h"

#include <stdint.h>

#include "cuda_check.h"

/* ------------------------------------------------------------ helpers */

LAB_HOST_DEVICE int lab5_divergent_active(lab_dim3 thread_idx, int stride)
{
    /* Every (2*stride)-th thread adds its right-hand neighbour's pair. */
    return thread_idx.x % (2 * stride) == 0;
}

LAB_HOST_DEVICE int lab5_strided_index(lab_dim3 thread_idx, int stride)
{
    /* The same pairs as (1), handed to threads 0, 1, 2, ... in order. */
    return 2 * stride * thread_idx.x;
}

LAB_HOST_DEVICE int lab5_sequential_active(lab_dim3 thread_idx, int stride)
{
    return thread_idx.x < stride;
}

/* ------------------------------------------------------------------------
 * Where a block's sum goes: written for you. */

/* The graded ending adds each block's sum into *out, one atomicAdd per
 * block. The no-atomic experiment (lab5_set_partials in lab5.h, handout
 * section 9) stores it in the block's own slot instead, so that no block
 * queues behind another's atomic. The entry points choose; your kernels
 * hand their sum to add_block_sum and work the same either way
 * (maybe_unused: until the kernels are written, nothing calls it). */
typedef struct {
    float *out;      /* the whole sum, set to zero first by start_sum */
    float *partials; /* NULL, or one slot per block */
} block_sums;

[[maybe_unused]] static __device__ __forceinline__ void add_block_sum(block_sums sums,
                                                                      float block_sum)
{
    if (sums.partials)
        sums.partials[blockIdx.x] = block_sum;
    else
        atomicAdd(sums.out, block_sum);
}

/* --------------------------------------------------- stages (1)-(3) */

/* One element per thread into shared memory, 0 past the end. */
static __device__ __forceinline__ void load_one(float *s, const float *in, int n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < (size_t)n ? in[i] : 0.0f;
    __syncthreads();
}

__global__ void divergent_kernel(const float *in, block_sums sums, int n)
{
    __shared__ float s[LAB5_BLOCK];
    load_one(s, in, n);
    for (int stride = 1; stride < (int)blockDim.x; stride *= 2) {
        if (lab5_divergent_active(lab_thread_idx(), stride))
            s[threadIdx.x] += s[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        add_block_sum(sums, s[0]);
}

__global__ void strided_kernel(const float *in, block_sums sums, int n)
{
    __shared__ float s[LAB5_BLOCK];
    load_one(s, in, n);
    for (int stride = 1; stride < (int)blockDim.x; stride *= 2) {
        int i = lab5_strided_index(lab_thread_idx(), stride);
        if (i + stride < (int)blockDim.x)
            s[i] += s[i + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        add_block_sum(sums, s[0]);
}

/* The sequential steps over s[0..blockDim.x), down to stride `last`. */
static __device__ __forceinline__ void sequential_steps(float *s, int last)
{
    for (int stride = blockDim.x / 2; stride >= last; stride >>= 1) {
        if (lab5_sequential_active(lab_thread_idx(), stride))
            s[threadIdx.x] += s[threadIdx.x + stride];
        __syncthreads();
    }
}

__global__ void sequential_kernel(const float *in, block_sums sums, int n)
{
    __shared__ float s[LAB5_BLOCK];
    load_one(s, in, n);
    sequential_steps(s, 1);
    if (threadIdx.x == 0)
        add_block_sum(sums, s[0]);
}

/* ------------------------------------------- stages (4)-(6), extension */

__global__ void first_add_kernel(const float *in, block_sums sums, int n)
{
    __shared__ float s[LAB5_BLOCK];
    /* Each block covers 2*blockDim.x elements: the first step of the
     * reduction happens in registers, while loading. */
    size_t i = (size_t)blockIdx.x * 2 * blockDim.x + threadIdx.x;
    float v = i < (size_t)n ? in[i] : 0.0f;
    if (i + blockDim.x < (size_t)n)
        v += in[i + blockDim.x];
    s[threadIdx.x] = v;
    __syncthreads();
    sequential_steps(s, 1);
    if (threadIdx.x == 0)
        add_block_sum(sums, s[0]);
}

/* The sum of v over the 32 lanes of a warp, in lane 0: each step adds the
 * value held `offset` lanes higher, registers to registers. */
static __device__ __forceinline__ float warp_sum(float v)
{
    for (int offset = LAB5_WARP / 2; offset > 0; offset >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

__global__ void warp_shuffle_kernel(const float *in, block_sums sums, int n)
{
    __shared__ float s[LAB5_BLOCK];
    size_t i = (size_t)blockIdx.x * 2 * blockDim.x + threadIdx.x;
    float v = i < (size_t)n ? in[i] : 0.0f;
    if (i + blockDim.x < (size_t)n)
        v += in[i + blockDim.x];
    s[threadIdx.x] = v;
    __syncthreads();
    /* Shared-memory steps while more than one warp is needed... */
    sequential_steps(s, 2 * LAB5_WARP);
    /* ...then warp 0 alone: 64 values to 32 in one add, then shuffles. */
    if (threadIdx.x < LAB5_WARP) {
        v = warp_sum(s[threadIdx.x] + s[threadIdx.x + LAB5_WARP]);
        if (threadIdx.x == 0)
            add_block_sum(sums, v);
    }
}

/* Enough float4 loads in flight per thread to cover the memory latency:
 * UNROLL independent loads per loop trip. */
enum { GRID_STRIDE_UNROLL = 4 };

__global__ void grid_stride_kernel(const float *in, block_sums sums, int n)
{
    /* Elements before the first 16-byte boundary ("head") and after the
     * last whole float4 ("tail") are added one by one; the body is read as
     * float4, so that each load instruction moves 16 bytes. */
    size_t head = ((16u - ((uintptr_t)in & 15u)) & 15u) / sizeof(float);
    if (head > (size_t)n)
        head = (size_t)n;
    const float4 *body = (const float4 *)(in + head);
    size_t quads = ((size_t)n - head) / 4;
    size_t tail_start = head + 4 * quads;

    size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t threads = (size_t)gridDim.x * blockDim.x;
    float v = 0.0f;
    size_t k = tid;
    for (; k + (GRID_STRIDE_UNROLL - 1) * threads < quads; k += GRID_STRIDE_UNROLL * threads) {
        float4 q[GRID_STRIDE_UNROLL];
#pragma unroll
        for (int u = 0; u < GRID_STRIDE_UNROLL; ++u)
            q[u] = __ldg(body + k + u * threads);
#pragma unroll
        for (int u = 0; u < GRID_STRIDE_UNROLL; ++u)
            v += (q[u].x + q[u].y) + (q[u].z + q[u].w);
    }
    for (; k < quads; k += threads) {
        float4 q = __ldg(body + k);
        v += (q.x + q.y) + (q.z + q.w);
    }
    if (tid < head)
        v += in[tid];
    if (tid < (size_t)n - tail_start)
        v += in[tail_start + tid];

    /* Block sum: each warp by shuffles, then warp 0 over the warps' sums. */
    __shared__ float warp_sums[LAB5_MAX_BLOCK / LAB5_WARP];
    int lane = threadIdx.x % LAB5_WARP, warp = threadIdx.x / LAB5_WARP;
    v = warp_sum(v);
    if (lane == 0)
        warp_sums[warp] = v;
    __syncthreads();
    if (warp == 0) {
        int warps = blockDim.x / LAB5_WARP;
        v = warp_sum(lane < warps ? warp_sums[lane] : 0.0f);
        if (lane == 0)
            add_block_sum(sums, v);
    }
}

/* ------------------------------------------------------------------------
 * Entry points. */

static lab_status check_sum_args(const char *function, const float *in, const float *out, int n)
{
    if (n < 1)
        return lab_fail(LAB_ERR_INVALID_SIZE, "%s: n=%d must be at least 1", function, n);
    return lab_check_pointers(function, in, out, out);
}

/* Every block adds into *out, so it starts at zero on every call (on the
 * default stream, before the kernel: no synchronisation needed). */
static lab_status start_sum(float *out)
{
    LAB_CUDA_TRY(cudaMemsetAsync(out, 0, sizeof *out, 0));
    return LAB_OK;
}

/* Blocks of LAB5_BLOCK threads, each block covering `per_block` elements. */
static unsigned blocks_covering(int n, int per_block)
{
    return (unsigned)(n / per_block + (n % per_block != 0));
}

/* The no-atomic experiment's slots (lab5_set_partials): NULL for the
 * graded atomic ending. */
static float *partials_slots;
static size_t partials_count;

extern "C" lab_status lab5_set_partials(float *partials, size_t count)
{
    if ((partials == NULL) != (count == 0))
        return lab_fail(LAB_ERR_INVALID_SIZE, "lab5_set_partials: partials=%p with count=%zu: "
                        "give both, or NULL and 0 to restore the atomic ending",
                        (void *)partials, count);
    partials_slots = partials;
    partials_count = count;
    return LAB_OK;
}

/* Where the sums of a launch of `blocks` blocks go: into *out, set to zero
 * first, or into the experiment's slots when there are enough of them. */
static lab_status start_block_sums(const char *function, float *out, unsigned blocks,
                                   block_sums *sums)
{
    sums->out = out;
    sums->partials = partials_slots;
    if (!partials_slots)
        return start_sum(out);
    if (blocks > partials_count)
        return lab_fail(LAB_ERR_INVALID_SIZE, "%s: the launch has %u blocks, but "
                        "lab5_set_partials gave %zu slots", function, blocks, partials_count);
    return LAB_OK;
}

typedef void (*sum_kernel)(const float *, block_sums, int);

static lab_status launch_sum(const char *function, sum_kernel kernel, int per_block,
                             const float *in, float *out, int n)
{
    lab_status status = check_sum_args(function, in, out, n);
    unsigned blocks = status == LAB_OK ? blocks_covering(n, per_block) : 0;
    block_sums sums = {out, NULL};
    if (status == LAB_OK)
        status = start_block_sums(function, out, blocks, &sums);
    if (status != LAB_OK)
        return status;
    kernel<<<blocks, LAB5_BLOCK>>>(in, sums, n);
    LAB_LAUNCH_CHECK();
    return LAB_OK;
}

extern "C" lab_status lab5_sum_divergent(const float *in, float *out, int n)
{
    return launch_sum("lab5_sum_divergent", divergent_kernel, LAB5_BLOCK, in, out, n);
}

extern "C" lab_status lab5_sum_strided(const float *in, float *out, int n)
{
    return launch_sum("lab5_sum_strided", strided_kernel, LAB5_BLOCK, in, out, n);
}

extern "C" lab_status lab5_sum_sequential(const float *in, float *out, int n)
{
    return launch_sum("lab5_sum_sequential", sequential_kernel, LAB5_BLOCK, in, out, n);
}

extern "C" lab_status lab5_sum_first_add(const float *in, float *out, int n)
{
    return launch_sum("lab5_sum_first_add", first_add_kernel, 2 * LAB5_BLOCK, in, out, n);
}

extern "C" lab_status lab5_sum_warp_shuffle(const float *in, float *out, int n)
{
    return launch_sum("lab5_sum_warp_shuffle", warp_shuffle_kernel, 2 * LAB5_BLOCK, in, out, n);
}

/* Blocks resident at once on one SM: 2048 threads per SM on sm_80/sm_90,
 * so 8 blocks of 256 fill it; more would only queue behind them. */
enum { GRID_STRIDE_BLOCKS_PER_SM = 8 };

/* One full wave of blocks, but no more blocks than there are float4 loads
 * to share among their threads. */
static lab_status grid_stride_blocks(int n, unsigned *blocks)
{
    int device = 0, sms = 0;
    LAB_CUDA_TRY(cudaGetDevice(&device));
    LAB_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    unsigned wave = (unsigned)sms * GRID_STRIDE_BLOCKS_PER_SM;
    unsigned needed = blocks_covering(n, 4 * LAB5_BLOCK);
    *blocks = needed < wave ? needed : wave;
    return LAB_OK;
}

extern "C" lab_status lab5_sum_grid_stride(const float *in, float *out, int n)
{
    lab_status status = check_sum_args("lab5_sum_grid_stride", in, out, n);
    unsigned blocks = 0;
    block_sums sums = {out, NULL};
    if (status == LAB_OK)
        status = grid_stride_blocks(n, &blocks);
    if (status == LAB_OK)
        status = start_block_sums("lab5_sum_grid_stride", out, blocks, &sums);
    if (status != LAB_OK)
        return status;
    grid_stride_kernel<<<blocks, LAB5_BLOCK>>>(in, sums, n);
    LAB_LAUNCH_CHECK();
    return LAB_OK;
}
