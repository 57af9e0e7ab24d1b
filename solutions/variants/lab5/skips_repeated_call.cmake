# Hostile: stage (3) remembers its last arguments and, called again with the
# same pointers and n, returns LAB_OK without zeroing *out or launching
# ("*out already holds the sum"). Each correctness call is a first call; a
# speed test that times repeated calls measures nothing. Stage (3)'s
# measurement is reported, not graded (lab5_rubric.h), so this cheat buys
# nothing; the measurement still must not be fooled by it.
lab_variant(SOLUTION reduction.cu
  FIND [[
    return launch_sum("lab5_sum_sequential", sequential_kernel, LAB5_BLOCK, in, out, n);]]
  REPLACE [[
    static const float *last_in;
    static float *last_out;
    static int last_n;
    if (in == last_in && out == last_out && n == last_n)
        return LAB_OK;
    last_in = in;
    last_out = out;
    last_n = n;
    return launch_sum("lab5_sum_sequential", sequential_kernel, LAB5_BLOCK, in, out, n);]]
  FAILS gpu_sequential_speed_vs_divergent
    MESSAGE [[did not do the work]])
