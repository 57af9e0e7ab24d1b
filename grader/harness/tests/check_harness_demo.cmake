# cmake -D DEMO=path/to/harness_demo -D RESULTS=path.json -P check_harness_demo.cmake
# The harness must turn each deliberate outcome into the right status, still
# run every test, score only the pass, and exit 1.
execute_process(COMMAND ${DEMO} --group cpu --group gpu --results ${RESULTS}
                RESULT_VARIABLE code
                OUTPUT_VARIABLE output ERROR_VARIABLE errors)
if(NOT code EQUAL 1)
  message(FATAL_ERROR "harness_demo exited ${code}, expected 1\n${output}\n${errors}")
endif()
file(READ ${RESULTS} json)
set(expected passes=pass fails=fail crashes=crash hangs=timeout exits_early=fail exits_zero=fail
    skips=skip gated_by_failure=pass bonus_passes=pass)
# The GPU tests misbehave for real only where there is a GPU.
string(JSON device GET "${json}" device)
if(device MATCHES "^no CUDA device")
  list(APPEND expected gpu_kernel_hangs=skip gpu_kernel_faults=skip gpu_works_after_fault=skip)
else()
  list(APPEND expected gpu_kernel_hangs=timeout gpu_kernel_faults=fail gpu_works_after_fault=pass)
  # The watchdog (2 s) must stop the hung kernel long before the test's
  # own limit, and name the call.
  string(JSON hang_message GET "${json}" tests 9 message)
  string(JSON hang_seconds GET "${json}" tests 9 seconds)
  if(NOT hang_message MATCHES "hung: demo_launch_hang\\(\\) did not finish within 2.0 s"
     OR hang_seconds GREATER 10)
    message(FATAL_ERROR "the hung kernel was not stopped by its watchdog: '${hang_message}' "
                        "after ${hang_seconds} s")
  endif()
  string(JSON fault GET "${json}" tests 10 message)
  if(NOT fault MATCHES "cudaErrorIllegalAddress|illegal")
    message(FATAL_ERROR "the kernel fault was not named: '${fault}'")
  endif()
endif()
list(APPEND expected one_hardware_queue=pass prints_non_ascii=fail prints_long_lines=fail
     cmocka_assert_fails=fail)
string(JSON count LENGTH "${json}" tests)
list(LENGTH expected want_count)
if(NOT count EQUAL want_count)
  message(FATAL_ERROR "results list ${count} tests, expected ${want_count}")
endif()
math(EXPR last "${count} - 1")
foreach(i RANGE ${last})
  string(JSON name GET "${json}" tests ${i} name)
  string(JSON status GET "${json}" tests ${i} status)
  list(GET expected ${i} pair)
  if(NOT pair STREQUAL "${name}=${status}")
    message(FATAL_ERROR "test ${i}: got ${name}=${status}, expected ${pair}")
  endif()
endforeach()
# Where the time went (schema 5): the runner's start as Unix time, and each
# test's fork and reap in seconds after it. One test at a time, so each
# starts after the one before it ended; none held a shared GPU alone (there
# is no GRADER_GPU_SHARE here), so alone_from_s is null.
string(JSON schema GET "${json}" schema)
string(JSON started_at GET "${json}" started_at)
if(NOT schema STREQUAL "cuda-labs-results/5" OR NOT started_at GREATER 1500000000)
  message(FATAL_ERROR "schema '${schema}', started_at '${started_at}' (expected "
                      "cuda-labs-results/5 and a Unix time)")
