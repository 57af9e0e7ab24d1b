# Building labs and graders, and registering their tests with ctest.

# Warnings for project code (C and the host side of CUDA).
function(cuda_labs_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:C>:-Wall -Wextra -Wshadow -Wstrict-prototypes>
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra --Wreorder>)
endfunction()

set(GRADER_LIST_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/ListGraderTests.cmake)
set(GRADER_SYMBOLS_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/WriteStudentSymbols.cmake)
set(GRADER_RESOURCES_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/WriteKernelResources.cmake)
# The architecture the static checks read the kernels' resources for
# (WriteKernelResources.cmake): the course's reference GPU, whatever
# CMAKE_CUDA_ARCHITECTURES, so that a student's points do not depend on the
# machine that graded them. Cached: the batch grader reads it (grader/batch/course.py).
set(GRADER_RESOURCES_ARCH 90 CACHE INTERNAL "sm_XX of the static checks' ptxas report")
find_program(GRADER_CXXFILT NAMES cu++filt c++filt HINTS ${CUDAToolkit_BIN_DIR})
# grader/: lab N's grader folder is ${GRADER_SOURCE_DIR}/labN, whichever
# folder calls add_lab_program.
get_filename_component(GRADER_SOURCE_DIR ${CMAKE_CURRENT_LIST_DIR}/.. ABSOLUTE)

