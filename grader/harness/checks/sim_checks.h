/* CPU-simulation checks shared by every lab's grader: small helpers for
 * simulated launches (launch_sim.h) and the coverage verdict, worded so the
 * student learns which TODO and which handout section to read. */
#ifndef SIM_CHECKS_H
#define SIM_CHECKS_H

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
} todo_pointer;

lab_dim3 sim_dim3(int x, int y, int z);

/* The grader's own ceiling division, for launch shapes it builds itself. */
int sim_ceil_div(int n, int d);

/* Every element of `map` touched exactly once, nothing outside; otherwise
 * fails the test with coverage_describe's account in the words of what the
 * helper under test does (`done` "written", "loaded" or "stored"; `act`
 * "write", "load" or "store"), naming the TODO and its handout section.
 * `what` names the helper and the data. Frees the map. */
void sim_expect_exact_coverage(coverage_map *map, const char *what, const char *done,
                               const char *act, todo_pointer where);

/* One access of a simulated launch, surveyed warp by warp: passes when the
 * worst warp request touches at most max_ratio times the sectors its bytes
 * need. Records `<metric>_sectors` (mean per request) and
 * `<metric>_ideal_sectors` and prints a note either way. `access` describes
 * it ("loads of B[p*N + col]"); `fix` says what usually makes it
 * uncoalesced. */
void sim_expect_coalesced(const warp_sector_survey *survey, const char *access,
                          const char *metric, double max_ratio, const char *fix,
                          todo_pointer where);

#ifdef __cplusplus
}
#endif

#endif