endif()
set(previous_end 0)
foreach(i RANGE ${last})
  string(JSON name GET "${json}" tests ${i} name)
  string(JSON started_type ERROR_VARIABLE missing TYPE "${json}" tests ${i} started_s)
  string(JSON started GET "${json}" tests ${i} started_s)
  string(JSON ended GET "${json}" tests ${i} ended_s)
  string(JSON alone_type TYPE "${json}" tests ${i} alone_from_s)
  if(missing OR NOT started_type STREQUAL "NUMBER" OR started LESS previous_end
     OR NOT ended GREATER_EQUAL started OR NOT alone_type STREQUAL "NULL")
    message(FATAL_ERROR "${name}: started_s ${started}, ended_s ${ended} (the one before ended "
                        "at ${previous_end}), alone_from_s ${alone_type} (expected NULL)")
  endif()
  set(previous_end ${ended})
endforeach()
string(JSON message GET "${json}" tests 1 message)
if(NOT message MATCHES "arithmetic is broken: 2")
  message(FATAL_ERROR "the failure message was not recorded: '${message}'")
endif()
# A skip is recorded with its reason, keeps what the test printed before it,
# and earns nothing (the score lines below: its 6 points are not graded).
string(JSON message GET "${json}" tests 6 message)
string(JSON skip_output GET "${json}" tests 6 output)
string(JSON skip_points GET "${json}" tests 6 points)
if(NOT message STREQUAL "skipped by the test" OR NOT skip_output STREQUAL "printed before skip()\n"
   OR NOT skip_points EQUAL 0)
  message(FATAL_ERROR "the skip was recorded as '${message}', ${skip_points} points, output "
                      "'${skip_output}'")
endif()
# Why a test was skipped, for programs: skip() is the test's own reason, a
# GPU test without a device "no_gpu" (what the console's "(no GPU)" and its
# "SKIPPED for lack of a CUDA device" count, and the batch's "not graded:
# no GPU", go by); a test that was not skipped has none.
string(JSON skip_reason GET "${json}" tests 6 skip_reason)
string(JSON pass_reason TYPE "${json}" tests 0 skip_reason)
if(NOT skip_reason STREQUAL "by_test" OR NOT pass_reason STREQUAL "NULL")
  message(FATAL_ERROR "skip_reason: '${skip_reason}' for skip() (expected by_test), "
                      "${pass_reason} for a pass (expected NULL)")
endif()
if(device MATCHES "^no CUDA device")
  foreach(i 9 10 11)
    string(JSON name GET "${json}" tests ${i} name)
    string(JSON skip_reason GET "${json}" tests ${i} skip_reason)
    if(NOT skip_reason STREQUAL "no_gpu")
      message(FATAL_ERROR "${name} skipped without a device: skip_reason '${skip_reason}'")
    endif()
  endforeach()
  if(NOT output MATCHES "gpu_kernel_hangs [^\n]*\\(no GPU\\)\n"
     OR NOT output MATCHES "3 GPU checks were SKIPPED for lack of a CUDA device"
     OR output MATCHES " skips [^\n]*\\(no GPU\\)")
    message(FATAL_ERROR "the console does not tell the skips without a GPU from skip():\n"
                        "${output}")
  endif()
endif()
# Every byte a test printed is kept, as it was printed: a line that starts
# with '[' (not CMocka's framing), a line of 3232 bytes, whole, and the rest
# of a line after a NUL byte (which is kept as U+FFFD).
string(REPEAT "[]" 1600 brackets)
string(CONCAT want "[my debug] a line of the test's own that starts with a bracket\n"
                   "long line: ${brackets}<end of the long line>\n"
                   "a NUL byte: �, and what follows it\n")
string(JSON long_output GET "${json}" tests 14 output)
string(JSON message GET "${json}" tests 14 message)
if(NOT long_output STREQUAL want OR NOT message STREQUAL "fails on purpose, to keep its output")
  string(LENGTH "${want}" want_length)
  string(LENGTH "${long_output}" got_length)
  message(FATAL_ERROR "prints_long_lines: message '${message}', output of ${got_length} bytes "
                      "(expected ${want_length}):\n${long_output}")
