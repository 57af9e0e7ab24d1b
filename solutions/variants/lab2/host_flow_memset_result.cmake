# A memset where C should come from the kernel: d->c set with cudaMemset2D
# after the kernel ran (all zeros). A route the old watch did not see;
# refused inside the host flow, naming it.
lab_variant(SOLUTION naive_matmul.cu
  FIND [[
    /* cudaMemcpy waits for the kernel, so a fault inside it surfaces here. */]]
  REPLACE [[
    LAB_CUDA_TRY(cudaMemset2D(d->c, bytes_c, 0, bytes_c, 1));]]
  FAILS gpu_host_flow
    MESSAGE [[it called cudaMemset2D.*which a host flow may not use]])
