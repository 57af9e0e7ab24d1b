# Hostile: a static constructor in the lab file uses the GPU before main,
# where no watch has started yet (it could fill buffers, or build a graph of
# a library's kernels to launch later). A CUDA context that exists when the
# test program's own code starts fails every judged call.
lab_variant(SOLUTION indexing.cu
  FIND [[
extern "C" lab_status lab1_vector_add(const float *a, const float *b, float *c, int n)
{]]
  REPLACE [[
__attribute__((constructor)) static void start_early(void) { cudaFree(0); }

extern "C" lab_status lab1_vector_add(const float *a, const float *b, float *c, int n)
{]]
  FAILS gpu_vector_add
    MESSAGE [[could not be judged: .*context.* before the test began]])
