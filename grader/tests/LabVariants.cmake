# Known-wrong submissions ("variants"): a reference solution with a few exact
# text edits, graded by its lab's own grader, which must fail it on the named
# test with the expected message. README.md beside this file explains how to
# write one; this file turns one into a library, a grader and ctest tests.

set(VARIANTS_SOURCE_DIR ${CMAKE_CURRENT_LIST_DIR})
# The variants quote the reference solutions, so they live with them.
set(VARIANTS_DATA_DIR ${PROJECT_SOURCE_DIR}/solutions/variants)

# write_if_changed(): grader/cmake/LabTargets.cmake.

# add_lab_variant(lab1/vector_add_no_bounds_test.cmake): includes that file,
# whose one lab_variant(...) call builds and registers the variant; the lab's
# number and the variant's name come from the path.
function(add_lab_variant relative_path)
  if(NOT relative_path MATCHES "^lab([0-9]+)/([A-Za-z0-9_]+)\\.cmake$")
    message(FATAL_ERROR "add_lab_variant(${relative_path}): expected labN/<name>.cmake")
  endif()
  # Read by lab_variant(), which the included file calls.
  set(variant_lab ${CMAKE_MATCH_1})
  set(variant_name ${CMAKE_MATCH_2})
  set(variant_file ${VARIANTS_DATA_DIR}/${relative_path})
  set(variant_defined FALSE)
  if(NOT EXISTS ${variant_file})
    message(FATAL_ERROR "add_lab_variant: ${variant_file} does not exist")
  endif()
  # A variant says what it is in the comment it opens with: the list of
  # variants is made from those comments (make list-variants).
  file(STRINGS ${variant_file} first_line LIMIT_COUNT 1)
  if(NOT first_line MATCHES "^# [^ ]")
    message(FATAL_ERROR "${variant_file} must open with a comment saying what mistake it "
            "makes (its first sentence is what make list-variants prints)")
  endif()
  include(${variant_file})
  if(NOT variant_defined)
    message(FATAL_ERROR "${variant_file} must call lab_variant(...) once")
  endif()
endfunction()

# apply_variant_edits(solutions/<dir>/<file> out_var)
# Sets out_var to the file's text with the edits of the calling
# lab_variant() applied (its variables edits, find_<i>, replace_<i>, who).
# Every FIND must occur exactly once in the solution as it is; the edits
# then apply together, so one edit's REPLACE text never feeds another's
# FIND: positions are sorted and the copy is spliced from left to right.
function(apply_variant_edits original out_var)
  file(READ ${PROJECT_SOURCE_DIR}/${original} text)
  # Reconfigure when the solution changes: the copy must follow it, or the
  # FIND text may have gone stale.
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
    ${PROJECT_SOURCE_DIR}/${original})
  set(positions "")
  foreach(e RANGE 1 ${edits})
    if(NOT DEFINED replace_${e})
      message(FATAL_ERROR "${who}: FIND number ${e} has no REPLACE")
    endif()
    string(LENGTH "${find_${e}}" length_${e})
    if(length_${e} EQUAL 0)
      message(FATAL_ERROR "${who}: FIND number ${e} is empty")
    endif()
    # Occurrences = characters removed / length of the text.
    string(REPLACE "${find_${e}}" "" without "${text}")
    string(LENGTH "${text}" before)
    string(LENGTH "${without}" after)
    math(EXPR count "(${before} - ${after}) / ${length_${e}}")
    if(NOT count EQUAL 1)
      if(count EQUAL 0)
        set(why "The variant has gone stale: the solution changed since it was written. "
                "Update its FIND/REPLACE text to the solution as it is now.")
      else()
        set(why "Make the FIND text longer, so that it names one place.")
      endif()
      message(FATAL_ERROR "${who}: the FIND text of edit ${e} occurs ${count} times in "
              "${original}; it must occur exactly once. ${why} The FIND text:\n${find_${e}}")
    endif()
    string(FIND "${text}" "${find_${e}}" position_${e})
    list(APPEND positions "${position_${e}}:${e}")
  endforeach()
  list(SORT positions COMPARE NATURAL)
  set(mutated "")
  set(done 0) # characters of the original already copied or replaced
  foreach(entry ${positions})
    string(REGEX REPLACE "^[0-9]+:" "" e "${entry}")
    if(position_${e} LESS done)
      message(FATAL_ERROR "${who}: the FIND text of edit ${e} overlaps another edit's")
    endif()
    math(EXPR gap "${position_${e}} - ${done}")
    string(SUBSTRING "${text}" ${done} ${gap} unchanged)
    string(APPEND mutated "${unchanged}${replace_${e}}")
    math(EXPR done "${position_${e}} + ${length_${e}}")
  endforeach()
  string(SUBSTRING "${text}" ${done} -1 rest)
  set(${out_var} "${mutated}${rest}" PARENT_SCOPE)
