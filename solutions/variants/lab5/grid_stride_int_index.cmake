# TODO(5.11) with the grid-stride loop counted in floats, in an int: right
# for every n a test of ordinary size uses, but with n close to INT_MAX,
# e + step passes INT_MAX in the last pass and wraps to a negative index
# that is still below the bound: the loop reads below `in` (a fault), goes
# round the array again or never ends. (The reference counts float4s, below
# 2^29 for any int n, so an int there would not overflow: this is the loop
# a student who indexes floats writes.)
lab_variant(SOLUTION reduction.cu
  FIND [[
    size_t k = tid;
    for (; k + (GRID_STRIDE_UNROLL - 1) * threads < quads; k += GRID_STRIDE_UNROLL * threads) {
        float4 q[GRID_STRIDE_UNROLL];
#pragma unroll
        for (int u = 0; u < GRID_STRIDE_UNROLL; ++u)
            q[u] = __ldg(body + k + u * threads);
#pragma unroll
        for (int u = 0; u < GRID_STRIDE_UNROLL; ++u)
            v += (q[u].x + q[u].y) + (q[u].z + q[u].w);
    }
    for (; k < quads; k += threads) {
        float4 q = __ldg(body + k);
        v += (q.x + q.y) + (q.z + q.w);
    }]]
  REPLACE [[
    const float *first = (const float *)body;
    int step = 4 * (int)threads;
    for (int e = 4 * (int)tid; e < 4 * (int)quads; e += step) {
        float4 q = __ldg((const float4 *)(first + e));
        v += (q.x + q.y) + (q.z + q.w);
    }]]
  FAILS gpu_grid_stride_near_int_max
    STATUS fail|timeout
    MESSAGE [[lab5_sum_grid_stride\(n=2147483645, close to INT_MAX]])
