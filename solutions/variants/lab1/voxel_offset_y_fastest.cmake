# TODO(1.8) in the wrong order: y varies fastest instead of x. Every voxel
# still gets one offset (so coverage alone would pass), at the wrong place.
lab_variant(SOLUTION indexing.cu
  FIND [[
    return ((long long)c.z * ny + c.y) * nx + c.x;]]
  REPLACE [[
    return ((long long)c.z * nx + c.x) * ny + c.y;]]
  FAILS cpu_voxel_offset_coverage_and_layout
    MESSAGE [[TODO\(1\.8\) lab1_voxel_offset in a .* x varies fastest]])
