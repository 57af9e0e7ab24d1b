# TODO(1.6) as if every request started on a sector boundary: the offset
# is dropped, so a warp reading from in[i + 4] seems to need 4 sectors
# where it touches 5.
lab_variant(SOLUTION indexing.cu
  FIND [[
        long long sector = ((long long)offset + (long long)lane * stride) * 4 / 32;]]
  REPLACE [[
        long long sector = ((long long)lane * stride) * 4 / 32;]]
  FAILS cpu_strided_sectors
    MESSAGE [[TODO\(1\.6\) lab1_sectors_per_request\(offset=1, stride=1\) returned 4; .* touch 5 sectors]])
