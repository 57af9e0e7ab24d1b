#include "copy_baseline.h"

#include "cuda_check.h"

enum { COPY_BLOCK = 256 };

/* One thread per float: consecutive threads, consecutive addresses. */
__global__ void copy_floats_kernel(const float *in, float *out, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}

extern "C" lab_status baseline_copy_floats(const float *in, float *out, size_t n)
{
    /* Only the grader calls this, with sizes it chose; the guards turn a
     * grader bug into an error instead of a fault or a bad launch. */
    if (n == 0)
        return LAB_OK;
    lab_status status = lab_check_pointers("baseline_copy_floats", in, out, out);
    if (status != LAB_OK)
        return status;
    size_t blocks = (n + COPY_BLOCK - 1) / COPY_BLOCK;
    if (blocks > 0x7fffffffu) /* gridDim.x limit */
        return lab_fail(LAB_ERR_UNSUPPORTED, "baseline_copy_floats: n=%zu needs too many blocks",
                        n);
    copy_floats_kernel<<<(unsigned)blocks, COPY_BLOCK>>>(in, out, n);
    LAB_LAUNCH_CHECK();
    return LAB_OK;
}

extern "C" lab_status baseline_memcpy_floats(const float *in, float *out, size_t n)
{
    LAB_CUDA_TRY(cudaMemcpyAsync(out, in, n * sizeof(float), cudaMemcpyDeviceToDevice, 0));
    return LAB_OK;
}
