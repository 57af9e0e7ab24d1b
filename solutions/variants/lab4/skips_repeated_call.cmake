# Hostile: lab4_transpose remembers its last arguments and, called again
# with the same version, pointers and sizes, returns LAB_OK without
# launching ("out already holds the answer"). Correctness tests still pass;
# a speed test that timed repeated identical calls would measure nothing.
lab_variant(SOLUTION transpose.cu
  FIND [[
    lab_status status = check_transpose_args(in, out, rows, cols);
    if (status != LAB_OK)
        return status;]]
  REPLACE [[
    lab_status status = check_transpose_args(in, out, rows, cols);
    if (status != LAB_OK)
        return status;
    static const float *last_in;
    static float *last_out;
    static int last_version = -1, last_rows, last_cols;
    if ((int)version == last_version && in == last_in && out == last_out && rows == last_rows &&
        cols == last_cols)
        return LAB_OK;
    last_version = (int)version;
    last_in = in;
    last_out = out;
    last_rows = rows;
    last_cols = cols;]]
  FAILS gpu_multirow_fraction_of_copy
    MESSAGE [[did not do the work]])
