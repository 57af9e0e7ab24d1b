/* The one program behind make time-labN, make profile-labN, make bench and
 * the race runners, for every lab: it runs the rows of the lab's kernel
 * table (kernel_table.h; labN_kernels.c, linked as lab_kernel_table) in
 * one of five modes.
 *
 *   labN_kernels time [SIZE] [--rows A,B]    make time-labN: each row against its
 *                                            yardstick, timed the graders' way, checked
 *   labN_kernels profile [SIZE] [--rows ..]  make profile-labN: each row once, for Nsight
 *                                            Compute (grader/tools/ncu_profile.py)
 *   labN_kernels race [--all] [SIZE]         each row once on a small exact problem,
 *                                            checked on the CPU, for racecheck
 *   labN_kernels bench [--runs N] [--seed S] make bench: the table's bench problems at
 *                                            their sizes, JSON lines for bench.py
 *                                            (kernel_bench.h)
 *   labN_kernels list                        the table itself, no GPU needed
 *
 * SIZE is the lab's ('x'-joined, e.g. 8192x8192); profile and race also
 * take its numbers as separate words, missing trailing ones from the
 * default. --rows keeps the rows whose name contains one of the words. The
 * race runner labN_racecheck is this program with race as its default mode
 * (KERNEL_DRIVER_MODE): the graded race check passes only the runner's
 * arguments.
 *
 * Exit status: time 0 when every required row was timed right; profile 0
 * when every kernel that ran finished; race 0 every row right, 1 a row
 * wrong, 2 a required row failed to run, 77 no CUDA device; 2 for a usage
 * error; bench 0 every point measured, 1 one failed, 77 no CUDA device.
 * The race runner, built from this file without KERNEL_DRIVER_BENCH, has
 * no bench mode (nor cuBLAS linked for it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "device_info.h"
#include "kernel_table.h"
#ifdef KERNEL_DRIVER_BENCH
#include "kernel_bench.h"
#endif
#include "time_kernels.h"

/* ------------------------------------------------------------ choosing */

/* Whether --rows (a comma-separated list of words) picks this row. */
static int picked(const char *rows, const char *name)
{
    if (!rows)
        return 1;
    char words[256];
    snprintf(words, sizeof words, "%s", rows);
    for (char *w = strtok(words, ","); w; w = strtok(NULL, ","))
        if (strstr(name, w))
            return 1;
    return 0;
}

/* The size words of the command line, joined by 'x', and completed from
 * the rule's default when fewer numbers were given. */
static int read_size(const kernel_size_rule *rule, const char *joined, kernel_size size)
{
    kernel_size fallback;
    if (!kernel_size_parse(rule->fallback, rule->dims, rule->max_each, fallback))
        return 0;
    if (!joined[0]) {
        memcpy(size, fallback, sizeof(kernel_size));
        return 1;
    }
    int given = 1;
    for (const char *c = joined; *c; ++c)
        given += *c == 'x';
    char full[256];
    snprintf(full, sizeof full, "%s", joined);
    for (int d = given; d < rule->dims; ++d) {
        size_t used = strlen(full);
        snprintf(full + used, sizeof full - used, "x%ld", fallback[d]);
    }
    return given <= rule->dims && kernel_size_parse(full, rule->dims, rule->max_each, size);
}

static void size_text(const kernel_size size, char *buf, size_t len)
{
    buf[0] = '\0';
    for (int d = 0; d < KERNEL_MAX_DIMS && size[d]; ++d) {
        size_t used = strlen(buf);
        snprintf(buf + used, len - used, d ? "x%ld" : "%ld", size[d]);
    }
}

/* ---------------------------------------------------------------- time */

/* A row's finish after each of its runs (the timing guard's verify hook):
 * ctx is the row's kernel_call. */
static int finish_run(void *ctx, int run)
{
    (void)run;
    const kernel_call *call = ctx;
    return call->row->finish(&call->args);
}

