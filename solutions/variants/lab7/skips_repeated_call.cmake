# Hostile: lab7_sgemm remembers its last arguments and, called again with
# the same stage, sizes, scalars and pointers, returns LAB_OK without
# launching ("C already holds the answer"). Correctness tests still pass; a
# speed test that timed repeated identical calls would measure nothing.
lab_variant(SOLUTION warp_tiling.cu
  FIND [[
    lab_status status = check_sgemm_args("lab7_sgemm", m, n, k, a, b, c, 1);
    if (status != LAB_OK)
        return status;]]
  REPLACE [[
    lab_status status = check_sgemm_args("lab7_sgemm", m, n, k, a, b, c, 1);
    if (status != LAB_OK)
        return status;
    static const float *last_a, *last_b;
    static float *last_c, last_alpha, last_beta;
    static int last_stage = -1, last_m, last_n, last_k;
    if ((int)stage == last_stage && a == last_a && b == last_b && c == last_c && m == last_m &&
        n == last_n && k == last_k && alpha == last_alpha && beta == last_beta)
        return LAB_OK;
    last_stage = (int)stage;
    last_a = a;
    last_b = b;
    last_c = c;
    last_m = m;
    last_n = n;
    last_k = k;
    last_alpha = alpha;
    last_beta = beta;]]
  FAILS gpu_warp_tile_speed_vs_lab3
    MESSAGE [[did not do the work]])