endfunction()

# write_variant_expectations(path): what each ctest test of the calling
# lab_variant() expects, for register_variant_tests.cmake (after the build)
# and expect_caught.cmake (when the test runs).
function(write_variant_expectations manifest)
  list(LENGTH expected_tests test_count)
  set(content "# Written by lab_variant() from ${variant_file}.\n")
  string(APPEND content "set(VARIANT \"lab${variant_lab} variant ${variant_name}\")\n")
  string(APPEND content "set(VARIANT_FILE \"${variant_file}\")\n")
  string(APPEND content "set(EXPECTED_TESTS ${expected_tests})\n")
  foreach(test ${expected_tests})
    # One test: lab1.variant.<name>; several: lab1.variant.<name>.<test>.
    set(ctest_name lab${variant_lab}.variant.${variant_name})
    if(test_count GREATER 1)
      string(APPEND ctest_name .${test})
    endif()
    if(message_${test} MATCHES "]==]")
      message(FATAL_ERROR "${who}: the MESSAGE of ${test} may not contain ']==]'")
    endif()
    set(args "")
    if(time_limit_${test})
      set(args "--timeout ${time_limit_${test}}")
    endif()
    string(APPEND content
      "set(EXPECT_${test}_CTEST_NAME ${ctest_name})\n"
      "set(EXPECT_${test}_STATUS \"${status_${test}}\")\n"
      "set(EXPECT_${test}_MESSAGE [==[${message_${test}}]==])\n"
      "set(EXPECT_${test}_GRADER_ARGS ${args})\n")
  endforeach()
  write_if_changed(${manifest} "${content}")
endfunction()

# register_variant_ctests(<variant grader target> <expectations file> <dir>):
# the variant's ctest tests, once its grader exists (each test's group comes
# from its --list), named lab<N>.variant.<name>[.<test>].
function(register_variant_ctests variant manifest out_dir)
  set(generated ${out_dir}/ctest_tests.cmake)
  add_custom_command(OUTPUT ${generated}
    COMMAND ${CMAKE_COMMAND} -D EXE=$<TARGET_FILE:${variant}> -D MANIFEST=${manifest}
            -D EXPECT_SCRIPT=${VARIANTS_SOURCE_DIR}/expect_caught.cmake
            -D RESULTS_DIR=${out_dir} -D OUT=${generated}
            -P ${VARIANTS_SOURCE_DIR}/register_variant_tests.cmake
    DEPENDS ${variant} ${manifest} ${VARIANTS_SOURCE_DIR}/register_variant_tests.cmake
    VERBATIM)
  add_custom_target(${variant}_ctest ALL DEPENDS ${generated})
  load_tests_written_after_build(${variant} lab${variant_lab}.variant.${variant_name}
                                 ${generated})
endfunction()

