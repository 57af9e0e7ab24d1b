# cmake -D NM=nm -D LIBRARY=liblabN_labs.a -D OUT=<grader>.symbols -P WriteStudentSymbols.cmake
# The student library's symbols (nm -P: one "name type value size" line
# each), next to the grader: harness/checks/launch_watch.c finds the kernels'
# host-side names in it. A failure here must not look like a clean list.
execute_process(COMMAND ${NM} -P ${LIBRARY} OUTPUT_FILE ${OUT}.tmp RESULT_VARIABLE code
                ERROR_VARIABLE errors)
if(NOT code EQUAL 0)
  file(REMOVE ${OUT}.tmp ${OUT})
  message(FATAL_ERROR "nm -P ${LIBRARY} failed (${code}): ${errors}")
endif()
file(RENAME ${OUT}.tmp ${OUT})
