/* Lab 5 CPU checks: the student's helpers on a simulated block.
 *
 * Each step of a block's reduction is simulated the way the hardware runs
 * it between two barriers: every active thread adds s[src] into s[dst], all
 * at once. The simulation tracks which input elements each slot of s holds
 * (so a lost or doubled element is named), refuses reads outside the block
 * and two threads touching one slot in the same step (a race), and counts
 * per step the warps whose threads disagree about being active (divergent
 * warps) and the shared-memory bank conflicts of the reads. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "lab5_checks.h"
#include "sim_checks.h"
#include "text_append.h"

static const todo_pointer DIVERGENT = {"5.1", LAB5_HANDOUT, "3"};
static const todo_pointer STRIDED = {"5.4", LAB5_HANDOUT, "5"};
static const todo_pointer SEQUENTIAL = {"5.6", LAB5_HANDOUT, "6"};

enum { BANKS = 32, MAX_STEPS = 16 };

typedef enum { STAGE_DIVERGENT, STAGE_STRIDED, STAGE_SEQUENTIAL } stage_kind;

static const char *helper_name(stage_kind stage)
{
    switch (stage) {
    case STAGE_DIVERGENT: return "lab5_divergent_active";
    case STAGE_STRIDED: return "lab5_strided_index";
    default: return "lab5_sequential_active";
    }
}

static todo_pointer todo_of(stage_kind stage)
{
    return stage == STAGE_DIVERGENT ? DIVERGENT : stage == STAGE_STRIDED ? STRIDED : SEQUENTIAL;
}

/* What one thread does in one step: s[dst] += s[src] when active. */
typedef struct {
    int active, dst, src;
} step_work;

static step_work thread_work(stage_kind stage, int t, int stride, int block)
{
    lab_dim3 thread_idx = sim_dim3(t, 0, 0);
    step_work w = {0, t, t + stride};
    if (stage == STAGE_DIVERGENT) {
        w.active = lab5_divergent_active(thread_idx, stride) != 0;
    } else if (stage == STAGE_STRIDED) {
        /* As the kernel does: the thread works when the pair fits the block. */
        w.dst = lab5_strided_index(thread_idx, stride);
        w.src = w.dst + stride;
        w.active = w.src < block;
    } else {
        w.active = lab5_sequential_active(thread_idx, stride) != 0;
    }
    return w;
}

/* The strides of the steps, in order: up from 1 for (1) and (2), down from
 * block/2 for (3). Returns how many. */
static int step_strides(stage_kind stage, int block, int strides[MAX_STEPS])
{
    int count = 0;
    if (stage == STAGE_SEQUENTIAL)
        for (int stride = block / 2; stride >= 1; stride /= 2)
            strides[count++] = stride;
    else
        for (int stride = 1; stride < block; stride *= 2)
            strides[count++] = stride;
    return count;
}

/* What the simulation learnt about one block size. */
typedef struct {
    int steps;
    int strides[MAX_STEPS];
    int active[MAX_STEPS];           /* active threads per step */
    int divergent_warps[MAX_STEPS];  /* warps with active and idle threads */
    int conflict_ways[MAX_STEPS];    /* worst n-way bank conflict of a warp's s[src] reads */
    int contiguous[MAX_STEPS];       /* the active threads are 0, 1, ..., active-1 */
} step_profile;

/* Worst number of different slots one bank serves for a warp's reads. */
static int warp_conflict_ways(const step_work *work, int first, int lanes)
{
    int ways = 0;
    for (int bank = 0; bank < BANKS; ++bank) {
        int slots[32], distinct = 0;
        for (int lane = 0; lane < lanes; ++lane) {
            const step_work *w = &work[first + lane];
            if (!w->active || w->src % BANKS != bank)
                continue;
            int seen = 0;
            for (int k = 0; k < distinct; ++k)
                seen |= slots[k] == w->src;
            if (!seen)
                slots[distinct++] = w->src;
        }
        if (distinct > ways)
            ways = distinct;
    }
    return ways;
}

static void profile_step(const step_work *work, int block, step_profile *p, int step)
{
    int active = 0, divergent = 0, ways = 0, contiguous = 1;
    for (int first = 0; first < block; first += LAB5_WARP) {
        int lanes = block - first < LAB5_WARP ? block - first : LAB5_WARP, on = 0;
        for (int lane = 0; lane < lanes; ++lane)
            on += work[first + lane].active;
        divergent += on > 0 && on < lanes;
        int w = warp_conflict_ways(work, first, lanes);
        if (w > ways)
            ways = w;
        active += on;
    }
    for (int t = 0; t < block; ++t)
        contiguous &= work[t].active == (t < active);
    p->active[step] = active;
    p->divergent_warps[step] = divergent;
    p->conflict_ways[step] = ways;
    p->contiguous[step] = contiguous;
}

/* One sentence about two threads touching one slot in one step. */
static const char *race_text(int t, const step_work *w, int other, int both_write)
{
    static char text[160];
    if (both_write)
        snprintf(text, sizeof text, "threads %d and %d both add into s[%d]", other, t, w->dst);
    else
        snprintf(text, sizeof text, "thread %d reads s[%d] while thread %d adds into it", t,
                 w->src, other);
    return text;
}

