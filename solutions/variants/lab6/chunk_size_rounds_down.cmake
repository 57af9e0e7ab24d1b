# TODO(6.1) with a plain division: every chunk gets n / chunks elements, so
# when n is not a multiple of the chunk count the last n % chunks elements
# belong to no chunk and are never copied, computed or copied back.
lab_variant(SOLUTION streams_overlap.cu
  FIND [[
    int begin = (int)((long long)n * index / chunks);
    int end = (int)((long long)n * (index + 1) / chunks);]]
  REPLACE [[
    int begin = n / chunks * index;
    int end = begin + n / chunks;]]
  FAILS cpu_chunk_ranges
    MESSAGE [[TODO\(6\.1\).*is the remainder]])
