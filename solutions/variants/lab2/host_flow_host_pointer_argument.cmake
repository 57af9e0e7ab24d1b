# A host pointer handed to a kernel: C computed on the CPU into a malloc'd
# buffer, which a kernel of the student's reads (through HMM, where the GPU
# can reach plain host memory) and writes into d->c, which is copied back.
# The kernel's arguments are decoded (cuFuncGetParamInfo) and a host
# address among them fails the call, on any machine.
lab_variant(SOLUTION naive_matmul.cu
  FIND [[
static lab_status compute_on_device(device_matrices *d, const float *a, const float *b,]]
  REPLACE [[
__global__ void fetch_kernel(const float *host, const float *a, const float *b, float *c,
                             size_t count)
{
    (void)a, (void)b;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count;
         i += (size_t)gridDim.x * blockDim.x)
        c[i] = host[i];
}

static lab_status compute_on_device(device_matrices *d, const float *a, const float *b,]]
  FIND [[
    lab_status status = lab2_matmul_naive(d->a, d->b, d->c, m, n, k);
    if (status != LAB_OK)
        return status;]]
  REPLACE [[
    float *cpu = (float *)malloc(bytes_c);
    if (!cpu)
        return lab_fail(LAB_ERR_CUDA, "out of host memory");
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
            float sum = 0.0f;
            for (int p = 0; p < k; ++p)
                sum += a[(size_t)i * k + p] * b[(size_t)p * n + j];
            cpu[(size_t)i * n + j] = sum;
        }
    fetch_kernel<<<64, 256>>>(cpu, d->a, d->b, d->c, (size_t)m * n);
    cudaError_t done = cudaDeviceSynchronize();
    free(cpu);
    LAB_CUDA_TRY(done);]]
  FAILS gpu_host_flow
    MESSAGE [[it passed [a-z ]+ \(0x[0-9a-f]+\) to a kernel]])
