/* The one translation unit compiled with --use_fast_math (CMakeLists.txt):
 * the plain `x / y` of measure_instructions.cu's IEEE row, which the flag
 * turns into an approximate division (div.approx.ftz.f32 in PTX, MUFU.RCP
 * and a multiply in SASS), with denormals flushed to zero. Everything else
 * of the program is compiled without it. */
#include "measure_instructions.h"

namespace {

struct FastMathDivide {
    static __device__ __forceinline__ float apply(float x, float y) { return x / y; }
};

} // namespace

extern "C" cudaError_t instr_fast_divide_chains(int blocks, const float *a, const float *b,
                                                float c, int iters, float *out)
{
    instr_divide_chain<FastMathDivide><<<blocks, INSTR_BLOCK>>>(a, b, c, iters, out);
    return cudaGetLastError();
}

extern "C" cudaError_t instr_fast_quotients(const float *a, const float *b, float *q, int n)
{
    instr_quotients<FastMathDivide><<<(n + INSTR_BLOCK - 1) / INSTR_BLOCK, INSTR_BLOCK>>>(a, b, q,
                                                                                       n);
    return cudaGetLastError();
}
