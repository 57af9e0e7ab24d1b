# cmake -D EXE=... -D PREFIX=... -D OUT=... -P ListGraderTests.cmake
# Runs `EXE --list` ("group name" per line) and writes one add_test per test.
execute_process(COMMAND ${EXE} --list OUTPUT_VARIABLE listing RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${EXE} --list failed (${status})")
endif()
string(REPLACE "\n" ";" lines "${listing}")
set(content "")
foreach(line ${lines})
  if(line MATCHES "^([a-z]+) ([A-Za-z0-9_]+)$")
    set(group ${CMAKE_MATCH_1})
    set(name ${CMAKE_MATCH_2})
    set(test ${PREFIX}.${name})
    string(APPEND content "add_test(${test} \"${EXE}\" --only ${name})\n")
    # 77 = skipped (no GPU); the harness enforces its own per-test limit,
    # this TIMEOUT is only a backstop.
    string(APPEND content
      "set_tests_properties(${test} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 900 LABELS ${group})\n")
    if(NOT group STREQUAL "cpu")
      string(APPEND content "set_tests_properties(${test} PROPERTIES RESOURCE_LOCK gpu)\n")
    endif()
  endif()
endforeach()
file(WRITE ${OUT} "${content}")
