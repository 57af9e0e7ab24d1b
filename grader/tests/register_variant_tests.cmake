# cmake -D EXE=<variant grader> -D MANIFEST=<expectations.cmake>
#       -D EXPECT_SCRIPT=<expect_caught.cmake> -D RESULTS_DIR=<dir> -D OUT=<file>
#       -P register_variant_tests.cmake
# Run after the variant's grader is built: writes one ctest test per grader
# test the variant must fail, labelled with that test's group from `EXE
# --list` (a GPU test also takes the gpu lock), plus the label "variant".
cmake_minimum_required(VERSION 3.24) # policies of the project (IN_LIST, ...)
include(${MANIFEST})
execute_process(COMMAND ${EXE} --list OUTPUT_VARIABLE listing RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${EXE} --list failed (${status})")
endif()
set(content "")
foreach(test ${EXPECTED_TESTS})
  if(listing MATCHES "(^|\n)([a-z]+) ${test}(\n|$)")
    set(group ${CMAKE_MATCH_2})
  elseif(test MATCHES "^cpu_")
    # Not listed (yet): expect_caught.cmake fails it with "grader has no
    # test"; the name says where it will run once it exists.
    set(group cpu)
  else()
    set(group gpu)
  endif()
  set(name ${EXPECT_${test}_CTEST_NAME})
  string(APPEND content
    "add_test(${name} \"${CMAKE_COMMAND}\" -D \"GRADER=${EXE}\" -D \"MANIFEST=${MANIFEST}\""
    " -D TEST=${test} -D \"RESULTS=${RESULTS_DIR}/${test}.json\" -P \"${EXPECT_SCRIPT}\")\n"
    # 77 or the message: the grader skipped (no GPU here). The harness limits
    # each grader test itself; this TIMEOUT is only a backstop.
    "set_tests_properties(${name} PROPERTIES LABELS \"${group};variant\" SKIP_RETURN_CODE 77"
    " SKIP_REGULAR_EXPRESSION \"VARIANT SKIPPED\" TIMEOUT 900)\n")
  if(NOT group STREQUAL "cpu")
    string(APPEND content "set_tests_properties(${name} PROPERTIES RESOURCE_LOCK gpu)\n")
  endif()
endforeach()
file(WRITE ${OUT} "${content}")