/* When thread t works in this step although the stage's rule keeps it
 * idle, says so in `out` and returns 1. The fix is then to keep it idle,
 * not to add a bounds test: with the rule, the partner s[t + stride] of a
 * working thread is always inside the block. Stage (2)'s kernel decides
 * who works itself (the pair must fit the block), so it has no such rule. */
static int idle_by_rule(stage_kind stage, int t, int stride, char *out, size_t size)
{
    if (stage == STAGE_DIVERGENT && t % (2 * stride) != 0) {
        snprintf(out, size,
                 "Thread %d must not work at all in this step: only the threads whose index "
                 "is a multiple of 2*stride = %d work (each adds s[t + stride] into s[t]); "
                 "all the others, every odd thread included, stay idle. Then the partner of "
                 "a working thread is always inside the block, and no bounds test is needed.",
                 t, 2 * stride);
        return 1;
    }
    if (stage == STAGE_SEQUENTIAL && t >= stride) {
        snprintf(out, size,
                 "Thread %d must not work at all in this step: only threads 0 to %d (t < "
                 "stride) work, each adding s[t + stride], from the upper half of the %d "
                 "partial sums still in play, into s[t]; the threads from %d up stay idle. "
                 "Then the partner of a working thread is always inside the block, and no "
                 "bounds test is needed.",
                 t, stride - 1, 2 * stride, stride);
        return 1;
    }
    return 0;
}

/* Fails the test on a read or write outside the block or a race, naming
 * the thread that should not have worked where the stage's rule says so. */
static void expect_step_well_formed(stage_kind stage, const step_work *work, int block,
                                    int stride, int *owner)
{
    todo_pointer where = todo_of(stage);
    char why[512];
    for (int s = 0; s < block; ++s)
        owner[s] = -1;
    for (int t = 0; t < block; ++t) {
        const step_work *w = &work[t];
        if (!w->active)
            continue;
        if (w->dst >= 0 && w->dst < block && w->src >= 0 && w->src < block)
            continue;
        if (!idle_by_rule(stage, t, stride, why, sizeof why))
            snprintf(why, sizeof why, "%s",
                     stage == STAGE_STRIDED
                         ? "lab5_strided_index(t, stride) is where thread t's pair starts: "
                           "2 * stride * t, never below 0."
                         : "A thread may work only when both elements of its pair are inside "
                           "the block.");
        GRADER_FAIL("TODO(%s) %s: in the step with stride %d of a %d-thread block, thread %d "
                    "adds s[%d] into s[%d], outside the block's %d elements s[0..%d]. %s See "
                    "%s, section %s.",
                    where.todo, helper_name(stage), stride, block, t, w->src, w->dst, block,
                    block - 1, why, where.handout, where.section);
    }
    /* A slot written by one thread may be touched by no other in that step. */
    for (int t = 0; t < block; ++t)
        if (work[t].active)
            owner[work[t].dst] = t;
    for (int t = 0; t < block; ++t) {
        const step_work *w = &work[t];
        if (!w->active)
            continue;
        int other = owner[w->dst] != t ? owner[w->dst] : owner[w->src];
        if (other < 0)
            continue;
        if (!idle_by_rule(stage, t, stride, why, sizeof why) &&
            !idle_by_rule(stage, other, stride, why, sizeof why))
            snprintf(why, sizeof why, "Each pair of a step belongs to one thread.");
        GRADER_FAIL("TODO(%s) %s: in the step with stride %d of a %d-thread block, %s: a "
                    "race, whose result depends on which thread goes first. %s See %s, "
                    "section %s.",
                    where.todo, helper_name(stage), stride, block,
                    race_text(t, w, other, owner[w->dst] != t), why, where.handout,
                    where.section);
    }
}

/* Simulates a whole block; fails the test unless s[0] ends up holding every
 * element exactly once. Fills the profile. */
static void simulate_block(stage_kind stage, int block, step_profile *p)
{
    todo_pointer where = todo_of(stage);
    /* held[slot * block + e]: how many times slot `slot` holds element e. */
    unsigned *held = calloc((size_t)block * block, sizeof *held);
    step_work *work = grader_malloc((size_t)block * sizeof *work);
    int *owner = grader_malloc((size_t)block * sizeof *owner);
    GRADER_CHECK(held != NULL, "out of host memory");
    for (int s = 0; s < block; ++s)
        held[(size_t)s * block + s] = 1;
    p->steps = step_strides(stage, block, p->strides);
    for (int step = 0; step < p->steps; ++step) {
        int stride = p->strides[step];
        for (int t = 0; t < block; ++t)
            work[t] = thread_work(stage, t, stride, block);
        expect_step_well_formed(stage, work, block, stride, owner);
        profile_step(work, block, p, step);
        /* No races, so adding in place gives the lockstep result. */
        for (int t = 0; t < block; ++t)
            if (work[t].active)
                for (int e = 0; e < block; ++e)
                    held[(size_t)work[t].dst * block + e] += held[(size_t)work[t].src * block + e];
    }
    int bad = -1;
    unsigned times = 1;
    for (int e = 0; e < block && bad < 0; ++e)
        if (held[e] != 1) {
            bad = e;
            times = held[e];
        }
    free(held);
    free(work);
    free(owner);
    GRADER_CHECK(bad < 0,
                 "TODO(%s) %s: after the last step of a %d-thread block, s[0] holds element "
                 "%d %s instead of once, so the block's sum is wrong. %s See %s, section %s.",
                 where.todo, helper_name(stage), block, bad, times == 0 ? "zero times" : "twice or more",
                 times == 0 ? "The step that should have brought it toward s[0] left it out: "
                              "in that step its thread was not active, or added the wrong pair."
                            : "It was added more than once: in some step two threads added "
                              "the same pair, or one added a pair already counted.",
                 where.handout, where.section);
}

