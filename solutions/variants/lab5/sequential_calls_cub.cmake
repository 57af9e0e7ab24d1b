# A cheat: the sequential-addressing stage calls cub::DeviceReduce::Sum. CUB
# is header-only, so its kernels are compiled from the student's file; they
# are still CUB's work, and the stage earns nothing (launch_watch.h).
lab_variant(SOLUTION reduction.cu
  FIND [[
#include "lab5.h"
]]
  REPLACE [[
#include "lab5.h"
#include <cub/device/device_reduce.cuh>
]]
  FIND [[
    return launch_sum("lab5_sum_sequential", sequential_kernel, LAB5_BLOCK, in, out, n);]]
  REPLACE [[
    lab_status status = check_sum_args("lab5_sum_sequential", in, out, n);
    if (status != LAB_OK)
        return status;
    size_t bytes = 0;
    LAB_CUDA_TRY(cub::DeviceReduce::Sum(nullptr, bytes, in, out, n));
    void *scratch = nullptr;
    LAB_CUDA_TRY(cudaMalloc(&scratch, bytes));
    cudaError_t err = cub::DeviceReduce::Sum(scratch, bytes, in, out, n);
    cudaFree(scratch);
    LAB_CUDA_TRY(err);
    return LAB_OK;]]
  FAILS gpu_sequential_sums
    MESSAGE [[launched the kernel .*which does not count: it is a library's kernel \(CUB]])
