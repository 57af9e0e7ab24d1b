# For ctest scripts run with `cmake -P`: skip_test(reason) reports the test
# as skipped, never as passed. It prints "${SKIP_MARKER}: reason" (the
# test's SKIP_REGULAR_EXPRESSION matches the marker) and, from CMake 3.29 on,
# also exits 77 (SKIP_RETURN_CODE); then it ends the script.
#   set(SKIP_MARKER "VARIANT SKIPPED")
#   include(${CMAKE_CURRENT_LIST_DIR}/../cmake/SkipTest.cmake)
macro(skip_test reason)
  message("${SKIP_MARKER}: ${reason}")
  if(CMAKE_VERSION VERSION_GREATER_EQUAL 3.29)
    cmake_language(EXIT 77)
  endif()
  return()
endmacro()
