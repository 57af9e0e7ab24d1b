# A cheat (issue 44): C computed on the CPU and uploaded into d->c, the real
# kernel run into a scratch buffer (so the kernel time is right), d->c
# copied back. The copies of A, B and C and the kernel are all there; but
# the uploads must be exactly A and B (copy_watch.h), so the upload of C
# fails the host-flow test.
lab_variant(SOLUTION naive_matmul.cu
  FIND [[
    lab_status status = lab2_matmul_naive(d->a, d->b, d->c, m, n, k);
    if (status != LAB_OK)
        return status;]]
  REPLACE [[
    float *cpu = (float *)malloc(bytes_c), *scratch = NULL;
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
    LAB_CUDA_TRY(cudaMalloc((void **)&scratch, bytes_c));
    lab_status status = lab2_matmul_naive(d->a, d->b, scratch, m, n, k);
    cudaDeviceSynchronize();
    cudaFree(scratch);
    if (status != LAB_OK)
        return status;]]
  FAILS gpu_host_flow
    MESSAGE [[none of the three a host flow makes: the uploads are exactly A and B]])
