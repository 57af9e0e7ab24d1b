# A student copy's graders, compiled (make dist-student; GRADERS=compiled, the
# default). The copy has no grader source: grader/prebuilt/graders/ holds
# the graders' objects and libraries as the instructor's build compiled them
# (SASS only for the GPU code), and graders.cmake says how each program was
# linked (grader/tools/pack_graders.py). Here each program is linked again
# against the student's own library, built from labs/ on this machine, with
# the same objects, libraries, order and options, so it grades exactly as
# the course repository's does. docs/design.md, section 5.4.
#
# add_prebuilt_graders(): every lab the copy holds; the configure first
# checks that this machine can link and run what was compiled elsewhere, and
# says in one line what to ask the instructor for when it cannot.

set(PREBUILT_GRADERS_DIR ${PROJECT_SOURCE_DIR}/grader/prebuilt/graders)

# The soname of a library file (objdump -p), or "" when it has none.
function(prebuilt_soname file out_var)
  set(soname "")
  if(file AND EXISTS "${file}" AND CMAKE_OBJDUMP)
    execute_process(COMMAND ${CMAKE_OBJDUMP} -p ${file} OUTPUT_VARIABLE dump ERROR_QUIET)
    string(REGEX MATCH "SONAME +([^\n ]+)" found "${dump}")
    set(soname "${CMAKE_MATCH_1}")
  endif()
  set(${out_var} "${soname}" PARENT_SCOPE)
endfunction()

# The file a library target links (an imported target's location, or the
# path an INTERFACE target such as lab_cmocka forwards to).
function(prebuilt_target_file target out_var)
  set(file "")
  if(TARGET ${target})
    get_target_property(type ${target} TYPE)
    if(type STREQUAL "INTERFACE_LIBRARY")
      get_target_property(links ${target} INTERFACE_LINK_LIBRARIES)
      foreach(link ${links})
        if(TARGET ${link})
          prebuilt_target_file(${link} file)
        elseif(EXISTS "${link}")
          set(file "${link}")
        endif()
      endforeach()
    else()
      get_target_property(configs ${target} IMPORTED_CONFIGURATIONS)
      set(properties IMPORTED_LOCATION)
      foreach(config ${configs})
        string(TOUPPER "${config}" config)
        list(APPEND properties IMPORTED_LOCATION_${config})
      endforeach()
      foreach(property ${properties})
        get_target_property(location ${target} ${property})
        if(location)
          set(file "${location}")
          break()
        endif()
      endforeach()
    endif()
  endif()
  set(${out_var} "${file}" PARENT_SCOPE)
endfunction()

# One requirement of the copy: stops with what to ask for when unmet.
function(prebuilt_require ok)
  string(JOIN "" what ${ARGN}) # (no ";" in a message: ARGN would split it there)
  if(NOT ${ok})
    message(FATAL_ERROR "This copy's graders were compiled for ${what}. Ask your instructor "
            "for a copy built for this machine (its build-info: "
            "grader/prebuilt/graders/build-info.cmake).")
  endif()
endfunction()