static int run_time(const kernel_table *t, const char *text, const char *rows)
{
    long d[3] = {0, 0, 0};
    if (!text[0])
        text = t->time.fallback;
    if (!time_parse_size(t->lab, text, t->time.dims, t->time.max_each, d, t->time.fallback))
        return 2;
    kernel_size size = {d[0], d[1], d[2], 0};
    const char *why = t->size_problem ? t->size_problem(KERNEL_TIME, size) : NULL;
    if (why) {
        fprintf(stderr, "make time-%s: SIZE=%s: %s\n", t->lab, text, why);
        return 2;
    }
    if (!time_require_gpu(t->lab))
        return 0;
    kernel_problem p;
    memset(&p, 0, sizeof p);
    if (!t->setup(KERNEL_TIME, size, &p))
        return 1;
    int failed = 0;
    for (int i = 0; i < t->count; ++i) {
        const kernel_row *row = &t->rows[i];
        if (!(row->modes & KERNEL_TIME) || !picked(rows, row->name))
            continue;
        const kernel_row *yardstick = &t->rows[row->yardstick];
        kernel_call mine = {row, p.args}, base = {yardstick, p.args};
        if (p.yardstick_out)
            base.args.out = p.yardstick_out;
        const float *want = row->want == KERNEL_WANT_YARDSTICK ? base.args.out
                                                                : p.reference[row->want - 1];
        kernel_tolerance tol = row->tolerance ? row->tolerance(p.args.size)
                                              : (kernel_tolerance){0.0, 0.0};
        time_check check = {t->lab, p.args.out, want, p.checked, tol.atol, tol.rtol};
        timing_guard finish = {NULL, finish_run, &mine};
        time_pair pair = {row->name, kernel_call_launch, &mine, yardstick->name,
                          kernel_call_launch, &base, kernel_row_bytes(row, p.args.size),
                          kernel_row_flops(row, p.args.size), want ? &check : NULL,
                          row->finish ? &finish : NULL};
        int result = time_pair_run(&pair, text);
        /* An extension not written yet is no failure; a wrong result always is. */
        failed |= result == TIME_WRONG || (result == TIME_NOT_TIMED && !row->extension);
    }
    if (t->teardown)
        t->teardown(&p);
    return failed;
}

/* ------------------------------------------------------------- profile */

static int run_profile(const kernel_table *t, const char *text, const char *rows)
{
    char runner[64];
    snprintf(runner, sizeof runner, "%s_profile", t->lab);
    kernel_size size;
    const char *why = NULL;
    if (!read_size(&t->profile, text, size) ||
        (t->size_problem && (why = t->size_problem(KERNEL_PROFILE, size)))) {
        fprintf(stderr, "%s: %s is not a size for this lab: give up to %d positive numbers "
                "(each at most %ld), default %s%s%s\n", runner, text, t->profile.dims,
                t->profile.max_each, t->profile.fallback, why ? "; " : "", why ? why : "");
        return 2;
    }
    kernel_problem p;
    memset(&p, 0, sizeof p);
    if (!t->setup(KERNEL_PROFILE, size, &p))
        return 1;
    int failed = 0;
    for (int i = 0; i < t->count && !failed; ++i) {
        const kernel_row *row = &t->rows[i];
        if (!(row->modes & KERNEL_PROFILE) || !picked(rows, row->name))
            continue;
        lab_status status = (lab_status)row->launch(&p.args);
        if (status != LAB_OK) {
            /* Not run, so the profile will not show it. */
            fprintf(stderr, "%s: %s skipped: %s (%s)\n", runner, row->name,
                    lab_status_name(status), lab_last_error());
            continue;
        }
        cudaError_t err = cudaDeviceSynchronize();
        if (err != cudaSuccess) {
            fprintf(stderr, "%s: %s failed: %s\n", runner, row->name, cudaGetErrorString(err));
            failed = 1;
        }
    }
    if (t->teardown)
        t->teardown(&p);
    return failed;
}

/* ---------------------------------------------------------------- race */

enum { RACE_RIGHT = 0, RACE_WRONG = 1, RACE_ERROR = 2, RACE_SKIPPED = 3 };

static int cuda_ok(cudaError_t err, const char *what)
{
    if (err != cudaSuccess)
        fprintf(stderr, "race runner: %s: %s\n", what, cudaGetErrorString(err));
    return err == cudaSuccess;
}

/* The row once, its output poisoned with NaN before (an unwritten element
 * shows) and compared exactly after: the table's race inputs are small
 * integers, so every right result is exact. */
