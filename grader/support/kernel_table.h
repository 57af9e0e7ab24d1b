/* A lab's kernel table: one row per kernel that the lab's programs time,
 * profile or race (grader/labN/labN_kernels.c), so that make time-labN,
 * make profile-labN, make bench, the race runner and the speed checks say
 * only once which kernel runs against which baseline on how much work.
 * What a lab needs beyond the rows (buffers, inputs and references for a
 * mode and a size) is the table's setup, so the one driver
 * (grader/driver/kernel_driver.c) has no lab in it. */
#ifndef KERNEL_TABLE_H
#define KERNEL_TABLE_H

#include <stddef.h>

#include "lab_status.h"
#include "timing.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The programs that read a table; a row's `modes` says which run it. */
typedef enum {
    KERNEL_TIME = 1,    /* make time-labN: against its yardstick, checked after */
    KERNEL_PROFILE = 2, /* make profile-labN: once, for Nsight Compute */
    KERNEL_RACE = 4,    /* the race runner: once, small, under racecheck */
    KERNEL_BENCH = 8,   /* make bench: against its problem's baseline, beside its ceiling;
                         * not a row's mode (its `bench` says where it stands), only a
                         * setup's */
    KERNEL_TIMELINE = 16 /* make plot-lab6: once, recorded by CUPTI (lab6_timeline.c) */
} kernel_mode;

/* A problem size in the lab's own terms (W x H, R x C, M x N x K, N, or
 * lab 6's n, streams, chunks, work); unused places are 0. */
enum { KERNEL_MAX_DIMS = 4 };
typedef long kernel_size[KERNEL_MAX_DIMS];

/* What every adapter gets: the size and the arrays the table's setup made.
 * Which input means what is the lab's (lab 4: in[0] the matrix; matmul:
 * A and B). */
typedef struct {
    kernel_size size;
    const float *in[2];
    float *out;
    void *lab; /* what a lab keeps beyond arrays (lab 6: its pipeline call) */
} kernel_args;

/* A row's launch: returns LAB_OK or the entry point's status, and does not
 * synchronise (the drivers and the timing routine do). */
typedef int (*kernel_launch)(const kernel_args *args);

/* Work per launch at a size, for GB/s or GFLOP/s. */
typedef double (*kernel_work)(const kernel_size size);

/* How far a timed output may be from what it is checked against: element
 * passes when finite and |got - want| <= atol + rtol*|want|. */
typedef struct {
    double atol, rtol;
} kernel_tolerance;
typedef kernel_tolerance (*kernel_tolerance_at)(const kernel_size size);

/* make bench (grader/driver/kernel_bench.c): what a row is in the table's
 * bench problems. A problem has one baseline (every kernel is timed
 * interleaved with it), its kernels, and at most one ceiling (timed alone:
 * the hardware's bound). The result file lists the kernels in the rows'
 * order, then the graders' kernels shown beside them (KERNEL_BENCH_BESIDE),
 * then the baseline and the ceiling. */
typedef enum {
    KERNEL_BENCH_NONE = 0,  /* not benched (the default) */
    KERNEL_BENCH_BASELINE,
    KERNEL_BENCH_KERNEL,
    KERNEL_BENCH_BESIDE,
    KERNEL_BENCH_CEILING
} kernel_bench_role;

typedef struct {
    unsigned problems;       /* bit p: a row of the table's bench problem p */
    kernel_bench_role role;
    const char *key;         /* the result file's "kernel", as handouts quote it: "smem" */
    const char *label;       /* what a table or legend shows */
    /* 1: a final stage a student copy may not have written: where it fails,
     * a note says so and the bench goes on (no error of the bench). */
    int optional;
    const char *ceiling;     /* a ceiling: the results' "ceiling" name, "memcpy_d2d" */
} kernel_bench_column;

/* The bit of bench problem `p` in a kernel_bench_column's `problems`. */
#define KERNEL_BENCH_IN(p) (1u << (p))

