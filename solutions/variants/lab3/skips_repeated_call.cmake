# Hostile: the tiled entry point remembers its last arguments and, called
# again with the same tile, pointers and sizes, returns LAB_OK without
# launching ("C already holds the answer"). Correctness tests still pass; a
# speed test that times repeated identical calls measures nothing.
lab_variant(SOLUTION shared_tiles.cu
  FIND [[
    lab_status status = check_matmul_args("lab3_matmul_tiled", a, b, c, m, n, k);
    if (status != LAB_OK)
        return status;
    switch (tile) {]]
  REPLACE [[
    lab_status status = check_matmul_args("lab3_matmul_tiled", a, b, c, m, n, k);
    if (status != LAB_OK)
        return status;
    static const float *last_a, *last_b;
    static float *last_c;
    static int last_tile, last_m, last_n, last_k;
    if (tile == last_tile && a == last_a && b == last_b && c == last_c && m == last_m &&
        n == last_n && k == last_k)
        return LAB_OK;
    last_tile = tile;
    last_a = a;
    last_b = b;
    last_c = c;
    last_m = m;
    last_n = n;
    last_k = k;
    switch (tile) {]]
  FAILS gpu_tiled_speed_vs_naive
    MESSAGE [[did not do the work]])