static int race_row(const kernel_table *t, const kernel_row *row, const kernel_size size)
{
    char text[64];
    size_text(size, text, sizeof text);
    kernel_problem p;
    memset(&p, 0, sizeof p);
    if (!t->setup(KERNEL_RACE, size, &p))
        return RACE_ERROR;
    int result = RACE_ERROR;
    float *host = malloc(p.checked * sizeof *host);
    if (!host) {
        fprintf(stderr, "race runner: out of host memory\n");
    } else if (cuda_ok(cudaMemset(p.args.out, 0xFF, p.checked * sizeof(float)), "cudaMemset")) {
        lab_status status = (lab_status)row->launch(&p.args);
        if (status != LAB_OK) {
            fprintf(stderr, "race runner: %s %s %s: %s\n", row->name,
                    row->extension ? "skipped (extension), it returned" : "returned",
                    lab_status_name(status), lab_last_error());
            result = row->extension ? RACE_SKIPPED : RACE_ERROR;
        } else if (cuda_ok(cudaDeviceSynchronize(), row->name) &&
                   cuda_ok(cudaMemcpy(host, p.args.out, p.checked * sizeof *host,
                                      cudaMemcpyDeviceToHost), "download")) {
            result = RACE_RIGHT;
            for (size_t i = 0; i < p.checked && result == RACE_RIGHT; ++i)
                if (host[i] != p.reference[0][i]) {
                    fprintf(stderr, "race runner: %s on %s: element %zu is %g, expected %g\n",
                            row->name, text, i, (double)host[i], (double)p.reference[0][i]);
                    result = RACE_WRONG;
                }
            if (result == RACE_RIGHT)
                printf("race runner: %s on %s: right\n", row->name, text);
        }
    }
    free(host);
    if (t->teardown)
        t->teardown(&p);
    return result;
}

static int run_race(const kernel_table *t, const char *text, const char *rows, int all)
{
    kernel_size size;
    if (!read_size(&t->race, text, size)) {
        fprintf(stderr, "race runner: %s is not a size for this lab: give up to %d positive "
                "numbers (each at most %ld), default %s\n", text, t->race.dims,
                t->race.max_each, t->race.fallback);
        return 2;
    }
    if (device_count() == 0) {
        printf("race runner: no CUDA device, nothing to run\n");
        return 77;
    }
    int worst = RACE_RIGHT;
    for (int i = 0; i < t->count; ++i) {
        const kernel_row *row = &t->rows[i];
        if (!(row->modes & KERNEL_RACE) || !picked(rows, row->name) || (row->extension && !all))
            continue;
        kernel_size own;
        if (row->race_size && !kernel_size_parse(row->race_size, t->race.dims, t->race.max_each,
                                                 own))
            return 2;
        int result = race_row(t, row, row->race_size ? own : size);
        if (result != RACE_SKIPPED && result > worst)
            worst = result;
    }
    return worst;
}

/* ---------------------------------------------------------------- list */

static const char *mode_words(unsigned modes, char *buf, size_t len)
{
    snprintf(buf, len, "%s%s%s%s", modes & KERNEL_TIME ? "time " : "",
             modes & KERNEL_PROFILE ? "profile " : "", modes & KERNEL_RACE ? "race " : "",
             modes & KERNEL_TIMELINE ? "timeline" : "");
    return buf;
}

static const char *const BENCH_ROLES[] = {"", "baseline", "kernel", "kernel beside",
                                           "ceiling"};

/* Where make bench shows the row: "bench transpose: smem (kernel), "(b) ..."". */
static void list_bench_column(const kernel_table *t, const kernel_row *row)
{
    printf("    bench");
    const char *sep = " ";
    for (int b = 0; b < t->bench_count; ++b)
        if (row->bench.problems & KERNEL_BENCH_IN(b)) {
            printf("%s%s", sep, t->bench[b].problem);
            sep = ", ";
        }
    printf(": %s (%s%s%s%s), \"%s\"\n", row->bench.key, BENCH_ROLES[row->bench.role],
           row->bench.ceiling ? " " : "", row->bench.ceiling ? row->bench.ceiling : "",
           row->bench.optional ? ", optional" : "", row->bench.label);
}

/* A bench column names problems of the table, a role, a key and a label,
 * and a ceiling its results' name. */
static int bench_column_ok(const kernel_table *t, const kernel_row *row)
{
    const kernel_bench_column *c = &row->bench;
    if (!c->problems)
        return c->role == KERNEL_BENCH_NONE;
    return c->problems < KERNEL_BENCH_IN(t->bench_count) && c->role > KERNEL_BENCH_NONE &&
           c->role <= KERNEL_BENCH_CEILING && c->key && c->label &&
           (c->role == KERNEL_BENCH_CEILING) == (c->ceiling != NULL);
}