# Makes ctest load `generated` (written after `exe` is built) when it runs;
# until then it lists one failing test, ${prefix}.NOT_BUILT, so a grader
# that never got built cannot look like a clean run.
function(load_tests_written_after_build exe prefix generated)
  set(loader ${CMAKE_CURRENT_BINARY_DIR}/${exe}_include.cmake)
  file(WRITE ${loader}
    "if(EXISTS \"${generated}\")\n"
    "  include(\"${generated}\")\n"
    "else()\n"
    "  add_test(${prefix}.NOT_BUILT ${CMAKE_COMMAND} -E echo \"${exe} was not built\")\n"
    "  set_tests_properties(${prefix}.NOT_BUILT PROPERTIES WILL_FAIL TRUE)\n"
    "endif()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${loader})
endfunction()

# After each build, ask the grader for its test list (--list) and turn every
# test into a ctest test, so ctest counts and reports them one by one and the
# list is written only once (in the grader's C table).
function(discover_grader_tests exe prefix)
  set(generated ${CMAKE_CURRENT_BINARY_DIR}/${exe}_tests.cmake)
  add_custom_command(TARGET ${exe} POST_BUILD
    COMMAND ${CMAKE_COMMAND} -D EXE=$<TARGET_FILE:${exe}> -D PREFIX=${prefix}
            -D OUT=${generated} -P ${GRADER_LIST_SCRIPT}
    VERBATIM)
  load_tests_written_after_build(${exe} ${prefix} ${generated})
endfunction()

# A CMocka unit-test program that runs on the harness (one process per test).
function(add_cpu_test_suite exe)
  add_executable(${exe} ${ARGN})
  target_link_libraries(${exe} PRIVATE lab_grader_harness)
  target_compile_definitions(${exe} PRIVATE GRADER_IMPLEMENTATION="self-test")
  cuda_labs_warnings(${exe})
  discover_grader_tests(${exe} ${exe})
endfunction()

# Lab N's recipe, as add_cuda_lab keeps it in the global properties
# CUDA_LAB<N>_*, read into variables of the caller: contract_dir, grader,
# libraries, race_runner, race_from_table, helpers, calls, cpu_checks and
# kernel_resources.
macro(read_lab_recipe number)
  foreach(pair contract_dir=CONTRACT_DIR grader=GRADER libraries=GRADER_LIBRARIES
          race_runner=RACE_RUNNER race_from_table=RACE_FROM_TABLE helpers=HELPERS
          calls=CALLS cpu_checks=CPU_CHECKS kernel_resources=KERNEL_RESOURCES)
    string(REPLACE "=" ";" pair "${pair}")
    list(GET pair 0 variable)
    list(GET pair 1 property)
    get_property(${variable} GLOBAL PROPERTY CUDA_LAB${number}_${property})
  endforeach()
endmacro()

# add_lab_grader_objects(N) compiles lab N's grader sources once, as OBJECT
# libraries that every implementation (skeleton, solution, each known-wrong
# variant) links: what differs between them is run-time data
# (add_lab_implementation), so a variant costs only its own source. The objects:
#   labN_grader_tests_objects   the checks (GRADER_TESTS) and the recording
#                               helpers (labN_calls.c): the test program's
#   labN_grader_runner_objects  the test table (GRADER_RUNNER), with the CPU
#                               checks and the replaying helpers where the
#                               header declares helpers: the runner's
#   labN_race_runner_objects    the race runner's, where the lab has one
# They are compiled against the contract (labs/labN_*/labN.h, one header for
# every implementation) and the grader's libraries' headers.
function(add_lab_grader_objects number)
  read_lab_recipe(${number})
  set(lab lab${number})

  if(helpers)
    # labN_calls.c, the recorded helper calls (harness/runner/call_log.h),
    # generated from the header into the build folder; the generator checks
    # that its wrappers are the helpers add_cuda_lab wraps. One target
    # makes it, so the two object libraries never write it at once.
    add_custom_command(OUTPUT ${calls}
      COMMAND ${COURSE_PYTHON} ${GRADER_SOURCE_DIR}/tools/gen_calls.py
              ${contract_dir}/${lab}.h ${calls} ${helpers}
      DEPENDS ${contract_dir}/${lab}.h ${GRADER_SOURCE_DIR}/tools/gen_calls.py
      COMMENT "Writing ${lab}_calls.c from ${lab}.h (grader/tools/gen_calls.py)" VERBATIM)
    add_custom_target(${lab}_calls DEPENDS ${calls})
  endif()

  # The include path the programs had when each compiled these sources
  # itself: the contract first (as the student's library gives it), then
  # the grader's libraries and the harness. Linking an OBJECT library only
  # takes the libraries' usage requirements; the programs link them.
  set(tests ${lab}_grader_tests_objects)
  add_library(${tests} OBJECT ${grader} ${calls})
  target_include_directories(${tests} PRIVATE ${contract_dir})
  target_link_libraries(${tests} PRIVATE labs_common ${libraries} lab_grader_harness)
  target_compile_definitions(${tests} PRIVATE GRADER_TESTS)
  cuda_labs_warnings(${tests})
  if(helpers)
    add_dependencies(${tests} ${lab}_calls)
  endif()

  set(runner ${lab}_grader_runner_objects)
  set(table ${grader})
  list(FILTER table INCLUDE REGEX "_grader\\.c$")
  add_library(${runner} OBJECT ${table})
  if(calls)
    # The CPU checks, against the replaying helpers: the runner judges them.
    target_sources(${runner} PRIVATE ${cpu_checks} ${calls})
    target_compile_definitions(${runner} PRIVATE GRADER_RUNNER_HAS_CPU_CHECKS)
    add_dependencies(${runner} ${lab}_calls)
    # A file may hold GPU tests beside its CPU ones: the runner's table names
    # no GPU test function, so the linker drops them (--gc-sections, on the
    # runner's link), and with them their calls into the student's entry
    # points, which the runner must not have.
    target_compile_options(${runner} PRIVATE -ffunction-sections -fdata-sections)
  endif()
  # The table's headers, not the code behind them: the libraries' include
  # directories only, and the harness, which the runner links.
  target_include_directories(${runner} PRIVATE ${contract_dir})
  foreach(lib labs_common ${libraries})
    target_include_directories(${runner} PRIVATE
      $<TARGET_PROPERTY:${lib},INTERFACE_INCLUDE_DIRECTORIES>)
  endforeach()
  target_link_libraries(${runner} PRIVATE lab_grader_runner lab_grader_cpu_checks)
  target_compile_definitions(${runner} PRIVATE GRADER_RUNNER)
  cuda_labs_warnings(${runner})

  if(race_runner)
    set(race ${lab}_race_runner_objects)
    add_library(${race} OBJECT ${race_runner})
    # In the order each race runner had its include path when it compiled
    # these itself: the lab's grader folder (the table's header) first.
    if(race_from_table)
      # The kernel driver with race as its default mode (add_cuda_lab's
      # KERNEL_TABLE ... RACE_FROM_TABLE): the race check passes no mode.
      target_compile_definitions(${race} PRIVATE KERNEL_DRIVER_MODE="race")
      target_include_directories(${race} PRIVATE ${GRADER_SOURCE_DIR}/${lab})
    endif()
    target_include_directories(${race} PRIVATE ${contract_dir})
    target_link_libraries(${race} PRIVATE labs_common ${libraries} lab_grader_support)
    if(race_from_table)
      target_link_libraries(${race} PRIVATE lab_time_kernels)
    endif()
    cuda_labs_warnings(${race})
  endif()
endfunction()

# Writes `content` to `path` only when it differs, so that a reconfigure
# does not touch the file's time stamp (and rebuild what depends on it).
function(write_if_changed path content)
  file(WRITE ${path}.new "${content}")
  file(COPY_FILE ${path}.new ${path} ONLY_IF_DIFFERENT)
  file(REMOVE ${path}.new)
endfunction()

# A student's library: `sources` against the student contract (common/) and
# the lab's header in `contract_dir` only. A student's file can include
# nothing of the graders' (grader/support/ is not on its include path), and
# the batch grader replays these compile commands as they are.
function(add_student_library name contract_dir)
  add_library(${name} STATIC ${ARGN})
  target_include_directories(${name} PUBLIC ${contract_dir})
  target_link_libraries(${name} PUBLIC labs_common)
  cuda_labs_warnings(${name})
  # Skeleton stubs leave parameters unused until the TODOs are done.
  target_compile_options(${name} PRIVATE
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wno-unused-parameter>)
endfunction()

# bin/<runner>.args: the arguments make sanitize-labN gives the race runner,
# one a line (grader/tools/sanitize.sh reads them so).
function(write_race_runner_args runner)
  list(TRANSFORM ARGN APPEND "\n" OUTPUT_VARIABLE lines)
  string(CONCAT lines "" ${lines})
  file(MAKE_DIRECTORY ${PROJECT_BINARY_DIR}/bin)
  write_if_changed(${PROJECT_BINARY_DIR}/bin/${runner}.args "${lines}")
endfunction()

# The untouched skeleton must fail: its CPU checks everywhere, its GPU
# checks on a GPU machine. (Once you have filled in the TODOs these two
# fail, which is expected: use make check-labN for your own work.)
function(add_skeleton_fails_tests prefix exe)
  add_test(NAME ${prefix}.cpu_checks_fail COMMAND ${exe} --group cpu)
  add_test(NAME ${prefix}.gpu_checks_fail COMMAND ${exe} --group gpu)
  set_tests_properties(${prefix}.cpu_checks_fail ${prefix}.gpu_checks_fail PROPERTIES
    WILL_FAIL TRUE SKIP_RETURN_CODE 77 TIMEOUT 1200)
  set_tests_properties(${prefix}.gpu_checks_fail PROPERTIES RESOURCE_LOCK gpu LABELS gpu)
  set_tests_properties(${prefix}.cpu_checks_fail PROPERTIES LABELS cpu)
endfunction()

# A C string literal of `text` (backslashes and quotes escaped).
function(c_string_literal text out_var)
  string(REPLACE "\\" "\\\\" text "${text}")
  string(REPLACE "\"" "\\\"" text "${text}")
  set(${out_var} "\"${text}\"" PARENT_SCOPE)
endfunction()

# kernel_resources_command(out_var sources contract_dir out [KEEP_CUBIN]): in
# out_var, the COMMAND that writes `out`, ptxas's report on the kernels of
# `sources` compiled for sm_${GRADER_RESOURCES_ARCH} (WriteKernelResources.cmake);
# KEEP_CUBIN keeps their machine code beside it.
function(kernel_resources_command out_var sources contract_dir out)
  string(REPLACE ";" "|" sources "${sources}")
  set(keep "")
  if("KEEP_CUBIN" IN_LIST ARGN)
    set(keep -D KEEP_CUBIN=ON)
  endif()
  set(${out_var} COMMAND ${CMAKE_COMMAND} ${keep} -D NVCC=${CMAKE_CUDA_COMPILER}
      -D CXXFILT=${GRADER_CXXFILT} -D ARCH=${GRADER_RESOURCES_ARCH} -D SOURCES=${sources}
      "-DINCLUDES=${contract_dir}|$<JOIN:$<TARGET_PROPERTY:labs_common,INTERFACE_INCLUDE_DIRECTORIES>,|>"
      -D OUT=${out} -P ${GRADER_RESOURCES_SCRIPT} PARENT_SCOPE)
endfunction()

# make resources-labN and sass-labN (`target`): the same report for every
# lab, on demand, into results/ (`out`), with the machine code it was read from.
function(add_kernel_resources_target target sources contract_dir out)
  kernel_resources_command(write "${sources}" ${contract_dir} ${out} KEEP_CUBIN)
  add_custom_target(${target}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/results ${write}
    DEPENDS ${sources} VERBATIM)
endfunction()

# add_lab_implementation(NUMBER 1 LIBRARY lib EXECUTABLE exe IMPLEMENTATION label
#                        SOURCES /abs/a.cu ...)
# builds one implementation of lab N's contract as the static library `lib`,
# and lab N's grader linked against it as `exe`, which reports `label`.
# add_cuda_lab(NUMBER N) must come first: it records the recipe and compiles
# the grader's sources once; here they are only linked, with a generated
# exe_names.c (the label and the programs' file names, harness.h).
# A lab with a race runner gets one per implementation, RACE_RUNNER_NAME
# (default <exe>_racecheck), next to the grader, which runs it under
# compute-sanitizer by its name, grader_race_runner (harness/racecheck.h).
function(add_lab_implementation)
  cmake_parse_arguments(IMPL "" "NUMBER;LIBRARY;EXECUTABLE;IMPLEMENTATION;RACE_RUNNER_NAME;OUTPUT_DIRECTORY"
                        "SOURCES" ${ARGN})
  set(lab lab${IMPL_NUMBER})
  read_lab_recipe(${IMPL_NUMBER})
  if(NOT contract_dir)
    message(FATAL_ERROR "add_lab_implementation: lab ${IMPL_NUMBER} is unknown "
            "(add_cuda_lab(NUMBER ${IMPL_NUMBER} ...) must come first)")
  endif()

  add_student_library(${IMPL_LIBRARY} ${contract_dir} ${IMPL_SOURCES})

  set(tests_program ${IMPL_EXECUTABLE}_tests)
  if(race_runner AND NOT IMPL_RACE_RUNNER_NAME)
    set(IMPL_RACE_RUNNER_NAME ${IMPL_EXECUTABLE}_racecheck)
  endif()

  # This implementation's names, as data (harness.h, racecheck.h): one
  # object that both programs link.
  set(names ${IMPL_EXECUTABLE}_names)
  c_string_literal("${IMPL_IMPLEMENTATION}" implementation)
  c_string_literal("${tests_program}" tests_name)
  string(CONCAT content "/* Generated by add_lab_implementation (grader/cmake/LabTargets.cmake): the\n"
              " * names of ${IMPL_EXECUTABLE}, which grades lab ${IMPL_NUMBER}'s implementation\n"
              " * ${IMPL_IMPLEMENTATION} (harness.h, grader_implementation). Do not edit. */\n"
              "const char grader_implementation[] = ${implementation};\n"
              "const char grader_tests_program[] = ${tests_name};\n")
  if(race_runner)
    c_string_literal("${IMPL_RACE_RUNNER_NAME}" race_name)
    string(APPEND content "const char grader_race_runner[] = ${race_name};\n")
  endif()
  write_if_changed(${CMAKE_CURRENT_BINARY_DIR}/${names}.c "${content}")
  add_library(${names} OBJECT ${CMAKE_CURRENT_BINARY_DIR}/${names}.c)
  cuda_labs_warnings(${names})

  # Two programs (harness.h): the test program, the checks linked with the
  # student's library, and the runner, built from the test table alone, which
  # executes the test program once per test and holds no student code.
  add_executable(${tests_program} $<TARGET_OBJECTS:${lab}_grader_tests_objects>
                 $<TARGET_OBJECTS:${names}>)
  target_link_libraries(${tests_program} PRIVATE ${IMPL_LIBRARY} ${libraries}
                        lab_grader_harness)
  # The checks' calls to the student's helpers go through the recording
  # wrappers (labN_calls.c, compiled with the checks): -Wl,--wrap=<helper>.
  list(TRANSFORM helpers PREPEND "LINKER:--wrap=" OUTPUT_VARIABLE wraps)
  target_link_options(${tests_program} PRIVATE ${wraps})
  # <test program>.symbols: the student library's symbols, from which the
  # harness tells the student's kernels from a library's or the grader's
  # (harness/launch_watch.h). The batch grader writes the same file.
  add_custom_command(TARGET ${tests_program} POST_BUILD
    COMMAND ${CMAKE_COMMAND} -D NM=${CMAKE_NM} -D LIBRARY=$<TARGET_FILE:${IMPL_LIBRARY}>
            -D OUT=$<TARGET_FILE:${tests_program}>.symbols -P ${GRADER_SYMBOLS_SCRIPT}
    VERBATIM)
  if(kernel_resources)
    # <test program>.resources: ptxas's report on the student's kernels
    # (kernel_resources_command), which the lab's static checks read
    # (harness/checks/kernel_resources.h) on every machine, GPU or not.
    kernel_resources_command(write "${IMPL_SOURCES}" ${contract_dir}
                             $<TARGET_FILE:${tests_program}>.resources)
    add_custom_command(TARGET ${tests_program} POST_BUILD ${write} VERBATIM)
  endif()

  add_executable(${IMPL_EXECUTABLE} $<TARGET_OBJECTS:${lab}_grader_runner_objects>
                 $<TARGET_OBJECTS:${names}>)
  if(calls)
    # The GPU checks' code, compiled into sections of its own, goes
    # (add_lab_grader_objects).
    target_link_options(${IMPL_EXECUTABLE} PRIVATE "LINKER:--gc-sections")
  endif()
  # The runner's library and the CPU checks' helpers only: a runner that
  # called a check (which calls the student's code) would not link.
  target_link_libraries(${IMPL_EXECUTABLE} PRIVATE lab_grader_runner lab_grader_cpu_checks)
  add_dependencies(${IMPL_EXECUTABLE} ${tests_program})
  if(IMPL_OUTPUT_DIRECTORY)
    set_target_properties(${IMPL_EXECUTABLE} ${tests_program} PROPERTIES
                          RUNTIME_OUTPUT_DIRECTORY ${IMPL_OUTPUT_DIRECTORY})
  endif()

  if(race_runner)
    add_executable(${IMPL_RACE_RUNNER_NAME} $<TARGET_OBJECTS:${lab}_race_runner_objects>)
    # The grader's libraries too: code that links into the grader (a
    # student's cuBLAS call, say) must link here, so that the race check
    # judges the kernels and the kernel-identity check the library call.
    target_link_libraries(${IMPL_RACE_RUNNER_NAME} PRIVATE ${IMPL_LIBRARY} ${libraries}
                          lab_grader_support)
    if(race_from_table)
      target_link_libraries(${IMPL_RACE_RUNNER_NAME} PRIVATE lab_time_kernels)
    endif()
    # Next to the grader: the race check looks for it there.
    if(IMPL_OUTPUT_DIRECTORY)
      set_target_properties(${IMPL_RACE_RUNNER_NAME} PROPERTIES RUNTIME_OUTPUT_DIRECTORY
                            ${IMPL_OUTPUT_DIRECTORY})
    endif()
    add_dependencies(${IMPL_EXECUTABLE} ${IMPL_RACE_RUNNER_NAME})
  endif()
endfunction()

# add_cuda_lab(NUMBER 1 DIR lab1_indexing SOURCES indexing.cu
#              GRADER a.c ... BASELINES baselines.cu
#              [LIBRARIES grader_helpers ...])
# (from grader/labN/CMakeLists.txt; GRADER, BASELINES, RACE_RUNNER and
# CPU_CHECKS are relative to that folder) builds the student's library
# (labs/), the reference (solutions/), the baselines, and the grader twice:
# labN_check and labN_check_solution. LIBRARIES: grader code shared between
# labs, linked into both. The recipe is kept in global properties
# CUDA_LAB<N>_*, so that add_lab_implementation can build other
# implementations (grader/tests builds known-wrong ones). A student copy has
# no solutions/: then there is no labN_check_solution nor labN.solution.* test.
#
# CPU_CHECKS: the grader sources whose CPU checks call the student's helpers
# (the LAB_HOST_DEVICE prototypes of labN.h, each named on the line
# LAB_HOST_DEVICE starts): the runner compiles them too and replays the
# recorded calls (harness/runner/call_log.h) through labN_calls.c, which the
# build writes from the header (grader/tools/gen_calls.py).
#
# KERNEL_TABLE labN_kernels.c ...: the lab's kernel table (support/
# kernel_table.h) and the sources it needs; with driver/kernel_driver.c it
# is built as labN_kernels and labN_kernels_solution (make time-labN,
# profile-labN, bench), linked with KERNEL_LIBRARIES (default: LIBRARIES
# and the baselines) and the time routine.
#
# KERNEL_RESOURCES: each grader gets <test program>.resources, ptxas's report
# on its kernels, for the lab's static checks and make resources-labN.
#
# RACE_FROM_TABLE: the lab's race runner (each shared-memory kernel once on
# a small problem, its result checked) is that driver in race mode, over the
# table's KERNEL_RACE rows; RACE_RUNNER race_demo.cu ...: a race runner of
# its own instead (lab 3). Either is built as labN_racecheck and
# labN_racecheck_solution. make sanitize-labN runs it under racecheck and
# synccheck with bin/labN_racecheck.args, written here: --all with
# RACE_FROM_TABLE (every KERNEL_RACE row, extensions included), else
# RACE_ARGS (none by default). A lab with neither has no such file, and make
# sanitize-labN says that it runs memcheck only.
function(add_cuda_lab)
  cmake_parse_arguments(LAB "RACE_FROM_TABLE;KERNEL_RESOURCES" "NUMBER;DIR"
    "SOURCES;GRADER;BASELINES;LIBRARIES;RACE_RUNNER;RACE_ARGS;CPU_CHECKS;KERNEL_TABLE;KERNEL_LIBRARIES"
    ${ARGN})
  set(lab lab${LAB_NUMBER})
  set(contract_dir ${PROJECT_SOURCE_DIR}/labs/${LAB_DIR})
  set(implementations labs)
  if(IS_DIRECTORY ${PROJECT_SOURCE_DIR}/solutions/${LAB_DIR})
    list(APPEND implementations solutions)
  endif()

  set(baselines "")
  if(LAB_BASELINES)
    add_library(${lab}_baselines STATIC ${LAB_BASELINES})
    target_link_libraries(${lab}_baselines PUBLIC lab_grader_support)
    target_include_directories(${lab}_baselines PUBLIC ${contract_dir})
    cuda_labs_warnings(${lab}_baselines)
    set(baselines ${lab}_baselines)
  endif()

  # Absolute paths: the recipe is also used from other directories.
  list(TRANSFORM LAB_GRADER PREPEND ${CMAKE_CURRENT_SOURCE_DIR}/ OUTPUT_VARIABLE grader)
  set(recipe CUDA_LAB${LAB_NUMBER})
  set_property(GLOBAL PROPERTY ${recipe}_DIR ${LAB_DIR})
  set_property(GLOBAL PROPERTY ${recipe}_SOURCES ${LAB_SOURCES})
  set_property(GLOBAL PROPERTY ${recipe}_CONTRACT_DIR ${contract_dir})
  set_property(GLOBAL PROPERTY ${recipe}_GRADER ${grader})
  set_property(GLOBAL PROPERTY ${recipe}_GRADER_LIBRARIES ${baselines} ${LAB_LIBRARIES})
  list(TRANSFORM LAB_RACE_RUNNER PREPEND ${CMAKE_CURRENT_SOURCE_DIR}/ OUTPUT_VARIABLE race_runner)
  list(TRANSFORM LAB_KERNEL_TABLE PREPEND ${CMAKE_CURRENT_SOURCE_DIR}/ OUTPUT_VARIABLE table)
  set(driver ${GRADER_SOURCE_DIR}/driver/kernel_driver.c)
  if(LAB_RACE_FROM_TABLE)
    set(race_runner ${driver} ${table})
  endif()
  set_property(GLOBAL PROPERTY ${recipe}_RACE_RUNNER ${race_runner})
  set_property(GLOBAL PROPERTY ${recipe}_RACE_FROM_TABLE ${LAB_RACE_FROM_TABLE})
  if(race_runner)
    if(LAB_RACE_FROM_TABLE)
      set(LAB_RACE_ARGS --all)
    endif()
    write_race_runner_args(${lab}_racecheck ${LAB_RACE_ARGS})
  elseif(LAB_RACE_ARGS)
    message(FATAL_ERROR "add_cuda_lab(NUMBER ${LAB_NUMBER}): RACE_ARGS without a race runner "
            "(RACE_FROM_TABLE or RACE_RUNNER)")
  endif()
  # The helpers: the name on each line of the header that starts a
  # LAB_HOST_DEVICE prototype (gen_calls.py reads the whole prototype and
  # fails the build if it finds other names). A header edit reconfigures.
  file(STRINGS ${contract_dir}/${lab}.h declared REGEX "^LAB_HOST_DEVICE ")
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${contract_dir}/${lab}.h)
  set(helpers "")
  set(calls "")
  foreach(line ${declared})
    if(line MATCHES "(${lab}_[A-Za-z0-9_]+)[ \t]*\\(")
      list(APPEND helpers ${CMAKE_MATCH_1})
      set(calls ${CMAKE_CURRENT_BINARY_DIR}/${lab}_calls.c)
    endif()
  endforeach()
  list(TRANSFORM LAB_CPU_CHECKS PREPEND ${CMAKE_CURRENT_SOURCE_DIR}/ OUTPUT_VARIABLE cpu_checks)
  set_property(GLOBAL PROPERTY ${recipe}_HELPERS ${helpers})
  set_property(GLOBAL PROPERTY ${recipe}_CALLS ${calls})
  set_property(GLOBAL PROPERTY ${recipe}_CPU_CHECKS ${cpu_checks})
  set_property(GLOBAL PROPERTY ${recipe}_KERNEL_RESOURCES ${LAB_KERNEL_RESOURCES})
  add_lab_grader_objects(${LAB_NUMBER})

  foreach(impl ${implementations})
    list(TRANSFORM LAB_SOURCES PREPEND ${PROJECT_SOURCE_DIR}/${impl}/${LAB_DIR}/
         OUTPUT_VARIABLE sources)
    if(impl STREQUAL "labs")
      set(suffix "")
      set(prefix ${lab}.skeleton)
    else()
      set(suffix "_solution")
      set(prefix ${lab}.solution)
    endif()
    set(exe ${lab}_check${suffix})
    add_lab_implementation(NUMBER ${LAB_NUMBER} LIBRARY ${lab}_${impl} EXECUTABLE ${exe}
                           IMPLEMENTATION ${impl} SOURCES ${sources}
                           RACE_RUNNER_NAME ${lab}_racecheck${suffix}
                           OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/bin)

    # make resources-labN and sass-labN (-solution-labN: the reference's).
    add_kernel_resources_target(${lab}_resources${suffix} "${sources}" ${contract_dir}
                                ${PROJECT_BINARY_DIR}/results/${lab}${suffix}.resources)

    if(impl STREQUAL "solutions")
      # Every test must pass on the reference (GPU ones skip without a GPU).
      discover_grader_tests(${exe} ${prefix})
    else()
      add_skeleton_fails_tests(${prefix} ${exe})
    endif()
  endforeach()

  if(table)
    if(NOT LAB_KERNEL_LIBRARIES)
      set(LAB_KERNEL_LIBRARIES ${baselines} ${LAB_LIBRARIES})
    endif()
    # Its bench mode (make bench, where there is one: lab_kernel_bench),
    # which the race runner, the same driver, has not.
    set(bench "")
    if(TARGET lab_kernel_bench)
      set(bench lab_kernel_bench)
    endif()
    add_lab_program(NUMBER ${LAB_NUMBER} NAME kernels SOURCES ${driver} ${table}
      LIBRARIES ${LAB_KERNEL_LIBRARIES} lab_time_kernels ${bench})
    if(bench AND TARGET ${lab}_kernels_objects)
      target_compile_definitions(${lab}_kernels_objects PRIVATE KERNEL_DRIVER_BENCH=1)
    endif()
    # The table itself, read without a GPU: every row launches something
    # and names a yardstick inside the table.
    if(TARGET ${lab}_kernels_solution)
      add_test(NAME ${lab}.kernel_table_lists COMMAND ${lab}_kernels_solution list)
      # make bench reads the table too: its problems, sizes and the rows'
      # keys and labels are listed.
      add_test(NAME ${lab}.kernel_table_lists_bench_columns
        COMMAND ${lab}_kernels_solution list)
      set_tests_properties(${lab}.kernel_table_lists_bench_columns PROPERTIES
        PASS_REGULAR_EXPRESSION
          "\n    bench [a-z0-9_, ]+: [a-z0-9_]+ \\(baseline\\).*\n  bench [a-z0-9_]+ at ")
      # Its bench mode without a GPU (none visible, on any machine) says so
      # and exits 77, as the race mode does, instead of timing nothing.
      add_test(NAME ${lab}.kernel_bench_without_gpu
        COMMAND sh -c "out=$(\"$0\" bench 2>&1); code=$?; echo \"$out\"; \
                       [ $code -eq 77 ] && echo \"$out\" | grep -q 'bench: nothing to run: '"
                $<TARGET_FILE:${lab}_kernels_solution>)
      set_tests_properties(${lab}.kernel_bench_without_gpu PROPERTIES
        ENVIRONMENT CUDA_VISIBLE_DEVICES=-1)
      set_tests_properties(${lab}.kernel_table_lists ${lab}.kernel_table_lists_bench_columns
        ${lab}.kernel_bench_without_gpu PROPERTIES LABELS cpu TIMEOUT 60)
    endif()
  endif()
