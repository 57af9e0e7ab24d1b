/* How many 32-byte sectors does one warp-wide memory instruction touch?
 *
 * A warp executes a load or store for its 32 lanes at once, and the memory
 * system serves it in 32-byte sectors: lanes whose addresses share a sector
 * share its cost. 32 lanes reading 32 consecutive floats (128 bytes) need 4
 * sectors; 32 lanes reading floats a row apart need 32, moving 8 times the
 * bytes for the same data. Graders feed a lab's index helpers through a
 * simulated launch (launch_sim.h) and count the sectors of each warp's
 * request here, on the CPU, with no GPU.
 *
 * Addresses are byte offsets from the start of a buffer; like cudaMalloc's
 * pointers, the buffer is assumed to start on a sector boundary. */
#ifndef MEMORY_SECTORS_H
#define MEMORY_SECTORS_H

#include "launch_sim.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { MEMORY_SECTOR_BYTES = 32 };

/* One warp-wide request: which lanes take part and the byte address each
 * accesses. */
typedef struct {
    long long address[LAUNCH_SIM_WARP_SIZE];
    unsigned active;    /* bit l set: lane l accesses address[l] */
    int access_bytes;   /* bytes per lane: 4 for a float, 16 for a float4 */
} warp_request;

void warp_request_init(warp_request *request, int access_bytes);
/* Lane `lane` (0..31) accesses `byte_address` (>= 0). */
void warp_request_add(warp_request *request, int lane, long long byte_address);
int warp_request_lanes(const warp_request *request);
/* Distinct addresses among the active lanes (a broadcast counts once). */
int warp_request_distinct(const warp_request *request);
/* Distinct sectors touched; an access that straddles a sector boundary
 * touches both sectors. 0 when no lane is active. */
int warp_request_sectors(const warp_request *request);
/* The fewest sectors that could deliver the distinct bytes requested:
 * ceil(distinct bytes / 32). 4 for 32 distinct floats, 1 when every lane
 * reads the same float. 0 when no lane is active. */
int warp_request_ideal_sectors(const warp_request *request);

/* ---- over a whole simulated launch ---- */

/* The byte address this thread accesses in the instruction being studied,
 * or a negative value when it does not access (e.g. it fails the bounds
 * test). */
typedef long long (*warp_address_fn)(const sim_thread *thread, void *ctx);

typedef struct {
    long long requests;        /* warp requests with at least one active lane */
    long long sectors;         /* summed over those requests */
    long long ideal_sectors;   /* summed likewise */
    long long distinct;        /* distinct addresses per request, summed likewise */
    int fewest_distinct, most_distinct; /* over the requests */
    /* The request furthest from its ideal (largest sectors/ideal; the first
     * one found on ties), with where it came from. */
    warp_request worst;
    int worst_sectors, worst_ideal;
    lab_dim3 worst_block;
    int worst_warp;
} warp_sector_survey;

/* Runs launch_sim over grid x block, groups threads into warps the way the
 * hardware does, and surveys one request per warp. */
void memory_sectors_survey(lab_dim3 grid, lab_dim3 block, warp_address_fn address_of,
                           void *ctx, int access_bytes, warp_sector_survey *survey);

/* Mean sectors per request (0 when there were none). */
double memory_sectors_mean(const warp_sector_survey *survey);
/* Mean ideal sectors per request (0 when there were none). */
double memory_sectors_mean_ideal(const warp_sector_survey *survey);
/* Mean distinct addresses per request (0 when there were none): 32 when
 * each lane of full warps accesses its own element, 1 when all of a warp's
 * lanes access the same one. */
double memory_sectors_mean_distinct(const warp_sector_survey *survey);

#ifdef __cplusplus
}
#endif

#endif
