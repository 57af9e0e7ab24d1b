# cmake -D DEMO=path/to/gpu_share_demo -D WORK=folder -P check_gpu_share_demo.cmake
# The rules of gpu_share.h: a test that failed or measured time while the
# GPU was shared is run again alone; a test that claims the GPU waits for
# every other holder (its time limit does not count the wait) and can give
# it back; a grader told to share but unable to open the lock does not run.
file(MAKE_DIRECTORY ${WORK})
set(lock ${WORK}/gpu-share)
file(WRITE ${lock}/gate "")
file(WRITE ${lock}/gpu "")

function(json_test json index out_status out_notes)
  string(JSON status GET "${json}" tests ${index} status)
  string(JSON notes GET "${json}" tests ${index} notes)
  set(${out_status} ${status} PARENT_SCOPE)
  set(${out_notes} "${notes}" PARENT_SCOPE)
endfunction()

# Alone (a student's make check): nothing is run twice.
execute_process(COMMAND ${DEMO} --results ${WORK}/alone.json OUTPUT_QUIET RESULT_VARIABLE code)
file(READ ${WORK}/alone.json json)
json_test("${json}" 0 status notes)
if(NOT code EQUAL 1 OR NOT status STREQUAL "fail" OR notes MATCHES "run again")
  message(FATAL_ERROR "without GRADER_GPU_SHARE: exit ${code}, fails_unless_alone ${status} '${notes}'")
endif()

# Shared: the same suite passes, with the second runs said.
execute_process(COMMAND ${CMAKE_COMMAND} -E env GRADER_GPU_SHARE=${lock}
                ${DEMO} --results ${WORK}/shared.json OUTPUT_VARIABLE out RESULT_VARIABLE code)
file(READ ${WORK}/shared.json json)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "shared: exit ${code}\n${out}")
endif()
foreach(case "0;run again with the GPU to itself: it had failed"
             "1;run again with the GPU to itself: it had measured time"
             "2;^$" "3;^$" "4;^$"
             "5;run again with the GPU to itself: it had failed")
  list(GET case 0 index)
  list(GET case 1 want)
  json_test("${json}" ${index} status notes)
  if(NOT status STREQUAL "pass" OR NOT notes MATCHES "${want}")
    message(FATAL_ERROR "shared, test ${index}: ${status}, notes '${notes}', wanted '${want}'")
  endif()
endforeach()

string(JSON alone GET "${json}" tests 4 gpu_alone_s)
if(alone LESS 0.09 OR alone GREATER 1)
  message(FATAL_ERROR "gives_the_gpu_back held the GPU alone for ${alone} s, not about 0.1 s")
endif()

# Two graders at once: the claim waits for the other's shared hold.
execute_process(
  COMMAND ${CMAKE_COMMAND} -E env GRADER_GPU_SHARE=${lock} ${DEMO} --only holds_gpu_shared
  COMMAND ${CMAKE_COMMAND} -E env GRADER_GPU_SHARE=${lock}
          ${DEMO} --only waits_for_gpu --timeout 2 --results ${WORK}/waits.json
  OUTPUT_QUIET ERROR_QUIET)
file(READ ${WORK}/waits.json json)
json_test("${json}" 0 status notes)
string(JSON waited ERROR_VARIABLE missing GET "${json}" tests 0 metrics waited_s value)
if(NOT status STREQUAL "pass" OR missing OR waited LESS 1.5)
  message(FATAL_ERROR "the claim did not wait for the other grader, or its wait counted "
                      "against its limit: ${status}, waited ${waited} s\n${json}")
endif()

# A lock that cannot be opened: no grading at all.
execute_process(COMMAND ${CMAKE_COMMAND} -E env GRADER_GPU_SHARE=${WORK}/missing
                ${DEMO} RESULT_VARIABLE code OUTPUT_QUIET ERROR_VARIABLE err)
if(NOT code EQUAL 2 OR NOT err MATCHES "cannot be opened")
  message(FATAL_ERROR "an unopenable lock: exit ${code}, '${err}'")
endif()