/* The table as the programs see it, at the time mode's default size, with
 * the size each graded row's speed check times it at. */
static int run_list(const kernel_table *t)
{
    kernel_size size;
    if (!kernel_size_parse(t->time.fallback, t->time.dims, t->time.max_each, size))
        return 1;
    printf("%s: %d kernels; time SIZE %s, profile %s, race %s\n", t->lab, t->count,
           t->time.fallback, t->profile.fallback, t->race.fallback);
    for (int i = 0; i < t->count; ++i) {
        const kernel_row *row = &t->rows[i];
        char modes[32];
        printf("  %-34s %-18s", row->name, mode_words(row->modes, modes, sizeof modes));
        if (row->bytes)
            printf(" %.4g GB", kernel_row_bytes(row, size) * 1e-9);
        if (row->flops)
            printf(" %.4g GFLOP", kernel_row_flops(row, size) * 1e-9);
        if (row->modes & KERNEL_TIME)
            printf(", against %s", t->rows[row->yardstick].name);
        if (row->graded_size[0]) {
            char graded[64];
            size_text(row->graded_size, graded, sizeof graded);
            printf(", graded at %s", graded);
        }
        printf("%s\n", row->extension ? " (extension)" : "");
        if (row->stage) {
            printf("    a stage: launches kernels of its own");
            const char *sep = ", and may share those of ";
            for (int j = 0; j < t->count; ++j)
                if (j != i && (row->shares & KERNEL_ROW_BIT(j))) {
                    printf("%s%s", sep, t->rows[j].name);
                    sep = ", ";
                }
            printf("\n");
        }
        if (row->bench.problems)
            list_bench_column(t, row);
        if (row->yardstick < 0 || row->yardstick >= t->count || !row->launch ||
            (row->shares && !row->stage) || !bench_column_ok(t, row))
            return 1;
    }
    for (int b = 0; b < t->bench_count; ++b) {
        printf("  bench %s at", t->bench[b].problem);
        for (int s = 0; s < KERNEL_BENCH_SIZES && t->bench[b].sizes[s].name; ++s)
            printf("%s %s", s ? "," : "", t->bench[b].sizes[s].name);
        printf("%s%s\n", t->bench[b].outside_ceiling ? ", ceiling " : "",
               t->bench[b].outside_ceiling ? t->bench[b].outside_ceiling : "");
    }
    return 0;
}

/* ---------------------------------------------------------------- main */

#ifndef KERNEL_DRIVER_MODE
#define KERNEL_DRIVER_MODE NULL
#endif

static int usage(const char *program)
{
    fprintf(stderr, "usage: %s time|profile|race|list [--all] [--rows A,B] [SIZE or its "
            "numbers]\n", program);
#ifdef KERNEL_DRIVER_BENCH
    fprintf(stderr, "       %s bench [--runs N] [--seed S]\n", program);
#endif
    return 2;
}

int main(int argc, char **argv)
{
    const kernel_table *t = &lab_kernel_table;
    const char *mode = KERNEL_DRIVER_MODE;
    int first = 1;
    if (argc > 1 && (!strcmp(argv[1], "time") || !strcmp(argv[1], "profile") ||
                     !strcmp(argv[1], "race") || !strcmp(argv[1], "list"))) {
        mode = argv[1];
        first = 2;
    }
#ifdef KERNEL_DRIVER_BENCH
    if (argc > 1 && !strcmp(argv[1], "bench"))
        return kernel_bench_main(t, argc - 2, argv + 2);
#endif
    if (!mode)
        return usage(argv[0]);
    const char *rows = NULL;
    int all = 0;
    char size[256] = "";
    for (int i = first; i < argc; ++i) {
        if (!strcmp(argv[i], "--all")) {
            all = 1;
        } else if (!strcmp(argv[i], "--rows") && i + 1 < argc) {
            rows = argv[++i];
        } else {
            size_t used = strlen(size);
            snprintf(size + used, sizeof size - used, "%s%s", used ? "x" : "", argv[i]);
        }
    }
    if (!strcmp(mode, "time"))
        return run_time(t, size, rows);
    if (!strcmp(mode, "profile"))
        return run_profile(t, size, rows);
    if (!strcmp(mode, "race"))
        return run_race(t, size, rows, all);
    return run_list(t);
}
