# A cheat (issue 44): C computed on the CPU and uploaded into d->c, an
# empty decoy kernel of the student's own between the copies, given all
# three device buffers so that C looks tied to it, d->c copied back. The
# upload of C is refused before the kernel time is even looked at.
lab_variant(SOLUTION naive_matmul.cu
  FIND [[
static lab_status compute_on_device(device_matrices *d, const float *a, const float *b,]]
  REPLACE [[
__global__ void decoy_kernel(const float *a, const float *b, float *c)
{
    (void)a, (void)b, (void)c;
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
    cudaError_t up = cudaMemcpy(d->c, cpu, bytes_c, cudaMemcpyHostToDevice);
    free(cpu);
    LAB_CUDA_TRY(up);
    decoy_kernel<<<1, 1>>>(d->a, d->b, d->c);]]
  FAILS gpu_host_flow
    MESSAGE [[none of the three a host flow makes: the uploads are exactly A and B]])
