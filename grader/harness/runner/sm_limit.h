/* Grading on fewer SMs than the GPU has: how the graders' ratios move with
 * the SM count (docs/design.md, section 3.6).
 *
 * With GRADER_SM_COUNT=N each test process runs its test in a green
 * context of at least N SMs (granted in groups, 8 on an H100), made current
 * before the runtime's first use, so all the test's kernels run there. L2,
 * DRAM and copy engines stay the whole GPU's: this measures sensitivity to
 * the SM count, not a smaller GPU. An instructor's tool, never a grading
 * setting. */
#ifndef SM_LIMIT_H
#define SM_LIMIT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Whether GRADER_SM_COUNT is set (and not empty): the run asks for a
 * green context, whether or not it can be made. */
int sm_limit_requested(void);

/* Applies GRADER_SM_COUNT, if set. Returns the SMs granted (0 when the
 * variable is unset or there is no device); -1 with a sentence in
 * `message` when it is set but cannot be applied. */
int sm_limit_apply(char *message, size_t message_size);

/* The SMs granted by sm_limit_apply, or 0 when the whole GPU is in use.
 * The device attribute (cudaDevAttrMultiProcessorCount) still reports all
 * of them inside a green context. */
int sm_limit_granted(void);

/* Makes a device line (device_info.h's "..., sm_90, 132 SMs, ...") say the
 * SMs granted, and how, when a green context is in use: the calibration of
 * a run is chosen by the SM count this line states (calibration.h), so a
 * run on 40 SMs is calibrated, and read back, as a 40-SM GPU. `granted`:
 * sm_limit_granted(); 0 leaves the line as it is. */
void sm_limit_describe(char *line, size_t size, int granted);

#ifdef __cplusplus
}
#endif

#endif
