# TODO(2.11) with one pair of events around all the runs, and that total
# reported as if it were one run: seven times too long.
lab_variant(SOLUTION naive_matmul.cu
  FIND [[
        *median_ms = median_of(times, runs);]]
  REPLACE [[
    {
        float total = 0.0f;
        for (int i = 0; i < runs; ++i)
            total += times[i];
        *median_ms = total;
    }]]
  FAILS gpu_timing_matches_device
    MESSAGE [[TODO\(2\.11\) lab2_time_naive.*all the runs together]])
