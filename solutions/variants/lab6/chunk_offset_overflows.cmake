# TODO(6.1) in int arithmetic: n * index overflows for large arrays (2^26
# elements times chunk 32 is already past INT_MAX), so offsets go negative.
lab_variant(SOLUTION streams_overlap.cu
  FIND [[
    int begin = (int)((long long)n * index / chunks);
    int end = (int)((long long)n * (index + 1) / chunks);]]
  REPLACE [[
    int begin = n * index / chunks;
    int end = n * (index + 1) / chunks;]]
  FAILS cpu_chunk_ranges
    MESSAGE [[TODO\(6\.1\).*overflow an int]])