/* What make time-labN checks a row's output against: the yardstick's
 * output, or one of the setup's references. */
enum {
    KERNEL_WANT_YARDSTICK = 0,
    KERNEL_WANT_REFERENCE_0 = 1,
    KERNEL_WANT_REFERENCE_1 = 2,
    KERNEL_WANT_REFERENCE_2 = 3
};
/* Three: lab 1's rows compute three different things from the same inputs. */
enum { KERNEL_REFERENCES = 3 };

typedef struct {
    const char *name;           /* "lab4_transpose(smem)" */
    kernel_launch launch;
    unsigned modes;             /* KERNEL_TIME | KERNEL_PROFILE | KERNEL_RACE | KERNEL_TIMELINE */
    int yardstick;              /* time: the index of the row it is timed against */
    int extension;              /* 1: may be unwritten; not run is then no failure */
    kernel_work bytes;          /* per launch, for GB/s (NULL: not shown) */
    kernel_work flops;          /* per launch, for GFLOP/s (NULL: not shown) */
    int want;                   /* time: KERNEL_WANT_* */
    kernel_tolerance_at tolerance; /* time: NULL means exact */
    const char *race_size;      /* race: a size of its own ('x'-joined), else the table's */
    /* The size the lab's graded speed check times this row at (its rubric's
     * value; all 0 where none grades it). Not the time mode's SIZE default,
     * which is one size for every row so that one SIZE= compares them: the
     * checks' sizes differ by row (lab 1: 8192 x 8192 and 2^22 + 3). */
    kernel_size graded_size;
    /* Stage identity (grader/harness/checks/stage_identity.h): `stage` is 1
     * on one of the student's stages. Each stage must launch kernels of its
     * own: a kernel two stage rows launch earns neither anything, since the
     * grader cannot tell which lesson it was written for. `shares` lists the
     * stage rows (bit i: row i) whose kernels this one may launch too, where
     * a lab shares a kernel on purpose (lab 7's any-size and sized stages);
     * either row listing the other allows the pair. */
    int stage;
    unsigned shares;
    /* time: run after each run of the row, outside the timed region, to turn
     * what the row left into the output its check reads (lab 5's no-atomic
     * rows leave one sum per block); NULL: the row writes its output itself. */
    kernel_launch finish;
    kernel_bench_column bench; /* make bench: all 0 where the row is not benched */
} kernel_row;

/* The bit of row `row` in a kernel_row's `shares`. */
#define KERNEL_ROW_BIT(row) (1u << (row))

/* A problem the table's setup made for one mode and size. */
typedef struct {
    kernel_args args;           /* what the rows run on */
    float *yardstick_out;       /* time: where the yardstick writes (args.out otherwise) */
    /* time: KERNEL_WANT_REFERENCE_*; race: [0] on the host */
    const float *reference[KERNEL_REFERENCES];
    size_t checked;             /* floats of args.out the check compares */
    void *owned;                /* the setup's own bookkeeping, for its teardown */
    /* bench: set by the driver before setup, for a setup that fills inputs
     * (the seed) or measures (lab 6's balanced work: the plan). */
    unsigned long long seed;
    const timing_plan *plan;
    /* bench, set by the setup where it needs them: where the ceiling writes
     * (NULL: args.out), its label where the setup picks the ceiling (NULL:
     * the row's), and a note for the result file ("": none). */
    float *ceiling_out;
    const char *ceiling_label;
    char note[160];
} kernel_problem;

/* How a mode's size is given: `dims` numbers joined by 'x', each in
 * 1..max_each; `fallback` without one. */
typedef struct {
    int dims;
    long max_each;
    const char *fallback;
} kernel_size_rule;

/* make bench's sizes of a problem: each as the result file writes it
 * ("8192x8192", "2^22+3", "1024") and in the table's terms; its "x" (the
 * plots' axis) is size[0]. */
