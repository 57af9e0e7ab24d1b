# TODO(1.6) as "4 sectors times the stride": right up to stride 8, but a
# warp of 32 lanes never touches more than 32 sectors.
lab_variant(SOLUTION indexing.cu
  FIND [[
    int sectors = 0;
    long long previous = -1;]]
  REPLACE [[
    if (offset == 0)
        return 4 * stride;
    int sectors = 0;
    long long previous = -1;]]
  FAILS cpu_strided_sectors
    MESSAGE [[TODO\(1\.6\) lab1_sectors_per_request\(offset=0, stride=9\) returned 36; .* touch 32 sectors]])
