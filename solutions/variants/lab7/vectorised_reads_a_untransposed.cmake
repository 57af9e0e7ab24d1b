# TODO(7.7): the helpers are right and A is stored transposed, but the
# inner loop reads As as if it were not (row-major, BK words per row):
# wrong values of A in every product. Only the GPU can tell.
lab_variant(SOLUTION warp_tiling.cu
  FIND [[
            for (int i = 0; i < TM; i += 4)
                *reinterpret_cast<float4 *>(&reg_m[i]) =
                    *reinterpret_cast<const float4 *>(&As[p * BM + mine.row + i]);]]
  REPLACE [[
            for (int i = 0; i < TM; ++i)
                reg_m[i] = As[(mine.row + i) * BK + p];]]
  FAILS gpu_vectorised_correct
    MESSAGE [[lab7_sgemm\(vectorised\) on 128x128x16.*wrong]])