# lab_variant(SOLUTION indexing.cu
#             FIND <exact text> REPLACE <text>  [FIND ... REPLACE ...]...
#             FAILS <grader test> MESSAGE <regex> [STATUS <status>[|<status>...]]
#                                 [TIME_LIMIT <seconds>]
#             [FAILS ... MESSAGE ...]... [PASSES <grader test>]...)
# Called from a variant file. Every keyword takes exactly one value, read one
# argument at a time (ARGV<i>) so that C code with semicolons passes intact.
# MESSAGE, STATUS and TIME_LIMIT belong to the FAILS before them. STATUS:
# fail (the default), crash, timeout, alternatives ("crash|fail") where the
# harness may classify the mistake either way, or gated (passes but earns
# nothing: its gate failed). PASSES: a valid rewrite that must keep the
# test's points, so that a check cannot punish valid code unnoticed.
function(lab_variant)
  set(who "lab${variant_lab} variant '${variant_name}' (${variant_file})")
  if(ARGC EQUAL 0)
    message(FATAL_ERROR "${who}: lab_variant() needs arguments")
  endif()
  set(solution "")
  set(edits 0)
  set(expected_tests "")
  set(current_test "")
  math(EXPR last "${ARGC} - 1")
  foreach(i RANGE 0 ${last} 2)
    math(EXPR v "${i} + 1")
    set(keyword "${ARGV${i}}")
    if(v GREATER last)
      message(FATAL_ERROR "${who}: '${keyword}' needs a value after it")
    endif()
    set(value "${ARGV${v}}")
    if(keyword STREQUAL "SOLUTION")
      set(solution "${value}")
    elseif(keyword STREQUAL "FIND")
      math(EXPR edits "${edits} + 1")
      set(find_${edits} "${value}")
    elseif(keyword STREQUAL "REPLACE")
      if(edits EQUAL 0 OR DEFINED replace_${edits})
        message(FATAL_ERROR "${who}: each REPLACE must follow its own FIND")
      endif()
      set(replace_${edits} "${value}")
    elseif(keyword MATCHES "^(FAILS|PASSES)$")
      if(NOT value MATCHES "^[A-Za-z0-9_]+$" OR value IN_LIST expected_tests)
        message(FATAL_ERROR "${who}: ${keyword} '${value}' is not a test name, or is repeated")
      endif()
      list(APPEND expected_tests ${value})
      set(time_limit_${value} "")
      if(keyword STREQUAL "FAILS")
        set(current_test ${value})
        set(status_${value} fail)
      else() # a positive twin: a valid rewrite that must keep the test's points
        set(current_test "")
        set(status_${value} pass)
        set(message_${value} "")
      endif()
    elseif(keyword MATCHES "^(MESSAGE|STATUS|TIME_LIMIT)$")
      if(NOT current_test)
        message(FATAL_ERROR "${who}: ${keyword} must follow the FAILS it belongs to")
      endif()
      string(TOLOWER ${keyword} slot)
      set(${slot}_${current_test} "${value}")
    else()
      message(FATAL_ERROR "${who}: unknown keyword '${keyword}' (SOLUTION, FIND, REPLACE, "
              "FAILS, MESSAGE, STATUS, TIME_LIMIT)")
    endif()
  endforeach()

  if(NOT solution OR edits EQUAL 0 OR NOT expected_tests)
    message(FATAL_ERROR "${who}: needs SOLUTION, at least one FIND/REPLACE and one FAILS "
            "or PASSES")
  endif()
  foreach(test ${expected_tests})
    if(status_${test} STREQUAL "pass")
      continue()
    endif()
    if(NOT DEFINED message_${test} OR message_${test} STREQUAL "")
      message(FATAL_ERROR "${who}: FAILS ${test} needs a MESSAGE regular expression")
    endif()
    if(NOT status_${test} MATCHES "^(fail|crash|timeout)(\\|(fail|crash|timeout))*$"
       AND NOT status_${test} STREQUAL "gated")
      message(FATAL_ERROR "${who}: STATUS of ${test} must be fail, crash or timeout, or "
              "alternatives such as crash|fail, or gated (passes, earns nothing)")
    endif()
  endforeach()

  # The mutated copy of the solution file, in the build tree.
  get_property(lab_dir GLOBAL PROPERTY CUDA_LAB${variant_lab}_DIR)
  get_property(lab_sources GLOBAL PROPERTY CUDA_LAB${variant_lab}_SOURCES)
  if(NOT solution IN_LIST lab_sources)
    message(FATAL_ERROR "${who}: SOLUTION ${solution} is not a source of lab ${variant_lab} "
            "(${lab_sources})")
  endif()
  set(original solutions/${lab_dir}/${solution})
  apply_variant_edits(${original} mutated)

  set(variant lab${variant_lab}_variant_${variant_name})
  # Its files: the mutated source, what it must fail, ctest's tests, results.
  set(out_dir ${CMAKE_CURRENT_BINARY_DIR}/generated/${variant})
  file(MAKE_DIRECTORY ${out_dir})
  file(RELATIVE_PATH variant_path ${PROJECT_SOURCE_DIR} ${variant_file})
  write_if_changed(${out_dir}/${solution}
    "/* Generated: ${original} with the edits of ${variant_path}. Do not edit. */\n${mutated}")

  # The other sources of the lab (if any) unchanged.
  set(sources "")
  foreach(source ${lab_sources})
    if(source STREQUAL solution)
      list(APPEND sources ${out_dir}/${solution})
    else()
      list(APPEND sources ${PROJECT_SOURCE_DIR}/solutions/${lab_dir}/${source})
    endif()
  endforeach()
  add_lab_implementation(NUMBER ${variant_lab} LIBRARY ${variant}_impl EXECUTABLE ${variant}
                         IMPLEMENTATION variants/${variant_name} SOURCES ${sources})
  # An edit often leaves a helper of the solution unused (host_flow_on_cpu
  # never calls the device flow): not worth a warning in a deliberate mutant.
  target_compile_options(${variant}_impl PRIVATE
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wno-unused-function --diag-suppress=177>)

  set(manifest ${out_dir}/expectations.cmake)
  write_variant_expectations(${manifest})

  register_variant_ctests(${variant} ${manifest} ${out_dir})
  set(variant_defined TRUE PARENT_SCOPE)
endfunction()
