/* Lab 8 CPU checks: the student's index helper, called for every thread of
 * a simulated launch. The runner runs these again against the record of
 * the helper's results (lab8_calls.c), so what counts is its own verdict. */
#include <stdio.h>

#include "harness.h"
#include "lab8_checks.h"
#include "sim_checks.h"

/* Where a failure sends the student. */
static const todo_pointer ELEMENT_INDEX = {"8.1", LAB8_HANDOUT, "1"};

typedef struct {
    coverage_map map;
    int n;
} scale_sim;

/* One simulated thread of lab8_scale's launch: the kernel's bounds test,
 * then its write. */
static int visit_scale(const sim_thread *t, void *ctx)
{
    scale_sim *sim = ctx;
    int i = lab8_element_index(t->block_idx, t->block_dim, t->thread_idx);
    if (i < sim->n)
        coverage_record(&sim->map, i);
    return 0;
}

void cpu_element_index_coverage(void **state)
{
    (void)state;
    /* One element, around a warp and around the block edge, and a prime. */
    const int sizes[] = {1, 31, 32, 33, LAB8_BLOCK - 1, LAB8_BLOCK, LAB8_BLOCK + 1, 100003};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; ++k) {
        scale_sim sim = {.n = sizes[k]};
        GRADER_CHECK(coverage_init(&sim.map, (size_t)sim.n), "out of memory");
        launch_sim_run(sim_dim3(sim_ceil_div(sim.n, LAB8_BLOCK), 1, 1),
                       sim_dim3(LAB8_BLOCK, 1, 1), visit_scale, &sim);
        char what[96];
        snprintf(what, sizeof what, "lab8_element_index with n=%d", sim.n);
        sim_expect_exact_coverage(&sim.map, what, "written", "write", ELEMENT_INDEX);
    }
}
