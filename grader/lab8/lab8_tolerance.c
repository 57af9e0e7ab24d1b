/* Lab 8's tolerance, derived for FP16 inputs and FP32 accumulation.
 *
 * The grader rounds its inputs to FP16 first and computes the reference in
 * double from the rounded values, so input rounding is no error here. A
 * product of two FP16 values has at most 22 significant bits: FP32 (24)
 * holds it exactly. What remains is the FP32 accumulation of k products:
 *
 *   - each addition into the running sum s rounds by at most one unit in
 *     the last place of s, 2^-23 |s| (a full unit, not the half unit of
 *     round-to-nearest: NVIDIA documents neither the order nor the rounding
 *     of the additions inside an MMA, and measurements of tensor cores have
 *     found truncation; so no averaging of signs is assumed either);
 *   - there are at most k additions (a tensor core adds 4 to 16 products
 *     before it rounds into the accumulator, so fewer in practice);
 *   - the running sum of k products of values uniform in [-1, 1] has a
 *     standard deviation of sqrt(k) / 3; the bound takes 4 of them, which
 *     no prefix of a sum exceeds in the grader's sizes except with
 *     negligible probability, and at least 1.
 *
 * So |error of A*B| <= k * 2^-23 * max(1, 4 sqrt(k) / 3), scaled by
 * |alpha|; the epilogue (alpha * acc + beta * c, three roundings of
 * 2^-24 relative to terms up to |alpha| * 4 sqrt(k) / 3 and |beta|) adds
 * 2^-22 of those terms. At k = 1024 that is 5.2e-3 for alpha = 1: far
 * below what one missing or doubled product changes (about 1/3 on
 * average), or a wrong fragment layout (a different sum, of order 1), and
 * far below FP16 accumulation (each addition rounding at 2^-11 |s|, about
 * 0.02 per addition at k = 1024) at every k the grader uses; lab 7's FP32
 * tolerance (compare_dot_atol) assumes round-to-nearest with random signs,
 * which tensor cores do not promise. */
#include "lab8_tolerance.h"

#include <math.h>

double lab8_atol(int k, double alpha, double beta)
{
    const double ulp = 1.0 / 8388608.0; /* 2^-23 */
    double kk = k > 0 ? (double)k : 1.0;
    double sum = fmax(1.0, 4.0 * sqrt(kk) / 3.0); /* the running sum's bound */
    double accumulation = fabs(alpha) * kk * ulp * sum;
    double epilogue = 2.0 * ulp * (fabs(alpha) * sum + fabs(beta));
    return accumulation + epilogue + 1e-6;
}
