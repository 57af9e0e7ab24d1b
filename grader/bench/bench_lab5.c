/* make bench, lab 5: the six reduction stages against the grader's
 * divergent stage (1), with cudaMemcpy as the ceiling: the copy moves n/2
 * floats, so it reads and writes as many bytes as the reduction reads (the
 * graders' definition, grader/lab5/lab5_rubric.h). The kernels, the work
 * and the ceiling are rows of lab 5's kernel table (lab5_kernels.c); the
 * keys and labels are the result file's. */
#include "bench_core.h"
#include "device_buffer.h"
#include "lab5_kernels.h"

static const int SIZES[] = {1 << 24, 1 << 26, 1 << 27};
static const char *SIZE_NAMES[] = {"2^24", "2^26", "2^27"};
enum { STAGES = 6 };

int main(int argc, char **argv)
{
    bench_options o = bench_start(argc, argv, "bench_lab5");
    const size_t most = (size_t)1 << 27;
    float *in = bench_alloc_floats(most), *copy_out = bench_alloc_floats(most / 2),
          *sum = bench_alloc_floats(1);
    /* All ones: every partial sum is an integer a float holds exactly, so
     * every stage must agree with the baseline to the last bit. */
    device_fill_u32(in, 0x3f800000u, most);
    bench_plan(3 * (STAGES + 2));
    static const struct {
        const char *name, *label;
        int row;
    } STAGE[STAGES] = {
        {"divergent", "(1) interleaved pairs, divergent", LAB5_ROW_DIVERGENT},
        {"strided", "(2) contiguous threads, bank conflicts", LAB5_ROW_STRIDED},
        {"sequential", "(3) sequential addressing", LAB5_ROW_SEQUENTIAL},
        {"first_add", "(4) first add during the load", LAB5_ROW_FIRST_ADD},
        {"warp_shuffle", "(5) last warp with shuffles", LAB5_ROW_WARP_SHUFFLE},
        {"grid_stride", "(6) grid-stride, float4, one wave", LAB5_ROW_GRID_STRIDE},
    };
    const kernel_row *rows = lab_kernel_table.rows;
    int first_error = 0;
    for (int s = 0; s < 3; ++s) {
        const kernel_args args = {.size = {SIZES[s]}, .in = {in, NULL}, .out = sum};
        kernel_call baseline = {&rows[LAB5_ROW_GRADER_DIVERGENT], args};
        kernel_call copy = {&rows[LAB5_ROW_MEMCPY_HALF], args};
        copy.args.out = copy_out;
        kernel_call calls[STAGES];
        bench_entry kernels[STAGES];
        for (int k = 0; k < STAGES; ++k) {
            calls[k] = (kernel_call){&rows[STAGE[k].row], args};
            kernels[k] = (bench_entry){STAGE[k].name, STAGE[k].label, kernel_call_launch,
                                       &calls[k]};
        }
        bench_problem p = {
            .lab = 5, .problem = "sum", .size = SIZE_NAMES[s], .x = SIZES[s],
            .work = kernel_row_bytes(baseline.row, args.size), .unit = "GB/s",
            .baseline = {"grader_divergent", "the grader's divergent stage (1)",
                         kernel_call_launch, &baseline},
            .kernels = kernels, .kernel_count = STAGES,
            .ceiling = {"memcpy", "cudaMemcpy of n/2 floats (the same bytes)",
                        kernel_call_launch, &copy},
            .ceiling_name = "memcpy_d2d",
            .out = sum, .out_count = 1, .atol = 0.0, .rtol = 0.0};
        int status = bench_run(&p, &o);
        first_error = first_error ? first_error : status;
    }
    return first_error != 0;
}
