/* The CPU side of matmul grading, shared by labs 2, 3 and 7: what a
 * simulated launch (launch_sim.h) of a lab's index helpers must show, turned
 * into messages that name the TODO and the handout section. */
#ifndef MATMUL_SIM_H
#define MATMUL_SIM_H

#include "memory_sectors.h"
#include "sim_checks.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One access of a simulated launch, surveyed warp by warp: passes when the
 * worst warp request touches at most max_ratio times the sectors its bytes
 * need. Records `<metric>_sectors` (mean per request) and
 * `<metric>_ideal_sectors` and prints a note either way. `access` describes
 * it ("loads of B[p*N + col]"); `fix` says what usually makes it
 * uncoalesced. */
void matmul_expect_coalesced(const warp_sector_survey *survey, const char *access,
                             const char *metric, double max_ratio, const char *fix,
                             todo_pointer where);

#ifdef __cplusplus
}
#endif

#endif
