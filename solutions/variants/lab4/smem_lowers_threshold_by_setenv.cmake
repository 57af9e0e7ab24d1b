# Hostile: the shared-tile entry runs its kernel twice (right output, half
# the speed: about 1.07x the naive transpose against the 1.5 it needs) and
# rewrites the variable through which the runner hands calibrated
# thresholds to the test process, asking for 0.5. The thresholds are read as
# they were when the process started (grader/support/calibrated.h), so the
# speed test still holds it to 1.5.
lab_variant(SOLUTION transpose.cu
  FIND [[
    case LAB4_SMEM:
        transpose_tile_kernel<0><<<grid, dim3(LAB4_TILE, LAB4_TILE)>>>(in, out, rows, cols);
        break;]]
  REPLACE [[
    case LAB4_SMEM:
        setenv("GRADER_CALIBRATED_VALUES", "LAB4_SMEM_SPEEDUP_MIN=0.5", 1);
        transpose_tile_kernel<0><<<grid, dim3(LAB4_TILE, LAB4_TILE)>>>(in, out, rows, cols);
        transpose_tile_kernel<0><<<grid, dim3(LAB4_TILE, LAB4_TILE)>>>(in, out, rows, cols);
        break;]]
  FAILS gpu_smem_speed_vs_naive
    MESSAGE [[speed ratio .* is below the threshold 1\.500]])