endif()
string(JSON assert_output GET "${json}" tests 15 output)
string(JSON assert_message GET "${json}" tests 15 message)
if(NOT assert_output STREQUAL "printed before the assertion\n"
   OR NOT assert_message MATCHES "^a CMocka assertion")
  message(FATAL_ERROR "a CMocka assertion's test kept '${assert_output}', message "
                      "'${assert_message}'")
endif()
# CMocka's framing never reaches a test's output, however the test ended:
# the test program sends it to /dev/null (harness_child.c).
foreach(i RANGE ${last})
  string(JSON name GET "${json}" tests ${i} name)
  string(JSON test_output GET "${json}" tests ${i} output)
  foreach(frame "[ RUN" "[  FAILED" "[       OK" "[  SKIPPED" "[  PASSED" "[  ERROR" "[   LINE"
                "[==========]" "FAILED TEST" "SKIPPED TEST")
    string(FIND "${test_output}" "${frame}" at)
    if(NOT at EQUAL -1)
      message(FATAL_ERROR "CMocka's '${frame}' is in ${name}'s output:\n${test_output}")
    endif()
  endforeach()
endforeach()
foreach(i 4 5)
  string(JSON message GET "${json}" tests ${i} message)
  if(NOT message MATCHES "your code ended the process")
    message(FATAL_ERROR "test ${i}: an early exit was not named: '${message}'")
  endif()
endforeach()
string(JSON gated GET "${json}" tests 7 gated_by)
string(JSON gated_points GET "${json}" tests 7 points)
if(NOT gated STREQUAL "fails" OR NOT gated_points EQUAL 0)
  message(FATAL_ERROR "a passing test whose gate failed earned ${gated_points} (gated_by '${gated}')")
endif()
string(JSON bonus_earned GET "${json}" score bonus_earned)
string(JSON possible GET "${json}" score possible)
if(NOT bonus_earned EQUAL 2 OR NOT possible EQUAL 61)
  message(FATAL_ERROR "bonus ${bonus_earned} (expected 2) / possible ${possible} (expected 61: "
                      "bonus points are not in it)")
endif()
string(JSON message GET "${json}" tests 2 message)
if(NOT message MATCHES "signal 11")
  message(FATAL_ERROR "the crash was not described: '${message}'")
endif()
string(JSON earned GET "${json}" score earned)
string(JSON answer GET "${json}" tests 0 metrics answer value)
if(NOT device MATCHES "^no CUDA device")
  math(EXPR earned "${earned} - 9") # gpu_works_after_fault's points
endif()
if(NOT earned EQUAL 1 OR NOT answer EQUAL 42)
  message(FATAL_ERROR "score ${earned} (expected 1) or metric ${answer} (expected 42) wrong")
endif()
# The score line: one notation whether GPU checks were skipped (no device)
# or left out (--group cpu); the skipped CPU test's 6 points are not graded.
set(cpu_part "Score CPU 1/31 \\(6 points not graded\\), ")
if(device MATCHES "^no CUDA device")
  set(want_line "${cpu_part}GPU not graded \\(24 points\\) \\(\\+2/2 bonus\\)\n")
else()
  set(want_line "${cpu_part}GPU 9/24 \\(\\+2/2 bonus\\)\n")
endif()
if(NOT output MATCHES "${want_line}")
  message(FATAL_ERROR "the score line is not '${want_line}':\n${output}")
endif()
execute_process(COMMAND ${DEMO} --group cpu RESULT_VARIABLE code OUTPUT_VARIABLE output
                ERROR_VARIABLE errors)
set(want_line "${cpu_part}GPU not graded \\(24 points\\) \\(\\+2/2 bonus\\)\n")
if(NOT code EQUAL 1 OR NOT output MATCHES "${want_line}")
  message(FATAL_ERROR "harness_demo --group cpu exited ${code} (expected 1) or its score line "
                      "is not '${want_line}':\n${output}\n${errors}")
endif()
message(STATUS "harness classified pass/fail/crash/timeout/exit/skip correctly")
