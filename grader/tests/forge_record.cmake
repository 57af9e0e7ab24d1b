# The forging code of the "forges its record" variants, in one place: a
# student helper that finds the harness's record of the test in
# /proc/self/maps (the memfd the runner names "grader-record"), marks the
# test function as returned and ends the process with status 0. Included by
# those variants; it sits outside labN/, so it is not registered as one.
set(FORGE_RECORD_AND_LEAVE [[
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void forge_record_and_leave(void)
{
    FILE *maps = fopen("/proc/self/maps", "r");
    char line[512];
    while (maps && fgets(line, sizeof line, maps))
        if (strstr(line, "grader-record")) {
            *(volatile int *)strtoul(line, NULL, 16) = 1; /* result_record.returned */
            _exit(0);
        }
}]])
