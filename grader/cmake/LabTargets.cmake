# Building labs and graders, and registering their tests with ctest.

# Warnings for project code (C and the host side of CUDA).
function(cuda_labs_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:C>:-Wall -Wextra -Wshadow -Wstrict-prototypes>
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra --Wreorder>)
endfunction()

set(GRADER_LIST_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/ListGraderTests.cmake)

# After each build, ask the grader for its test list (--list) and turn every
# test into a ctest test, so ctest counts and reports them one by one and the
# list is written only once (in the grader's C table).
function(discover_grader_tests exe prefix)
  set(generated ${CMAKE_CURRENT_BINARY_DIR}/${exe}_tests.cmake)
  set(loader ${CMAKE_CURRENT_BINARY_DIR}/${exe}_include.cmake)
  add_custom_command(TARGET ${exe} POST_BUILD
    COMMAND ${CMAKE_COMMAND} -D EXE=$<TARGET_FILE:${exe}> -D PREFIX=${prefix}
            -D OUT=${generated} -P ${GRADER_LIST_SCRIPT}
    VERBATIM)
  file(WRITE ${loader}
    "if(EXISTS \"${generated}\")\n"
    "  include(\"${generated}\")\n"
    "else()\n"
    "  add_test(${prefix}.NOT_BUILT ${CMAKE_COMMAND} -E echo \"${exe} was not built\")\n"
    "  set_tests_properties(${prefix}.NOT_BUILT PROPERTIES WILL_FAIL TRUE)\n"
    "endif()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${loader})
endfunction()

# A CMocka unit-test program that runs on the harness (one process per test).
function(add_cpu_test_suite exe)
  add_executable(${exe} ${ARGN})
  target_link_libraries(${exe} PRIVATE lab_grader_harness)
  target_compile_definitions(${exe} PRIVATE GRADER_IMPLEMENTATION="self-test")
  cuda_labs_warnings(${exe})
  discover_grader_tests(${exe} ${exe})
endfunction()

# add_cuda_lab(NUMBER 1 DIR lab1_indexing SOURCES indexing.cu
#              GRADER lab1/a.c ... BASELINES lab1/baselines.cu
#              [LIBRARIES grader_helpers ...])
# builds the student's library (labs/), the reference (solutions/), the
# baselines, and the grader twice: labN_check and labN_check_solution.
# LIBRARIES: grader code shared between labs, linked into both graders.
# In a student copy (make dist-student) solutions/ is absent: then only the
# student's side exists (no labN_solutions, labN_check_solution or
# labN.solution.* tests).
function(add_cuda_lab)
  cmake_parse_arguments(LAB "" "NUMBER;DIR" "SOURCES;GRADER;BASELINES;LIBRARIES" ${ARGN})
  set(lab lab${LAB_NUMBER})
  set(contract_dir ${PROJECT_SOURCE_DIR}/labs/${LAB_DIR})
  set(implementations labs)
  if(IS_DIRECTORY ${PROJECT_SOURCE_DIR}/solutions/${LAB_DIR})
    list(APPEND implementations solutions)
  endif()

  set(baselines "")
  if(LAB_BASELINES)
    add_library(${lab}_baselines STATIC ${LAB_BASELINES})
    target_link_libraries(${lab}_baselines PUBLIC labs_common)
    target_include_directories(${lab}_baselines PUBLIC ${contract_dir})
    cuda_labs_warnings(${lab}_baselines)
    set(baselines ${lab}_baselines)
  endif()

  foreach(impl ${implementations})
    set(sources "")
    foreach(source ${LAB_SOURCES})
      list(APPEND sources ${PROJECT_SOURCE_DIR}/${impl}/${LAB_DIR}/${source})
    endforeach()
    if(impl STREQUAL "labs")
      set(suffix "")
      set(prefix ${lab}.skeleton)
    else()
      set(suffix "_solution")
      set(prefix ${lab}.solution)
    endif()
    add_library(${lab}_${impl} STATIC ${sources})
    target_include_directories(${lab}_${impl} PUBLIC ${contract_dir})
    target_link_libraries(${lab}_${impl} PUBLIC labs_common)
    cuda_labs_warnings(${lab}_${impl})
    # Skeleton stubs leave parameters unused until the TODOs are done.
    target_compile_options(${lab}_${impl} PRIVATE
      $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wno-unused-parameter>)

    set(exe ${lab}_check${suffix})
    add_executable(${exe} ${LAB_GRADER})
    target_link_libraries(${exe} PRIVATE ${lab}_${impl} ${baselines} ${LAB_LIBRARIES}
                          lab_grader_harness)
    target_compile_definitions(${exe} PRIVATE GRADER_IMPLEMENTATION="${impl}")
    cuda_labs_warnings(${exe})
    set_target_properties(${exe} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/bin)

    if(impl STREQUAL "solutions")
      # Every test must pass on the reference (GPU ones skip without a GPU).
      discover_grader_tests(${exe} ${prefix})
    else()
      # The untouched skeleton must fail: its CPU checks everywhere, its GPU
      # checks on a GPU machine. (Once you have filled in the TODOs these two
      # fail, which is expected: use make check-labN for your own work.)
      add_test(NAME ${prefix}.cpu_checks_fail COMMAND ${exe} --group cpu)
      add_test(NAME ${prefix}.gpu_checks_fail COMMAND ${exe} --group gpu)
      set_tests_properties(${prefix}.cpu_checks_fail ${prefix}.gpu_checks_fail PROPERTIES
        WILL_FAIL TRUE SKIP_RETURN_CODE 77 TIMEOUT 1200)
      set_tests_properties(${prefix}.gpu_checks_fail PROPERTIES RESOURCE_LOCK gpu LABELS gpu)
      set_tests_properties(${prefix}.cpu_checks_fail PROPERTIES LABELS cpu)
    endif()
  endforeach()
endfunction()
