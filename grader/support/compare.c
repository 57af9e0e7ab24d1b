#include "compare.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "guard.h"
#include "text_append.h"

enum { MAX_LISTED = 5 };

static int element_ok(float got, double ref, const compare_spec *spec)
{
    if (!isfinite(got))
        return 0;
    return fabs((double)got - ref) <= spec->atol + spec->rtol * fabs(ref);
}


/* Fraction of the elements whose value matches ref under `mapping`. The
 * mapping turns (row, col) of the reference into an index of `got`, or
 * returns -1 where it says nothing. */
typedef long long (*index_mapping)(size_t r, size_t c, const compare_spec *spec);

static long long map_transposed(size_t r, size_t c, const compare_spec *spec)
{
    return (long long)(c * spec->rows + r);
}

static long long map_shift_down(size_t r, size_t c, const compare_spec *spec)
{
    return r + 1 < spec->rows ? (long long)((r + 1) * spec->cols + c) : -1;
}

static long long map_shift_up(size_t r, size_t c, const compare_spec *spec)
{
    return r > 0 ? (long long)((r - 1) * spec->cols + c) : -1;
}

static int matches_under(const float *got, const double *ref, const compare_spec *spec,
                         index_mapping mapping)
{
    size_t compared = 0;
    for (size_t r = 0; r < spec->rows; ++r)
        for (size_t c = 0; c < spec->cols; ++c) {
            long long idx = mapping(r, c, spec);
            if (idx < 0)
                continue;
            if (!element_ok(got[idx], ref[r * spec->cols + c], spec))
                return 0;
            ++compared;
        }
    return compared > 0;
}

static int only_partial_tiles_wrong(const float *got, const double *ref,
                                    const compare_spec *spec)
{
    if (spec->tile == 0)
        return 0;
    size_t full_rows = spec->rows / spec->tile * spec->tile;
    size_t full_cols = spec->cols / spec->tile * spec->tile;
    if (full_rows == spec->rows && full_cols == spec->cols)
        return 0;
    for (size_t r = 0; r < full_rows; ++r)
        for (size_t c = 0; c < full_cols; ++c)
            if (!element_ok(got[r * spec->cols + c], ref[r * spec->cols + c], spec))
                return 0;
    return 1;
}

static compare_diagnosis diagnose(const float *got, const double *ref,
                                  const compare_spec *spec, const compare_result *res)
{
    if (res->poisoned == res->mismatches)
        return res->poisoned == res->checked ? DIAG_NEVER_WRITTEN : DIAG_PARTLY_UNWRITTEN;
    if (spec->rows > 1 && spec->cols > 1) {
        if (matches_under(got, ref, spec, map_transposed))
            return DIAG_TRANSPOSED;
        if (only_partial_tiles_wrong(got, ref, spec))
            return DIAG_PARTIAL_TILE;
        if (matches_under(got, ref, spec, map_shift_down) ||
            matches_under(got, ref, spec, map_shift_up))
            return DIAG_ROW_SHIFT;
    }
    if (res->poisoned > 0)
        return DIAG_PARTLY_UNWRITTEN;
    for (size_t i = 0; i < res->checked; ++i)
        if (!isfinite(got[i]))
            return DIAG_NOT_FINITE;
    return DIAG_NONE;
}

const char *compare_diagnosis_text(compare_diagnosis diagnosis)
{
    switch (diagnosis) {
    case DIAG_NONE: return "";
    case DIAG_NEVER_WRITTEN:
        return "the output was never written (every element still holds the NaN poison)";
    case DIAG_PARTLY_UNWRITTEN:
        return "some elements were never written (they still hold the NaN poison): "
               "too few threads launched, or an index that skips elements";
    case DIAG_TRANSPOSED:
        return "the output is the transpose of the expected one: rows and columns are swapped";
    case DIAG_PARTIAL_TILE:
        return "only the last, partial tiles are wrong: the boundary (size not a "
               "multiple of the tile) is not handled";
    case DIAG_ROW_SHIFT: return "the output is shifted by one row: an off-by-one in the row index";
    case DIAG_NOT_FINITE:
        return "NaN/Inf values that are not the poison: something read uninitialised "
               "or out-of-range memory";
    }
    return "";
}

static void start_report(const compare_spec *spec, compare_result *res)
{
    snprintf(res->report, sizeof res->report,
             "%zu of %zu elements wrong (%zux%zu, tolerance %.3g + %.3g*|ref|)",
             res->mismatches, res->checked, spec->rows, spec->cols, spec->atol, spec->rtol);
}

static void finish_report(compare_result *res)
{
    if (res->diagnosis != DIAG_NONE)
        text_append(res->report, sizeof res->report, "; diagnosis: %s",
               compare_diagnosis_text(res->diagnosis));
}

int compare_floats(const float *got, const double *ref, const compare_spec *spec,
                   compare_result *res)
{
    memset(res, 0, sizeof *res);
    res->checked = spec->rows * spec->cols;
    size_t listed = 0;
    char listing[768] = "";
    for (size_t i = 0; i < res->checked; ++i) {
        if (isfinite(got[i])) {
            double err = fabs((double)got[i] - ref[i]);
            if (err > res->max_abs_error)
                res->max_abs_error = err;
        }
        if (element_ok(got[i], ref[i], spec))
            continue;
        ++res->mismatches;
        if (guard_is_poison(got[i]))
            ++res->poisoned;
        if (listed < MAX_LISTED) {
            text_append(listing, sizeof listing, "%s(%zu,%zu): got %.9g%s, expected %.9g",
                   listed ? "; " : "", i / spec->cols, i % spec->cols, (double)got[i],
                   guard_is_poison(got[i]) ? " [poison: never written]" : "", ref[i]);
            ++listed;
        }
    }
    if (res->mismatches == 0)
        return 1;
    res->diagnosis = diagnose(got, ref, spec, res);
    start_report(spec, res);
    text_append(res->report, sizeof res->report, "; first: %s", listing);
    finish_report(res);
    return 0;
}

int compare_ints(const int *got, const int *ref, const compare_spec *spec,
                 compare_result *res)
{
    memset(res, 0, sizeof *res);
    res->checked = spec->rows * spec->cols;
    size_t listed = 0;
    char listing[768] = "";
    for (size_t i = 0; i < res->checked; ++i) {
        if (got[i] == ref[i])
            continue;
        ++res->mismatches;
        if (got[i] == GUARD_POISON_INT)
            ++res->poisoned;
        if (listed < MAX_LISTED) {
            text_append(listing, sizeof listing, "%s(%zu,%zu): got %d%s, expected %d",
                   listed ? "; " : "", i / spec->cols, i % spec->cols, got[i],
                   got[i] == GUARD_POISON_INT ? " [poison: never written]" : "", ref[i]);
            ++listed;
        }
    }
    if (res->mismatches == 0)
        return 1;
    if (res->poisoned == res->mismatches)
        res->diagnosis = res->poisoned == res->checked ? DIAG_NEVER_WRITTEN
                                                       : DIAG_PARTLY_UNWRITTEN;
    start_report(spec, res);
    text_append(res->report, sizeof res->report, "; first: %s", listing);
    finish_report(res);
    return 0;
}

double compare_dot_atol(size_t k)
{
    const double unit_roundoff = 1.0 / 16777216.0; /* 2^-24 */
    return 8.0 * (double)(k ? k : 1) * unit_roundoff;
}
