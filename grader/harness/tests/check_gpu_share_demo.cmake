# cmake -D DEMO=path/to/gpu_share_demo -D WORK=folder -P check_gpu_share_demo.cmake
# The rules of gpu_share.h: a test that failed or measured time while the
# GPU was shared is run again alone; a test that claims the GPU waits for
# every other holder (its time limit does not count the wait) and can give
# it back; one grader runs several tests at once only under the lock
# (--jobs); a grader told to share but unable to open the lock does not run.
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

# Shared: the same suite passes, with the second runs said; the same with
# three tests at a time (--jobs 3).
foreach(jobs 1 3)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env GRADER_GPU_SHARE=${lock}
                  ${DEMO} --jobs ${jobs} --results ${WORK}/shared-${jobs}.json
                  OUTPUT_VARIABLE out RESULT_VARIABLE code)
  file(READ ${WORK}/shared-${jobs}.json json)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "shared, --jobs ${jobs}: exit ${code}\n${out}")
  endif()
  foreach(case "0;run again with the GPU to itself: it had failed"
               "1;run again with the GPU to itself: it had measured time"
               "2;^$" "3;^$" "4;^$"
               "5;run again with the GPU to itself: it had failed")
    list(GET case 0 index)
    list(GET case 1 want)
    json_test("${json}" ${index} status notes)
    if(NOT status STREQUAL "pass" OR NOT notes MATCHES "${want}")
      message(FATAL_ERROR "shared, --jobs ${jobs}, test ${index}: ${status}, notes '${notes}', "
                          "wanted '${want}'")
    endif()
  endforeach()
endforeach()

file(READ ${WORK}/shared-1.json json)
string(JSON alone GET "${json}" tests 4 gpu_alone_s)
if(alone LESS 0.09 OR alone GREATER 1)
  message(FATAL_ERROR "gives_the_gpu_back held the GPU alone for ${alone} s, not about 0.1 s")
endif()
# When each test first held the GPU alone (alone_from_s): a second run from
# its start, a claim within its run. Null without the lock (alone.json).
foreach(case "0;start" "1;start" "2;within" "3;within" "4;within" "5;start")
  list(GET case 0 index)
  list(GET case 1 want)
  string(JSON name GET "${json}" tests ${index} name)
  string(JSON started GET "${json}" tests ${index} started_s)
  string(JSON ended GET "${json}" tests ${index} ended_s)
  string(JSON alone_type TYPE "${json}" tests ${index} alone_from_s)
  string(JSON alone_from GET "${json}" tests ${index} alone_from_s)
  if(NOT alone_type STREQUAL "NUMBER" OR alone_from LESS started OR alone_from GREATER ended
     OR (want STREQUAL "start" AND NOT alone_from STREQUAL started))
    message(FATAL_ERROR "${name}: alone from ${alone_from} s, run from ${started} to ${ended} "
                        "s; expected alone from its ${want}")
  endif()
endforeach()
file(READ ${WORK}/alone.json json)
string(JSON alone_type TYPE "${json}" tests 2 alone_from_s)
if(NOT alone_type STREQUAL "NULL")
  message(FATAL_ERROR "without GRADER_GPU_SHARE claims_then_times has alone_from_s ${alone_type}")
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
# The wait shows on the timeline: alone only after it (the child's clock and
# the runner's are one).
string(JSON started GET "${json}" tests 0 started_s)
string(JSON alone_from GET "${json}" tests 0 alone_from_s)
string(JSON gpu_wait GET "${json}" tests 0 gpu_wait_s)
if(NOT alone_from GREATER started OR gpu_wait LESS 1.5)
  message(FATAL_ERROR "waits_for_gpu: started ${started} s, alone from ${alone_from} s, "
                      "gpu_wait_s ${gpu_wait}")
endif()

# --jobs 2 in one grader: two tests run side by side (each waits for the
# other's mark), and a claim waits for the grader's own other test. One at a
# time, the pair cannot meet.
file(REMOVE ${lock}/a.mark ${lock}/b.mark)
execute_process(COMMAND ${CMAKE_COMMAND} -E env GRADER_GPU_SHARE=${lock}
                ${DEMO} --group selftest --jobs 2 --results ${WORK}/jobs.json
                OUTPUT_VARIABLE out RESULT_VARIABLE code)
file(READ ${WORK}/jobs.json json)
string(JSON waited ERROR_VARIABLE missing GET "${json}" tests 1 metrics waited_s value)
if(NOT code EQUAL 0 OR missing OR waited LESS 1.5)
  message(FATAL_ERROR "--jobs 2: exit ${code}, the claim waited ${waited} s\n${out}")
endif()
file(REMOVE ${lock}/a.mark ${lock}/b.mark)
execute_process(COMMAND ${CMAKE_COMMAND} -E env GRADER_GPU_SHARE=${lock}
                ${DEMO} --only side_by_side_a RESULT_VARIABLE code OUTPUT_QUIET)
if(NOT code EQUAL 1)
  message(FATAL_ERROR "side_by_side_a alone: exit ${code}, expected 1 (it cannot meet b)")
endif()
# Without the lock, tests never run side by side.
execute_process(COMMAND ${DEMO} --jobs 2 RESULT_VARIABLE code OUTPUT_QUIET ERROR_VARIABLE err)
if(NOT code EQUAL 2 OR NOT err MATCHES "GRADER_GPU_SHARE")
  message(FATAL_ERROR "--jobs 2 without GRADER_GPU_SHARE: exit ${code}, '${err}'")
endif()

# A lock that cannot be opened: no grading at all.
execute_process(COMMAND ${CMAKE_COMMAND} -E env GRADER_GPU_SHARE=${WORK}/missing
                ${DEMO} RESULT_VARIABLE code OUTPUT_QUIET ERROR_VARIABLE err)
if(NOT code EQUAL 2 OR NOT err MATCHES "cannot be opened")
  message(FATAL_ERROR "an unopenable lock: exit ${code}, '${err}'")
endif()
