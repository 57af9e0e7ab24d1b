#include "memory_sectors.h"

#include <stdlib.h>
#include <string.h>

void warp_request_init(warp_request *request, int access_bytes)
{
    memset(request, 0, sizeof *request);
    request->access_bytes = access_bytes > 0 ? access_bytes : 1;
}

void warp_request_add(warp_request *request, int lane, long long byte_address)
{
    if (lane < 0 || lane >= LAUNCH_SIM_WARP_SIZE || byte_address < 0)
        return;
    request->address[lane] = byte_address;
    request->active |= 1u << lane;
}

int warp_request_lanes(const warp_request *request)
{
    int lanes = 0;
    for (int l = 0; l < LAUNCH_SIM_WARP_SIZE; ++l)
        lanes += (request->active >> l) & 1u;
    return lanes;
}

static int compare_long_long(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

/* The active lanes' addresses, sorted; returns how many. */
static int sorted_active(const warp_request *request, long long *out)
{
    int n = 0;
    for (int l = 0; l < LAUNCH_SIM_WARP_SIZE; ++l)
        if ((request->active >> l) & 1u)
            out[n++] = request->address[l];
    qsort(out, (size_t)n, sizeof *out, compare_long_long);
    return n;
}

int warp_request_distinct(const warp_request *request)
{
    long long addr[LAUNCH_SIM_WARP_SIZE];
    int n = sorted_active(request, addr);
    int distinct = 0;
    for (int i = 0; i < n; ++i)
        distinct += i == 0 || addr[i] != addr[i - 1];
    return distinct;
}

int warp_request_sectors(const warp_request *request)
{
    /* Each lane covers sectors [first, last]; count the union of these
     * ranges, sorted by their first sector. */
    long long first[LAUNCH_SIM_WARP_SIZE];
    int n = sorted_active(request, first);
    long long sectors = 0, covered_to = -1; /* last sector counted so far */
    for (int i = 0; i < n; ++i) {
        long long lo = first[i] / MEMORY_SECTOR_BYTES;
        long long hi = (first[i] + request->access_bytes - 1) / MEMORY_SECTOR_BYTES;
        if (lo <= covered_to)
            lo = covered_to + 1;
        if (hi >= lo) {
            sectors += hi - lo + 1;
            covered_to = hi;
        }
    }
    return (int)sectors;
}

int warp_request_ideal_sectors(const warp_request *request)
{
    /* Union of the byte ranges [address, address + access_bytes). */
    long long start[LAUNCH_SIM_WARP_SIZE];
    int n = sorted_active(request, start);
    long long bytes = 0, covered_to = -1; /* one past the last byte counted */
    for (int i = 0; i < n; ++i) {
        long long lo = start[i], hi = start[i] + request->access_bytes;
        if (lo < covered_to)
            lo = covered_to;
        if (hi > lo) {
            bytes += hi - lo;
            covered_to = hi;
        }
    }
    return (int)((bytes + MEMORY_SECTOR_BYTES - 1) / MEMORY_SECTOR_BYTES);
}

/* ------------------------------------------------------------- survey */

typedef struct {
    warp_address_fn address_of;
    void *ctx;
    warp_sector_survey *survey;
    warp_request current;
    lab_dim3 block;  /* of the request being gathered */
    int warp;
    int gathering;
} survey_state;

static void finish_request(survey_state *s)
{
    if (!s->gathering || s->current.active == 0)
        return;
    warp_sector_survey *out = s->survey;
    int sectors = warp_request_sectors(&s->current);
    int ideal = warp_request_ideal_sectors(&s->current);
    int distinct = warp_request_distinct(&s->current);
    ++out->requests;
    out->sectors += sectors;
    out->ideal_sectors += ideal;
    out->distinct += distinct;
    if (out->requests == 1 || distinct < out->fewest_distinct)
        out->fewest_distinct = distinct;
    if (distinct > out->most_distinct)
        out->most_distinct = distinct;
    /* sectors/ideal > worst_sectors/worst_ideal, without dividing. */
    if (out->requests == 1 ||
        (long long)sectors * out->worst_ideal > (long long)out->worst_sectors * ideal) {
        out->worst = s->current;
        out->worst_sectors = sectors;
        out->worst_ideal = ideal;
        out->worst_block = s->block;
        out->worst_warp = s->warp;
    }
}

static int same_block(lab_dim3 a, lab_dim3 b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

static int visit(const sim_thread *t, void *ctx)
{
    survey_state *s = ctx;
    if (!s->gathering || t->warp != s->warp || !same_block(t->block_idx, s->block)) {
        finish_request(s);
        warp_request_init(&s->current, s->current.access_bytes);
        s->block = t->block_idx;
        s->warp = t->warp;
        s->gathering = 1;
    }
    long long address = s->address_of(t, s->ctx);
    if (address >= 0)
        warp_request_add(&s->current, t->lane, address);
    return 0;
}

void memory_sectors_survey(lab_dim3 grid, lab_dim3 block, warp_address_fn address_of,
                           void *ctx, int access_bytes, warp_sector_survey *survey)
{
    memset(survey, 0, sizeof *survey);
    survey_state s;
    memset(&s, 0, sizeof s);
    s.address_of = address_of;
    s.ctx = ctx;
    s.survey = survey;
    warp_request_init(&s.current, access_bytes);
    launch_sim_run(grid, block, visit, &s);
    finish_request(&s);
}

double memory_sectors_mean(const warp_sector_survey *survey)
{
    return survey->requests ? (double)survey->sectors / (double)survey->requests : 0.0;
}

double memory_sectors_mean_ideal(const warp_sector_survey *survey)
{
    return survey->requests ? (double)survey->ideal_sectors / (double)survey->requests : 0.0;
}

double memory_sectors_mean_distinct(const warp_sector_survey *survey)
{
    return survey->requests ? (double)survey->distinct / (double)survey->requests : 0.0;
}
