#include "device_info.h"

#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime_api.h>

int device_count(void)
{
    /* Set and empty: whoever started this program (the batch's --no-gpu)
     * says there is no GPU for it, whatever CUDA would fail with on the way
     * to the same answer (a test program out of threads gets an OS error). */
    const char *visible = getenv("CUDA_VISIBLE_DEVICES");
    if (visible && !*visible)
        return 0;
    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err == cudaSuccess)
        return count;
    cudaGetLastError(); /* clear the error so later calls start clean */
    /* No GPU or no driver: there is none. Any other error (CUDA could not
     * start beside a process that holds all of the GPU's memory, say) is
     * not "no device": callers fail rather than skip, so a grader that
     * shares the GPU runs the test again alone instead of recording it
     * "not graded: no GPU". */
    return err == cudaErrorNoDevice || err == cudaErrorInsufficientDriver ? 0 : -1;
}

const char *device_count_error(void)
{
    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    cudaGetLastError();
    return err == cudaSuccess ? "no error" : cudaGetErrorString(err);
}

void device_describe(char *out, size_t size)
{
    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess || count == 0) {
        const char *why = "the device count is 0";
        if (err == cudaErrorInsufficientDriver || err == cudaErrorNoDevice)
            why = "no NVIDIA driver or GPU found";
        else if (err != cudaSuccess)
            why = cudaGetErrorString(err);
        snprintf(out, size, "no CUDA device (%s)", why);
        cudaGetLastError();
        return;
    }
    int dev = 0, driver = 0, runtime = 0;
    struct cudaDeviceProp prop;
    cudaGetDevice(&dev);
    if (cudaGetDeviceProperties(&prop, dev) != cudaSuccess) {
        snprintf(out, size, "CUDA device %d (properties unavailable)", dev);
        return;
    }
    cudaDriverGetVersion(&driver);
    cudaRuntimeGetVersion(&runtime);
    snprintf(out, size,
             "%s, sm_%d%d, %d SMs, %d MiB L2, %.0f GiB, driver %d.%d, runtime %d.%d",
             prop.name, prop.major, prop.minor, prop.multiProcessorCount,
             prop.l2CacheSize >> 20, (double)prop.totalGlobalMem / (1 << 30),
             driver / 1000, driver % 1000 / 10, runtime / 1000, runtime % 1000 / 10);
}

size_t device_l2_bytes(void)
{
    int dev = 0, l2 = 0;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev) != cudaSuccess)
        return 0;
    return (size_t)l2;
}

/* Reads one attribute of the current device; 0 when it cannot. */
static double attribute(enum cudaDeviceAttr which)
{
    int dev = 0, value = 0;
    if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&value, which, dev) != cudaSuccess) {
        cudaGetLastError();
        return 0.0;
    }
    return (double)value;
}

double device_fp32_peak_flops(void)
{
    /* 128 FP32 lanes per SM is the most any CUDA GPU has had (sm_80 has 64),
     * so this is an upper bound: one FMA = 2 FLOP per lane per clock. */
    return attribute(cudaDevAttrMultiProcessorCount) * 128.0 * 2.0 *
           attribute(cudaDevAttrClockRate) * 1e3;
}

double device_dram_peak_bytes_per_s(void)
{
    /* Double data rate: two transfers per memory clock over the whole bus. */
    return attribute(cudaDevAttrMemoryClockRate) * 1e3 * 2.0 *
           attribute(cudaDevAttrGlobalMemoryBusWidth) / 8.0;
}