function(check_prebuilt_graders)
  include(${PREBUILT_GRADERS_DIR}/build-info.cmake)
  set(its "${PREBUILT_GRADERS_NVCC}")
  string(REGEX MATCH "^[0-9]+" our_major "${CMAKE_CUDA_COMPILER_VERSION}")
  string(REGEX MATCH "^[0-9]+" its_major "${PREBUILT_GRADERS_CUDA_VERSION}")
  string(COMPARE EQUAL "${our_major}" "${its_major}" same)
  prebuilt_require(same "CUDA ${PREBUILT_GRADERS_CUDA_VERSION} (${its}), and this machine's nvcc "
                   "is CUDA ${CMAKE_CUDA_COMPILER_VERSION}")
  string(COMPARE EQUAL "${CMAKE_SYSTEM_PROCESSOR}" "${PREBUILT_GRADERS_PROCESSOR}" same)
  prebuilt_require(same "${PREBUILT_GRADERS_PROCESSOR}, and this machine is "
                   "${CMAKE_SYSTEM_PROCESSOR}")

  foreach(pair "CUDA::cupti;CUPTI" "CUDA::cublas;CUBLAS" "lab_cmocka;CMOCKA")
    list(GET pair 0 target)
    list(GET pair 1 key)
    set(wanted "${PREBUILT_GRADERS_${key}_SONAME}")
    if(wanted STREQUAL "")
      continue() # no program of the copy links it
    endif()
    prebuilt_target_file(${target} file)
    prebuilt_soname("${file}" ours)
    string(COMPARE EQUAL "${ours}" "${wanted}" same)
    prebuilt_require(same "${wanted}, and this machine's ${target} is "
                     "'${file}' (${ours}), found by CMake")
  endforeach()

  # glibc and libstdc++: at least the versions the programs' symbols need.
  execute_process(COMMAND getconf GNU_LIBC_VERSION OUTPUT_VARIABLE glibc ERROR_QUIET)
  string(REGEX MATCH "[0-9]+(\\.[0-9]+)+" glibc "${glibc}")
  if(glibc AND PREBUILT_GRADERS_GLIBC)
    set(new_enough TRUE)
    if(glibc VERSION_LESS PREBUILT_GRADERS_GLIBC)
      set(new_enough FALSE)
    endif()
    prebuilt_require(new_enough "glibc ${PREBUILT_GRADERS_GLIBC} or newer, and this machine has "
                     "glibc ${glibc}")
  endif()
  if(PREBUILT_GRADERS_GLIBCXX)
    execute_process(COMMAND ${CMAKE_C_COMPILER} -print-file-name=libstdc++.so.6
                    OUTPUT_VARIABLE libstdcxx OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    set(best "")
    if(EXISTS "${libstdcxx}")
      file(STRINGS "${libstdcxx}" versions REGEX "^GLIBCXX_[0-9]+(\\.[0-9]+)+$")
      foreach(version ${versions})
        string(REPLACE "GLIBCXX_" "" version "${version}")
        if(NOT best OR version VERSION_GREATER best)
          set(best "${version}")
        endif()
      endforeach()
    endif()
    set(new_enough TRUE)
    if(NOT best OR best VERSION_LESS PREBUILT_GRADERS_GLIBCXX)
      set(new_enough FALSE)
    endif()
    prebuilt_require(new_enough "libstdc++ with GLIBCXX_${PREBUILT_GRADERS_GLIBCXX}; this "
                     "machine's (${libstdcxx}) has GLIBCXX_${best}")
  endif()
  message(STATUS "graders: prebuilt with ${its} for sm_${PREBUILT_GRADERS_ARCHITECTURES}")
endfunction()

# One program of lab N, linked as the instructor's build linked it;
# `sources` and `lab_dir`: the student's files and the lab's contract folder.
function(add_prebuilt_program name sources lab_dir)
  set(lab lab${PREBUILT_${name}_LAB})
  # This copy's calibration folder (harness/runner/calibration.c,
  # grader_calibration_dir): the path compiled in elsewhere is not this one.
  add_executable(${name} ${CMAKE_BINARY_DIR}/grader_calibration_dir.c)
  set_target_properties(${name} PROPERTIES LINKER_LANGUAGE CUDA
                        RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/bin)
  set(items "LINKER:--whole-archive")
  foreach(group ${PREBUILT_${name}_OBJECTS})
    list(APPEND items ${PREBUILT_GRADERS_DIR}/lib${group}.a)
  endforeach()
  list(APPEND items "LINKER:--no-whole-archive" "LINKER:--start-group")
  foreach(item ${PREBUILT_${name}_LIBRARIES})
    if(item STREQUAL "STUDENT")
      list(APPEND items $<TARGET_FILE:${lab}_labs>)
    elseif(item MATCHES "^TARGET:(.*)$")
      list(APPEND items $<TARGET_FILE:${CMAKE_MATCH_1}>)
    elseif(item MATCHES "^ARCHIVE:(.*)$")
      list(APPEND items ${PREBUILT_GRADERS_DIR}/lib${CMAKE_MATCH_1}.a)
    endif()
  endforeach()
  list(APPEND items "LINKER:--end-group")
  # LINKER: items stay where they are in the link line; the files between
  # them are named by path, so CMake neither reorders nor drops one.
  string(REPLACE "LINKER:" "-Wl," items "${items}")
  target_link_libraries(${name} PRIVATE ${items} ${PREBUILT_${name}_SYSTEM})
  add_dependencies(${name} ${lab}_labs)
  foreach(item ${PREBUILT_${name}_LIBRARIES})
    if(item MATCHES "^TARGET:(.*)$")
      add_dependencies(${name} ${CMAKE_MATCH_1})
    endif()
  endforeach()
  target_link_options(${name} PRIVATE ${PREBUILT_${name}_OPTIONS})
  if("CUDA::cupti" IN_LIST PREBUILT_${name}_SYSTEM)
    target_link_options(${name} PRIVATE "LINKER:-rpath,$<TARGET_FILE_DIR:CUDA::cupti>")
  endif()
  if(DEFINED PREBUILT_${name}_RUN_ARGS)
    # The race runner's arguments for make sanitize-labN, as the course's
    # build writes them (LabTargets.cmake, add_cuda_lab).
    write_race_runner_args(${name} ${PREBUILT_${name}_RUN_ARGS})
  endif()
  if(name MATCHES "_tests$")
    # The student library's symbols, beside the test program (LabTargets.cmake).
    add_custom_command(TARGET ${name} POST_BUILD
      COMMAND ${CMAKE_COMMAND} -D NM=${CMAKE_NM} -D LIBRARY=$<TARGET_FILE:${lab}_labs>
              -D OUT=$<TARGET_FILE:${name}>.symbols -P ${GRADER_SYMBOLS_SCRIPT}
      VERBATIM)
    # And ptxas's report on the student's kernels, which the static checks
    # read (LabTargets.cmake, kernel_resources_command). Written for every
    # lab: the copy does not know which of its compiled graders read it.
    kernel_resources_command(write "${sources}" ${lab_dir} $<TARGET_FILE:${name}>.resources)
    add_custom_command(TARGET ${name} POST_BUILD ${write} VERBATIM)
  endif()
endfunction()

function(add_prebuilt_graders)
  check_prebuilt_graders()
  find_package(Threads REQUIRED)
  include(${PREBUILT_GRADERS_DIR}/graders.cmake)
  string(CONCAT calibration_dir
    "/* Generated by grader/cmake/PrebuiltGraders.cmake: this copy's calibration files. */\n"
    "const char grader_calibration_dir[] = \"${PROJECT_SOURCE_DIR}/grader/calibration\";\n")
  write_if_changed(${CMAKE_BINARY_DIR}/grader_calibration_dir.c "${calibration_dir}")
  foreach(n ${PREBUILT_GRADER_LABS})
    set(lab lab${n})
    file(GLOB lab_dir LIST_DIRECTORIES true ${PROJECT_SOURCE_DIR}/labs/${lab}_*)
    # The student's library: every .cu file of the lab's folder, the files
    # make submit hands in, against the contract only (as add_lab_implementation).
    file(GLOB sources CONFIGURE_DEPENDS ${lab_dir}/*.cu)
    add_student_library(${lab}_labs ${lab_dir} ${sources})
    foreach(name ${PREBUILT_LAB${n}_PROGRAMS})
      add_prebuilt_program(${name} "${sources}" ${lab_dir})
    endforeach()
    add_kernel_resources_target(${lab}_resources "${sources}" ${lab_dir}
                                ${PROJECT_BINARY_DIR}/results/${lab}.resources)
    # make check-labN builds the runner; it runs the test program and the
    # race runner, so they come with it.
    foreach(helper ${lab}_check_tests ${lab}_racecheck)
      if(TARGET ${helper})
        add_dependencies(${lab}_check ${helper})
      endif()
    endforeach()
    add_skeleton_fails_tests(${lab}.skeleton ${lab}_check)
  endforeach()
endfunction()
