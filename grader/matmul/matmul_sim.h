/* The CPU side of matmul grading, shared by labs 2, 3 and 7: what a
 * simulated launch (launch_sim.h) of a lab's index helpers must show, turned
 * into messages that name the TODO and the handout section. */
#ifndef MATMUL_SIM_H
#define MATMUL_SIM_H

#include "launch_sim.h"
#include "memory_sectors.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where to send the student: e.g. {"2.1", "handouts/lab2-naive-matmul.md", "6"}. */
typedef struct {
    const char *todo;
    const char *handout;
    const char *section;
} matmul_pointer;

lab_dim3 matmul_dim3(int x, int y, int z);
int matmul_ceil_div(int n, int d);

/* Every element of `map` recorded exactly once, nothing outside. Frees the
 * map. `what` names the helper and what it covers, e.g.
 * "lab2_row_of/lab2_col_of ..., C of 17x33 (MxN)". */
void matmul_expect_exact_coverage(coverage_map *map, const char *what, matmul_pointer where);

/* One access of a simulated launch, surveyed warp by warp: passes when the
 * worst warp request touches at most max_ratio times the sectors its bytes
 * need. Records `<metric>_sectors` (mean per request) and
 * `<metric>_ideal_sectors` and prints a note either way. `access` describes
 * it ("loads of B[p*N + col]"); `fix` says what usually makes it
 * uncoalesced. */
void matmul_expect_coalesced(const warp_sector_survey *survey, const char *access,
                             const char *metric, double max_ratio, const char *fix,
                             matmul_pointer where);

#ifdef __cplusplus
}
#endif

#endif
