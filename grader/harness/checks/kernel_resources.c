/* The static facts of a lab's kernels from the build's ptxas report
 * (kernel_resources.h). */
#include "kernel_resources.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "harness_internal.h"

/* sm_90's limits (CUDA C Programming Guide, compute capabilities table). */
enum {
    SM90_REGISTERS_PER_SM = 65536,
    SM90_REGISTER_UNIT = 256, /* registers are given to a warp in these */
    SM90_MAX_THREADS_PER_BLOCK = 1024,
    WARP = 32
};

int kernel_resources_max_threads(int registers)
{
    if (registers <= 0)
        return SM90_MAX_THREADS_PER_BLOCK;
    int per_warp = (registers * WARP + SM90_REGISTER_UNIT - 1) / SM90_REGISTER_UNIT *
                   SM90_REGISTER_UNIT;
    int threads = SM90_REGISTERS_PER_SM / per_warp * WARP;
    return threads < SM90_MAX_THREADS_PER_BLOCK ? threads : SM90_MAX_THREADS_PER_BLOCK;
}

/* <test program>.resources. In the test program that is /proc/self/exe's;
 * in a runner's replay (call_log.h) the test program it executes. */
static void report_path(char *path, size_t size)
{
    if (harness_tests_program[0]) {
        snprintf(path, size, "%s.resources", harness_tests_program);
        return;
    }
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = '\0';
    snprintf(path, size, "%s.resources", exe);
}

enum { REPORT_KERNELS = 64 };

/* Every kernel of the build's report (up to REPORT_KERNELS); fails the test,
 * saying why, when the report is missing or the compile behind it failed. */
static int read_report(kernel_resources *all)
{
    char path[4200];
    report_path(path, sizeof path);
    FILE *f = fopen(path, "r");
    GRADER_CHECK(f, "the build's report on your kernels (%s, written by ptxas when the "
                 "grader is built) is missing: build the grader again (make check-labN); if "
                 "it stays missing, report it as a grader bug.", path);
    char line[1024];
    int count = 0;
    while (fgets(line, sizeof line, f) && count < REPORT_KERNELS) {
        line[strcspn(line, "\n")] = '\0';
        if (strncmp(line, "# error: ", 9) == 0) {
            fclose(f);
            GRADER_FAIL("the grader could not compile your lab file for the reference GPU to "
                        "read its kernels' resources: %.600s", line + 9);
        }
        if (line[0] == '#' || !line[0])
            continue;
        kernel_resources k = {0};
        char mangled[512];
        if (sscanf(line, "%15[^\t]\t%d\t%d\t%d\t%d\t%*d\t%511[^\t]\t%255[^\n]", k.arch,
                   &k.registers, &k.shared_bytes, &k.stack_bytes, &k.spill_store_bytes, mangled,
                   k.name) == 7)
            all[count++] = k;
    }
    fclose(f);
    return count;
}

static int meets(const kernel_resources *k, const kernel_expectation *e)
{
    return (size_t)k->shared_bytes >= e->shared_bytes &&
           kernel_resources_max_threads(k->registers) >= e->block_threads;
}

/* The kernel `e` is about: the one with the skeleton's name. Kernels may
 * have any name, and a CPU check cannot know which one the entry point
 * launches: where it was renamed, the file's kernel that meets the
 * expectation, if any, is judged, with a note. The GPU checks still judge
 * the launched kernel's results and speed. */
static void kernel_for(const kernel_expectation *e, kernel_resources *out)
{
    static kernel_resources all[REPORT_KERNELS];
    int count = read_report(all);
    for (int i = 0; i < count; ++i)
        if (strcmp(all[i].name, e->kernel) == 0) {
            *out = all[i];
            return;
        }
    int best = -1;
    for (int i = 0; i < count && best < 0; ++i)
        if (meets(&all[i], e))
            best = i;
    GRADER_CHECK(count > 0, "the compiler's report on your lab file names no kernel at all: "
                 "TODO(%s) asks for %s (see %s, section %s).", e->todo, e->what, e->handout,
                 e->section);
    *out = all[best >= 0 ? best : 0];
    grader_note("%s: your file has no kernel named %s (the skeleton's name), so the kernel "
                "judged here is %s, %s", e->what, e->kernel, out->name,
                best >= 0 ? "which meets what the lab asks of its tiles"
                          : "the first of your file's kernels: none meets what the lab asks");
}

void kernel_resources_expect(const kernel_expectation *e)
{
    kernel_resources k;
    kernel_for(e, &k);
    /* Lab 3's metrics keep their names; a lab with several kernels names each. */
    char registers[96], shared[96], local[96];
    if (e->metric[0]) {
        snprintf(registers, sizeof registers, "%s_registers", e->metric);
        snprintf(shared, sizeof shared, "%s_shared_bytes", e->metric);
        snprintf(local, sizeof local, "%s_local_bytes", e->metric);
    } else {
        snprintf(registers, sizeof registers, "registers_per_thread");
        snprintf(shared, sizeof shared, "shared_bytes");
        snprintf(local, sizeof local, "local_bytes_per_thread");
    }
    grader_metric(registers, k.registers, "registers");
    grader_metric(shared, k.shared_bytes, "bytes");
    grader_metric(local, k.stack_bytes, "bytes");
    int max_threads = kernel_resources_max_threads(k.registers);
    if (e->metric[0])
        snprintf(local, sizeof local, "%s_max_threads_per_block", e->metric);
    else
        snprintf(local, sizeof local, "max_threads_per_block");
    grader_metric(local, max_threads, "threads");
    grader_note("%s (%s, as compiled for %s): %d registers/thread, %d bytes shared, %d bytes "
                "local (%d of spills)", e->what, k.name, k.arch, k.registers, k.shared_bytes,
                k.stack_bytes, k.spill_store_bytes);
    if (k.stack_bytes > 0)
        grader_note("%s: %d bytes of local memory per thread: something (often an array "
                    "indexed with a value the compiler cannot resolve, or too many registers) "
                    "spilled out of registers to slow off-chip memory. Not graded; see %s, "
                    "section %s; make resources-labN shows every kernel's figures.",
                    e->what, k.stack_bytes, e->handout, e->spill_section);
    GRADER_CHECK((size_t)k.shared_bytes >= e->shared_bytes,
                 "TODO(%s): %s declares %d bytes of static shared memory (ptxas, for %s); its "
                 "tiles need at least %zu. Declare them as __shared__ arrays whose sizes are "
                 "compile-time constants. See %s, section %s.",
                 e->todo, e->what, k.shared_bytes, k.arch, e->shared_bytes, e->handout,
                 e->section);
    GRADER_CHECK(max_threads >= e->block_threads,
                 "TODO(%s): %s uses %d registers per thread (ptxas, for %s), so a block can "
                 "have at most %d threads there, but it is launched with %d. See %s, section %s.",
                 e->todo, e->what, k.registers, k.arch, max_threads, e->block_threads,
                 e->handout, e->spill_section);
}