enum { KERNEL_BENCH_SIZES = 5, KERNEL_BENCH_PROBLEMS = 4 };
typedef struct {
    const char *name;
    kernel_size size;
} kernel_bench_size;

typedef struct {
    const char *problem;        /* the result file's "problem": "transpose" */
    kernel_bench_size sizes[KERNEL_BENCH_SIZES]; /* name NULL: no more sizes */
    /* Each kernel's output (args.out, `checked` floats) is compared once
     * with the baseline's within this tolerance (NULL: exactly); 0: not
     * compared (lab 1's copy kernel writes in, not 2 * in). */
    int compared;
    kernel_tolerance_at tolerance;
    /* The problem moves its data over PCIe (lab 6): its ceiling is no hard
     * limit, and its rows' drift is the bus's (bench_rules.h). */
    int over_bus;
    /* A ceiling from outside the table, by its results' name, where the
     * lab's grader does not link it (labs 2 and 3: cuBLAS, "cublas_fp32");
     * NULL: the table's ceiling row. */
    const char *outside_ceiling;
} kernel_bench_problem;

typedef struct {
    const char *lab;            /* "lab4": names the programs and the hints */
    const kernel_row *rows;
    int count;
    kernel_size_rule time, profile, race;
    /* A lab's own limit on a size (lab 7: multiples of its tiles), or NULL:
     * NULL when the size is fine, else what SIZE must be. */
    const char *(*size_problem)(kernel_mode mode, const kernel_size size);
    /* Buffers, inputs and references for `mode` at `size`: 1, or 0 after
     * one line that says why. teardown frees what setup made. */
    int (*setup)(kernel_mode mode, const kernel_size size, kernel_problem *problem);
    void (*teardown)(kernel_problem *problem);
    /* make bench's problems, in the result file's order (rows join them
     * through their `bench` column); count 0: the lab has no bench. */
    kernel_bench_problem bench[KERNEL_BENCH_PROBLEMS];
    int bench_count;
} kernel_table;

/* Each lab's table, under one name so that the driver is the same source
 * for every lab and links exactly one table. */
extern const kernel_table lab_kernel_table;

/* A row and what it runs on, as one context: the timing routine's
 * `timed_launch` (grader/support/timing.h) takes it through kernel_call_launch. */
typedef struct {
    const kernel_row *row;
    kernel_args args;
} kernel_call;
int kernel_call_launch(void *call);

/* The work of a row at a size (0 when the row does not say). */
double kernel_row_bytes(const kernel_row *row, const kernel_size size);
double kernel_row_flops(const kernel_row *row, const kernel_size size);

/* Parses `dims` positive integers joined by 'x', each in 1..max_each,
 * into `out`. Returns 1, or 0 when the text is no such size. */
int kernel_size_parse(const char *text, int dims, long max_each, kernel_size out);

/* Arrays for a table's setup, released with the process (the programs run
 * one problem and exit).
 * kernel_device_array: n floats on the GPU, copied from `host`, or zeros
 * when `host` is NULL (profile mode: no NaN or denormal to slow a kernel);
 * NULL after one line naming `program`.
 * kernel_host_integers: n integers in [lo, hi] from `seed` as floats (race
 * mode: their sums and products are exact); NULL after one line. */
float *kernel_device_array(const char *program, const float *host, size_t n);
float *kernel_host_integers(size_t n, unsigned long long seed, int lo, int hi);

/* Bench arrays (a setup's KERNEL_BENCH branch): n floats on the GPU,
 * uniform in [-1, 1] from `seed`, or all `fill` where seed is 0; NULL after
 * one line. Kept until kernel_bench_release, which the bench mode calls
 * after each size, so that one process can run every size. */
float *kernel_bench_array(size_t n, unsigned long long seed, float fill);
void kernel_bench_release(void);

#ifdef __cplusplus
}
#endif

#endif
