# Hostile: the entry point remembers its last arguments and, called again
# with the same pointers and sizes, returns LAB_OK without launching ("C
# already holds the answer"). Correctness tests still pass; a speed test that
# times repeated identical calls measures nothing.
lab_variant(SOLUTION naive_matmul.cu
  FIND [[
    lab_status status = check_matmul_args("lab2_matmul_naive", a, b, c, m, n, k);
    if (status != LAB_OK)
        return status;]]
  REPLACE [[
    lab_status status = check_matmul_args("lab2_matmul_naive", a, b, c, m, n, k);
    if (status != LAB_OK)
        return status;
    static const float *last_a, *last_b;
    static float *last_c;
    static int last_m, last_n, last_k;
    if (a == last_a && b == last_b && c == last_c && m == last_m && n == last_n && k == last_k)
        return LAB_OK;
    last_a = a;
    last_b = b;
    last_c = c;
    last_m = m;
    last_n = n;
    last_k = k;]]
  FAILS gpu_speed_vs_uncoalesced
    MESSAGE [[did not do the work]])
