# cmake -D DEMO=path/to/lab3_race_demo -D KERNEL=tiled|mutant -D EXPECT=clean|hazard
#       [-D TOOLKIT_BIN=dir] -P racecheck.cmake
#
# Runs compute-sanitizer's racecheck tool on one tiled matmul of the race
# demo. EXPECT=clean: the reference kernel must run with no shared-memory
# hazard. EXPECT=hazard: the copy without its second __syncthreads() must be
# reported (its wrong result alone is not enough: racecheck must see it).
#
# Skips when compute-sanitizer is neither on PATH nor in TOOLKIT_BIN, or
# when there is no CUDA device: prints "RACECHECK SKIPPED: ..." (the ctest
# test's SKIP_REGULAR_EXPRESSION) and, from CMake 3.29 on, also exits 77.

# A small size: racecheck instruments every shared-memory access, and the
# hazard exists in every phase of every block whatever the size.
set(size 64 64 96)

set(SKIP_MARKER "RACECHECK SKIPPED")
include(${CMAKE_CURRENT_LIST_DIR}/../cmake/SkipTest.cmake)

find_program(sanitizer NAMES compute-sanitizer)
if(NOT sanitizer AND TOOLKIT_BIN)
  find_program(sanitizer NAMES compute-sanitizer PATHS "${TOOLKIT_BIN}" NO_DEFAULT_PATH)
endif()
if(NOT sanitizer)
  skip_test("compute-sanitizer is not on PATH (nor in '${TOOLKIT_BIN}')")
endif()

execute_process(COMMAND "${DEMO}" --probe RESULT_VARIABLE probe OUTPUT_QUIET ERROR_QUIET)
if(probe EQUAL 77)
  skip_test("no CUDA device on this machine")
elseif(NOT probe EQUAL 0)
  message(FATAL_ERROR "${DEMO} --probe failed (${probe})")
endif()

execute_process(
  COMMAND "${sanitizer}" --tool racecheck --error-exitcode 1
          "${DEMO}" --kernel ${KERNEL} --size ${size} --runs 1
  RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(report "${out}${err}")
set(hazards "")
if(report MATCHES "RACECHECK SUMMARY: ([0-9]+) hazard")
  set(hazards ${CMAKE_MATCH_1})
endif()

if(EXPECT STREQUAL "clean")
  if(NOT code EQUAL 0 OR (hazards AND hazards GREATER 0))
    message(FATAL_ERROR "racecheck on the reference tiled kernel: exit ${code}, "
            "hazards '${hazards}'; expected a clean run.\n${report}")
  endif()
  message(STATUS "racecheck: the reference tiled kernel runs with no shared-memory hazard")
elseif(EXPECT STREQUAL "hazard")
  if(code EQUAL 0)
    message(FATAL_ERROR "racecheck reported nothing for the kernel without its second "
            "__syncthreads(): the demo no longer shows the race.\n${report}")
  endif()
  if(NOT ((hazards AND hazards GREATER 0) OR report MATCHES "Race reported|[Hh]azard"))
    message(FATAL_ERROR "the race demo failed (exit ${code}) but racecheck reported no "
            "hazard: something else went wrong.\n${report}")
  endif()
  message(STATUS "racecheck reported ${hazards} hazard(s) in the kernel without its second "
          "__syncthreads(), as expected")
else()
  message(FATAL_ERROR "EXPECT must be clean or hazard, not '${EXPECT}'")
endif()