/* One line per block size: the count per step, strides in order. */
static void note_per_step(const char *what, stage_kind stage, int block, const step_profile *p,
                          const int *values)
{
    char line[400] = "";
    for (int step = 0; step < p->steps; ++step)
        text_append(line, sizeof line, "%s%d:%d", step ? " " : "", p->strides[step],
                    values[step]);
    grader_note("%s, %s, %d threads (stride:count): %s", helper_name(stage), what, block, line);
}

static const int BLOCKS[] = {LAB5_BLOCK, LAB5_MAX_BLOCK};
enum { BLOCK_SIZES = sizeof BLOCKS / sizeof BLOCKS[0] };

static int total(const int *values, int count)
{
    int sum = 0;
    for (int i = 0; i < count; ++i)
        sum += values[i];
    return sum;
}

/* ---------------------------------------------------------- TODO 5.1 */

void cpu_divergent_steps_add_up(void **state)
{
    (void)state;
    for (int b = 0; b < BLOCK_SIZES; ++b) {
        step_profile p;
        simulate_block(STAGE_DIVERGENT, BLOCKS[b], &p);
        note_per_step("divergent warps per step", STAGE_DIVERGENT, BLOCKS[b], &p,
                      p.divergent_warps);
        if (BLOCKS[b] == LAB5_BLOCK)
            grader_metric("divergent_warp_steps_256", total(p.divergent_warps, p.steps),
                          "warps");
    }
}

/* ---------------------------------------------------------- TODO 5.4 */

void cpu_strided_steps_contiguous(void **state)
{
    (void)state;
    for (int b = 0; b < BLOCK_SIZES; ++b) {
        int block = BLOCKS[b];
        step_profile p;
        simulate_block(STAGE_STRIDED, block, &p);
        for (int step = 0; step < p.steps; ++step)
            GRADER_CHECK(p.contiguous[step],
                         "TODO(%s) lab5_strided_index: the sums are right, but in the step with "
                         "stride %d of a %d-thread block the %d working threads are not "
                         "threads 0 to %d: %d warps have working and idle threads side by side "
                         "(divergent). Stage (2) hands the step's pairs to consecutive threads. "
                         "See %s, section %s.",
                         STRIDED.todo, p.strides[step], block, p.active[step],
                         p.active[step] - 1, p.divergent_warps[step], STRIDED.handout,
                         STRIDED.section);
        note_per_step("worst n-way bank conflict of a warp's reads per step", STAGE_STRIDED,
                      block, &p, p.conflict_ways);
        if (block == LAB5_BLOCK)
            grader_metric("worst_bank_conflict_ways_256", p.conflict_ways[0] > p.conflict_ways[1]
                                                               ? p.conflict_ways[0]
                                                               : p.conflict_ways[1],
                          "ways");
    }
}

/* ---------------------------------------------------------- TODO 5.6 */

void cpu_sequential_steps_convergent(void **state)
{
    (void)state;
    for (int b = 0; b < BLOCK_SIZES; ++b) {
        int block = BLOCKS[b];
        step_profile seq;
        simulate_block(STAGE_SEQUENTIAL, block, &seq);
        for (int step = 0; step < seq.steps; ++step)
            GRADER_CHECK(seq.strides[step] < LAB5_WARP || seq.divergent_warps[step] == 0,
                         "TODO(%s) lab5_sequential_active: the sums are right, but in the step "
                         "with stride %d of a %d-thread block (%d threads active) %d warps "
                         "have active and idle threads side by side. While at least 32 "
                         "threads work, whole warps should work or idle together: only the "
                         "last five steps, inside one warp, may diverge. See %s, section %s.",
                         SEQUENTIAL.todo, seq.strides[step], block, seq.active[step],
                         seq.divergent_warps[step], SEQUENTIAL.handout, SEQUENTIAL.section);
        note_per_step("divergent warps per step", STAGE_SEQUENTIAL, block, &seq,
                      seq.divergent_warps);
        note_per_step("worst n-way bank conflict of a warp's reads per step", STAGE_SEQUENTIAL,
                      block, &seq, seq.conflict_ways);
        if (block == LAB5_BLOCK)
            grader_metric("divergent_warp_steps_256", total(seq.divergent_warps, seq.steps),
                          "warps");
    }
}
