# Hostile: the image kernel never finishes for one shape, the course's
# 76x62 image (the first the grader runs). The loop re-reads global memory
# through a volatile pointer on every turn, a side effect the compiler must
# keep (an empty loop, even on a volatile local, was optimised away: the
# variant then passed). The inputs are finite, so in[0] == in[0] always
# holds. The grader must report a hang, as a timeout, naming the call.
lab_variant(SOLUTION indexing.cu
  FIND [[
__global__ void image_double_kernel(const float *in, float *out, int width, int height)
{]]
  REPLACE [[
__global__ void image_double_kernel(const float *in, float *out, int width, int height)
{
    const volatile float *watched = in;
    while (width == 76 && watched[0] == watched[0]) {
    }]]
  FAILS gpu_image_double
    STATUS timeout
    # A backstop only: the call's own watchdog must stop it within seconds,
    # with a message naming the call (the backstop's message would not match).
    TIME_LIMIT 30
    MESSAGE [[hung: lab1_image_double\(width=76, height=62.* did not finish within]])