endfunction()

# add_lab_program(NUMBER 6 NAME timeline SOURCES ... [LIBRARIES ...])
# builds one of lab N's tools (not a grader) into bin/ twice: labN_NAME on
# the student's library and labN_NAME_solution on the reference (where
# solutions/ exists). Its sources see only the contract's header, so they
# are compiled once (labN_NAME_objects); the programs differ only in the
# library they link.
function(add_lab_program)
  cmake_parse_arguments(PROG "" "NUMBER;NAME" "SOURCES;LIBRARIES" ${ARGN})
  set(lab lab${PROG_NUMBER})
  get_property(contract_dir GLOBAL PROPERTY CUDA_LAB${PROG_NUMBER}_CONTRACT_DIR)
  set(objects ${lab}_${PROG_NAME}_objects)
  foreach(pair "labs;${lab}_${PROG_NAME}" "solutions;${lab}_${PROG_NAME}_solution")
    list(GET pair 0 impl)
    list(GET pair 1 exe)
    if(NOT TARGET ${lab}_${impl})
      continue()
    endif()
    if(NOT TARGET ${objects})
      # The include path each program had when it compiled these itself:
      # the lab's grader folder, then the contract (as the library gives
      # it), then the libraries'.
      add_library(${objects} OBJECT ${PROG_SOURCES})
      target_include_directories(${objects} PRIVATE ${GRADER_SOURCE_DIR}/${lab} ${contract_dir})
      target_link_libraries(${objects} PRIVATE labs_common ${PROG_LIBRARIES})
      cuda_labs_warnings(${objects})
    endif()
    add_executable(${exe} $<TARGET_OBJECTS:${objects}>)
    target_link_libraries(${exe} PRIVATE ${lab}_${impl} ${PROG_LIBRARIES})
    set_target_properties(${exe} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/bin)
  endforeach()
endfunction()
