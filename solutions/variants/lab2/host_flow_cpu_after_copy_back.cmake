# A cheat past the kernel-time floor: the host flow copies A and B in, then
# zeroes them on the device, so its (real, full-length) kernel multiplies
# zeros; it copies C back and computes C on the CPU afterwards. The copies,
# the kernel and its time are all there; C is not what the copy-back wrote
# (copy_watch.h), so the host-flow test fails.
lab_variant(SOLUTION naive_matmul.cu
  FIND [[
    LAB_CUDA_TRY(cudaMemcpy(d->b, b, bytes_b, cudaMemcpyHostToDevice));
    lab_status status = lab2_matmul_naive(d->a, d->b, d->c, m, n, k);
    if (status != LAB_OK)
        return status;
    /* cudaMemcpy waits for the kernel, so a fault inside it surfaces here. */
    LAB_CUDA_TRY(cudaMemcpy(c, d->c, bytes_c, cudaMemcpyDeviceToHost));]]
  REPLACE [[
    LAB_CUDA_TRY(cudaMemcpy(d->b, b, bytes_b, cudaMemcpyHostToDevice));
    LAB_CUDA_TRY(cudaMemset(d->a, 0, bytes_a));
    lab_status status = lab2_matmul_naive(d->a, d->b, d->c, m, n, k);
    if (status != LAB_OK)
        return status;
    LAB_CUDA_TRY(cudaMemcpy(c, d->c, bytes_c, cudaMemcpyDeviceToHost));
    for (int i = 0; i < m; ++i) {
        float *row = c + (size_t)i * n;
        for (int j = 0; j < n; ++j)
            row[j] = 0.0f;
        for (int p = 0; p < k; ++p) {
            float x = a[(size_t)i * k + p];
            const float *brow = b + (size_t)p * n;
            for (int j = 0; j < n; ++j)
                row[j] += x * brow[j];
        }
    }]]
  FAILS gpu_host_flow
    MESSAGE [[C changed after the device-to-host copy had written it]])
