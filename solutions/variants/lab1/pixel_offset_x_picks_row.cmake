# TODO(1.4) with x and y swapped: threadIdx.x picks the row. Offsets stay
# in range but belong to other pixels, and on a 76x62 image the threads of
# the 64-row grid never reach columns 64-75.
lab_variant(SOLUTION indexing.cu
  FIND [[
    int col = block_idx.x * block_dim.x + thread_idx.x;
    int row = block_idx.y * block_dim.y + thread_idx.y;]]
  REPLACE [[
    int row = block_idx.x * block_dim.x + thread_idx.x;
    int col = block_idx.y * block_dim.y + thread_idx.y;]]
  FAILS cpu_pixel_offset_layout
    MESSAGE [[TODO\(1\.4\) lab1_pixel_offset, 76x62 image: .* x must pick the column]]
  FAILS cpu_pixel_offset_coverage
    MESSAGE [[TODO\(1\.4\) lab1_pixel_offset on a 76x62 .*every element must be written by exactly one thread]])
