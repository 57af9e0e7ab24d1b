#include "tile_loads.h"

#include <stdlib.h>
#include <string.h>

#include "memory_sectors.h"

/* Records what went wrong; the lab's check turns it into its message. */
static void fault(tile_loads_survey *out, tile_loads_fault what, int thread, int round, int row,
                  int col)
{
    out->fault = what;
    out->thread = thread;
    out->round = round;
    out->row = row;
    out->col = col;
}

int tile_loads_walk(const tile_loads_shape *s, tile_load_fn load, tile_loads_survey *out)
{
    memset(out, 0, sizeof *out);
    out->rounds = s->rows * s->cols / s->width / s->threads;
    size_t elements = (size_t)s->rows * (size_t)s->cols;
    unsigned char *hits = calloc(elements ? elements : 1, 1);
    if (!hits)
        return 0;
    for (int r = 0; r < out->rounds; ++r)
        for (int w = 0; w < s->threads / LAUNCH_SIM_WARP_SIZE; ++w) {
            warp_request req;
            warp_request_init(&req, s->width * s->element_bytes);
            for (int lane = 0; lane < LAUNCH_SIM_WARP_SIZE; ++lane) {
                int t = w * LAUNCH_SIM_WARP_SIZE + lane;
                tile_load_at e = load(t, r, s->threads, s->cols);
                if (!(e.row >= 0 && e.row < s->rows && e.col >= 0 &&
                      e.col + s->width <= s->cols && e.col % s->width == 0)) {
                    fault(out, TILE_LOADS_OUTSIDE, t, r, e.row, e.col);
                    free(hits);
                    return 1;
                }
                for (int q = 0; q < s->width; ++q) {
                    unsigned char *h = &hits[(size_t)e.row * s->cols + e.col + q];
                    if (*h) {
                        fault(out, TILE_LOADS_TWICE, t, r, e.row, e.col + q);
                        free(hits);
                        return 1;
                    }
                    *h = 1;
                }
                warp_request_add(&req, lane,
                                 ((long long)e.row * s->matrix_cols + e.col) * s->element_bytes);
            }
            double ratio =
                (double)warp_request_sectors(&req) / warp_request_ideal_sectors(&req);
            if (ratio > out->worst_ratio) {
                out->worst_ratio = ratio;
                out->worst_sectors = warp_request_sectors(&req);
                out->worst_ideal = warp_request_ideal_sectors(&req);
                out->worst_warp = w;
                out->worst_round = r;
            }
        }
    for (size_t i = 0; i < elements; ++i)
        if (!hits[i]) {
            fault(out, TILE_LOADS_NEVER, -1, -1, (int)(i / (size_t)s->cols),
                  (int)(i % (size_t)s->cols));
            break;
        }
    free(hits);
    return 1;
}
