# Hostile: lab2_matmul_host computes C on the CPU (a plain loop over the
# host pointers) and never touches the GPU. The results are right and
# nothing leaks, but the exercise (the host flow of a GPU computation) was
# not done.
lab_variant(SOLUTION naive_matmul.cu
  FIND [[
    device_matrices d = {NULL, NULL, NULL};
    status = compute_on_device(&d, a, b, c, m, n, k);
    lab_status freed = free_device_matrices(&d);
    return status != LAB_OK ? status : freed;]]
  # Row by row, p before col, so the inner loop streams through rows of B
  # and C: 1024^3 (the leak check's size) takes well under a second.
  REPLACE [[
    for (int row = 0; row < m; ++row) {
        float *c_row = c + (size_t)row * n;
        for (int col = 0; col < n; ++col)
            c_row[col] = 0.0f;
        for (int p = 0; p < k; ++p) {
            float a_value = a[(size_t)row * k + p];
            const float *b_row = b + (size_t)p * n;
            for (int col = 0; col < n; ++col)
                c_row[col] += a_value * b_row[col];
        }
    }
    return LAB_OK;]]
  FAILS gpu_host_flow
    MESSAGE [[A was never copied in from the pointer a]])
