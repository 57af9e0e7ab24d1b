/* Lab 5's divergence experiment: see lab5_divergence.h. Written apart from
 * the lab's solution (whose helpers a student rewrites) and in the shape
 * of the grader's divergent yardstick (solutions/.../reduction_baselines.cu):
 * int thread index, run-time loop bound, one barrier per step. */
#include "lab5_divergence.h"

#include "cuda_check.h"
#include "lab5.h"

/* One step of the tree for thread t: does it add, and into which slot?
 * The kernels differ only here. */
template <int KERNEL>
static __device__ __forceinline__ void step(float *s, int t, int stride)
{
    if (KERNEL == LAB5X_MODULO) {
        if (t % (2 * stride) == 0)
            s[t] += s[t + stride];
    } else if (KERNEL == LAB5X_MASK) {
        /* 2*stride is a power of two: the same threads as (a). */
        if ((t & (2 * stride - 1)) == 0)
            s[t] += s[t + stride];
    } else if (KERNEL == LAB5X_COMPACTED) {
        const int i = 2 * stride * t;
        if (i + stride < (int)blockDim.x)
            s[i] += s[i + stride];
    } else if (KERNEL == LAB5X_COMPACTED_MODULO) {
        const int i = 2 * stride * t;
        /* i is a multiple of 2*stride, and the compiler would fold the test
         * away if it could see that: the mov hides it. `&`, not `&&`: every
         * thread pays for the `%`, as in (a). */
        int opaque;
        asm("mov.b32 %0, %1;" : "=r"(opaque) : "r"(i));
        if ((opaque % (2 * stride) == 0) & (i + stride < (int)blockDim.x))
            s[i] += s[i + stride];
    } else {
        if (t < stride)
            s[t] += s[t + stride];
    }
}

template <int KERNEL, int ENDING>
__global__ void reduce_kernel(const float *in, float *out, int n)
{
    __shared__ float s[LAB5_BLOCK];
    const int t = threadIdx.x;
    const size_t i = (size_t)blockIdx.x * blockDim.x + t;
    s[t] = i < (size_t)n ? in[i] : 0.0f;
    __syncthreads();
    if (KERNEL == LAB5X_SEQUENTIAL) {
        for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
            step<KERNEL>(s, t, stride);
            __syncthreads();
        }
    } else {
        for (int stride = 1; stride < (int)blockDim.x; stride *= 2) {
            step<KERNEL>(s, t, stride);
            __syncthreads();
        }
    }
    if (t == 0) {
        if (ENDING == LAB5X_ATOMIC)
            atomicAdd(out, s[0]);
        else
            out[blockIdx.x] = s[0];
    }
}

extern "C" int lab5x_blocks(int n)
{
    return (n + LAB5_BLOCK - 1) / LAB5_BLOCK;
}

typedef void (*reduce_fn)(const float *, float *, int);

/* [kernel][ending], in the enums' order. */
static const reduce_fn KERNELS[LAB5X_KERNELS][2] = {
    {reduce_kernel<LAB5X_MODULO, LAB5X_ATOMIC>, reduce_kernel<LAB5X_MODULO, LAB5X_PARTIALS>},
    {reduce_kernel<LAB5X_MASK, LAB5X_ATOMIC>, reduce_kernel<LAB5X_MASK, LAB5X_PARTIALS>},
    {reduce_kernel<LAB5X_SEQUENTIAL, LAB5X_ATOMIC>,
     reduce_kernel<LAB5X_SEQUENTIAL, LAB5X_PARTIALS>},
    {reduce_kernel<LAB5X_COMPACTED, LAB5X_ATOMIC>,
     reduce_kernel<LAB5X_COMPACTED, LAB5X_PARTIALS>},
    {reduce_kernel<LAB5X_COMPACTED_MODULO, LAB5X_ATOMIC>,
     reduce_kernel<LAB5X_COMPACTED_MODULO, LAB5X_PARTIALS>},
};

extern "C" lab_status lab5x_sum(lab5x_kernel kernel, lab5x_ending ending, const float *in,
                                float *out, int n)
{
    if (n < 1 || !in || !out || (unsigned)kernel >= LAB5X_KERNELS ||
        (unsigned)ending > LAB5X_PARTIALS)
        return lab_fail(LAB_ERR_UNSUPPORTED, "lab5x_sum: kernel %d, ending %d, n=%d",
                        (int)kernel, (int)ending, n);
    /* As the lab's entry points: *out starts at zero on the default stream. */
    if (ending == LAB5X_ATOMIC)
        LAB_CUDA_TRY(cudaMemsetAsync(out, 0, sizeof *out, 0));
    KERNELS[kernel][ending]<<<lab5x_blocks(n), LAB5_BLOCK>>>(in, out, n);
    LAB_LAUNCH_CHECK();
    return LAB_OK;
}
