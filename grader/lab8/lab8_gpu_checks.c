/* Lab 8 GPU checks: the student's kernel on awkward sizes, with a poisoned
 * output, canary guard zones and an input that must come back unchanged. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "device_buffer.h"
#include "gpu_checks.h"
#include "harness.h"
#include "lab8_checks.h"
#include "lab8_rubric.h"
#include "rng.h"

/* Not 1 or 2: a kernel that copies, or adds the input to itself, is wrong. */
#define FACTOR 3.0f

static const char HINT[] = "Check TODO(8.1) (the element a thread owns), handout section 1.";
static const char BOUNDS[] = "TODO(8.1), handout section 1";

void gpu_scale(void **state)
{
    (void)state;
    grader_require_gpu();
    /* One element, around a warp and a block, a prime, and more than a few
     * thousand blocks. */
    const int sizes[] = {1, 31, 32, 33, LAB8_BLOCK + 1, 1000003};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; ++k) {
        int n = sizes[k];
        uint64_t seed = grader_seed() + k;
        float *host = grader_malloc((size_t)n * sizeof *host);
        rng_fill_uniform(host, (size_t)n, seed, -1.0f, 1.0f);
        double *ref = grader_malloc((size_t)n * sizeof *ref);
        for (int i = 0; i < n; ++i)
            ref[i] = (double)FACTOR * host[i];
        device_buffer in, out;
        dbuf_alloc(&in, "in", (size_t)n * sizeof *host);
        dbuf_alloc(&out, "out", (size_t)n * sizeof *host);
        dbuf_upload(&in, host);
        dbuf_poison(&out);
        char call[96];
        snprintf(call, sizeof call, "lab8_scale(n=%d, seed=%llu)", n, (unsigned long long)seed);
        gpu_expect_ok(lab8_scale(in.data, out.data, FACTOR, n), call);
        /* The guard zones first: gpu_expect_floats checks them too, but
         * without saying where the bounds test is taught. */
        gpu_expect_guards_intact_at(&out, call, BOUNDS);
        /* One float multiplication per element: only its rounding may differ. */
        compare_spec spec = {1, (size_t)n, 0.0, 1e-6, 0};
        gpu_expect_floats(&out, ref, &spec, call, HINT);
        gpu_expect_unchanged(&in, host, call);
        dbuf_free(&in);
        dbuf_free(&out);
        free(host);
        free(ref);
    }
}
