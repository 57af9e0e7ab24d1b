# cmake -D GRADER=<variant grader> -D MANIFEST=<expectations.cmake> -D TEST=<grader test>
#       -D RESULTS=<json> -P expect_caught.cmake
# One ctest test of a variant. A known-wrong one (FAILS): the grader must FAIL it on TEST,
# with the status and a message matching the regular expression the variant
# file gives (MANIFEST holds them). Passing the variant, crashing the grader
# itself, or failing for another reason all fail this test.
#
# Skips when the grader skips (exit 77: a GPU test on a machine without
# one): prints "VARIANT SKIPPED: ..." (the ctest SKIP_REGULAR_EXPRESSION) and,
# from CMake 3.29 on, also exits 77.
cmake_minimum_required(VERSION 3.24) # policies of the project (IN_LIST, ...)
include(${MANIFEST})
set(want_status ${EXPECT_${TEST}_STATUS})
set(want_message "${EXPECT_${TEST}_MESSAGE}")
set(where "${VARIANT} (${VARIANT_FILE}), grader test ${TEST}")

set(SKIP_MARKER "VARIANT SKIPPED")
include(${CMAKE_CURRENT_LIST_DIR}/../cmake/SkipTest.cmake)

# A test the grader does not have would make --only a usage error; say so.
execute_process(COMMAND ${GRADER} --list OUTPUT_VARIABLE listing RESULT_VARIABLE code)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "${where}: '${GRADER} --list' failed (${code})")
endif()
if(NOT listing MATCHES "(^|\n)[a-z]+ ${TEST}(\n|$)")
  message(FATAL_ERROR "${where}: the grader has no test ${TEST}. The variant expects it: "
          "add it to the grader, or correct the variant's FAILS. The grader's --list:\n"
          "${listing}")
endif()

# STATUS gated: the test passes but earns nothing, because the check of the
# lab's mechanism (its gate) failed. The gate must run too: the whole grader.
if(want_status STREQUAL "gated")
  set(selection --group cpu --group gpu)
else()
  set(selection --only ${TEST})
endif()
file(REMOVE ${RESULTS})
execute_process(COMMAND ${GRADER} ${selection} --results ${RESULTS}
                        ${EXPECT_${TEST}_GRADER_ARGS}
                RESULT_VARIABLE code OUTPUT_VARIABLE output ERROR_VARIABLE errors)
# FATAL_ERROR re-wraps its text: print the grader's output as it is first.
# (A function, not a macro: a macro would re-read the backslashes of a
# regular expression in `reason` as escapes.)
function(fail_showing_grader reason)
  message("--- grader output ---\n${output}${errors}---")
  message(FATAL_ERROR "${where}: ${reason}")
endfunction()
if(code EQUAL 77)
  skip_test("${where}: the grader skipped it (no CUDA device here?)")
endif()
if(want_status STREQUAL "gated" AND output MATCHES "SKIP +${TEST} ")
  skip_test("${where}: the grader skipped it (no CUDA device here?)")
endif()
if(want_status STREQUAL "pass")
  if(NOT code EQUAL 0)
    fail_showing_grader("VALID CODE PUNISHED: this variant is a valid rewrite (PASSES), and "
                        "the grader did not pass it (exit ${code}).")
  endif()
  message(STATUS "${where}: passed, as a valid rewrite must")
  return()
endif()
if(code EQUAL 0)
  fail_showing_grader("NOT CAUGHT: the grader passed this known-wrong variant.")
endif()
if(NOT code EQUAL 1)
  fail_showing_grader("the grader itself exited with ${code}, not 1 (a failed test).")
endif()

if(NOT EXISTS ${RESULTS})
  fail_showing_grader("the grader wrote no results file ${RESULTS}")
endif()
file(READ ${RESULTS} json)
string(JSON count LENGTH "${json}" tests)
set(status "")
if(count GREATER 0)
  math(EXPR last "${count} - 1")
  foreach(i RANGE ${last})
    string(JSON name GET "${json}" tests ${i} name)
    if(name STREQUAL TEST)
      string(JSON status GET "${json}" tests ${i} status)
      string(JSON got_message GET "${json}" tests ${i} message)
      string(JSON got_points GET "${json}" tests ${i} points)
      string(JSON got_gate GET "${json}" tests ${i} gated_by)
    endif()
  endforeach()
endif()
if(NOT status)
  fail_showing_grader("the results file has no record of ${TEST}")
endif()

if(want_status STREQUAL "gated")
  message("${TEST}: ${status}, ${got_points} points, gated by '${got_gate}'")
  if(NOT status STREQUAL "pass" OR NOT got_points EQUAL 0 OR NOT got_gate MATCHES "${want_message}")
    fail_showing_grader("expected a pass worth 0 points, gated by a test matching "
                        "'${want_message}'; got ${status}, ${got_points} points, gated by '${got_gate}'.")
  endif()
  message(STATUS "${where}: not credited, as expected (gated by ${got_gate})")
  return()
endif()
message("${TEST}: ${status}: ${got_message}")
if(NOT status MATCHES "^(${want_status})$") # one status, or alternatives a|b
  fail_showing_grader("status '${status}', expected '${want_status}'.")
endif()
if(NOT got_message MATCHES "${want_message}")
  fail_showing_grader("the message does not match the regular expression '${want_message}'.")
endif()
message(STATUS "${where}: caught as expected (${status}, message matches '${want_message}')")
