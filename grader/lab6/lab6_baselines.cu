/* The grader's reference transform, serial pipeline and timed calls (lab6_baselines.h). */
#include "lab6_baselines.h"

#include "cuda_check.h"
#include "lab6.h"

/* Grid-stride, like the lab's kernel; 4096 blocks of 256 fill any GPU. */
__global__ void lab6_reference_kernel(const float *in, float *out, int n, int work)
{
    int stride = blockDim.x * gridDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        out[i] = lab6_element(in[i], work);
}

extern "C" lab_status lab6_reference_transform(const float *in, float *out, int n, int work)
{
    int blocks = (n + 255) / 256;
    lab6_reference_kernel<<<blocks < 4096 ? blocks : 4096, 256>>>(in, out, n, work);
    LAB_LAUNCH_CHECK();
    return LAB_OK;
}

extern "C" lab_status lab6_copy_in(const float *host_in, float *dev_in, int n)
{
    LAB_CUDA_TRY(cudaMemcpyAsync(dev_in, host_in, (size_t)n * sizeof(float),
                                 cudaMemcpyHostToDevice, 0));
    return LAB_OK;
}

extern "C" lab_status lab6_copy_out(const float *dev_out, float *host_out, int n)
{
    LAB_CUDA_TRY(cudaMemcpyAsync(host_out, dev_out, (size_t)n * sizeof(float),
                                 cudaMemcpyDeviceToHost, 0));
    return LAB_OK;
}

extern "C" lab_status lab6_copies_together(const float *host_in, float *dev_in,
                                           const float *dev_out, float *host_out, int n)
{
    static cudaStream_t streams[2];
    for (int i = 0; i < 2; ++i)
        if (!streams[i])
            LAB_CUDA_TRY(cudaStreamCreate(&streams[i]));
    size_t bytes = (size_t)n * sizeof(float);
    LAB_CUDA_TRY(cudaMemcpyAsync(dev_in, host_in, bytes, cudaMemcpyHostToDevice, streams[0]));
    LAB_CUDA_TRY(cudaMemcpyAsync(host_out, dev_out, bytes, cudaMemcpyDeviceToHost, streams[1]));
    return LAB_OK;
}

extern "C" lab_status lab6_serial_pipeline(const float *host_in, float *host_out, float *dev_in,
                                           float *dev_out, int n, int work)
{
    lab_status status = lab6_copy_in(host_in, dev_in, n);
    if (status == LAB_OK)
        status = lab6_reference_transform(dev_in, dev_out, n, work);
    if (status == LAB_OK)
        status = lab6_copy_out(dev_out, host_out, n);
    return status;
}

extern "C" int lab6_wait_for(int status)
{
    cudaError_t err = cudaDeviceSynchronize();
    if (status == 0 && err != cudaSuccess)
        status = lab_fail(LAB_ERR_CUDA, "the pipeline's work failed on the GPU: %s",
                          cudaGetErrorString(err));
    return status;
}

extern "C" int lab6_timed_streamed(void *call)
{
    const lab6_timed_call *c = (const lab6_timed_call *)call;
    return lab6_wait_for(lab6_pipeline_run(c->p, c->n, c->chunks, c->work, c->order));
}

extern "C" int lab6_timed_serial(void *call)
{
    const lab6_timed_call *c = (const lab6_timed_call *)call;
    return lab6_wait_for(lab6_serial_pipeline(c->host_in, c->host_out, c->dev_in, c->dev_out,
                                              c->n, c->work));
}
