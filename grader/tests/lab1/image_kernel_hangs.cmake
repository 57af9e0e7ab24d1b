# Hostile: the image kernel never finishes for one shape, the course's
# 76x62 image (the first the grader runs). The volatile flag keeps the
# compiler from removing the empty loop. The grader must report a hang, as
# a timeout, with a message that says so.
lab_variant(SOLUTION indexing.cu
  FIND [[
__global__ void image_double_kernel(const float *in, float *out, int width, int height)
{]]
  REPLACE [[
__global__ void image_double_kernel(const float *in, float *out, int width, int height)
{
    volatile int spinning = width == 76;
    while (spinning) {
    }]]
  FAILS gpu_image_double
    STATUS timeout
    # The hang starts at once: no need to wait the GPU group's 180 s.
    TIME_LIMIT 30
    MESSAGE [[did not finish within|hung]])
