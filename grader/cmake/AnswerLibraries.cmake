# add_answer_libraries() defines one static library per line of each lab's
# grader/labN/labN_answer_libraries.list: answer-shaped code a grader needs
# (lab 2's naive kernel, which lab 3 is timed against; lab 4's
# unpadded-tile transpose, which its padded tile is timed against) that a
# student copy must not hold as source. The lists are found by directory,
# like the labs themselves, so adding a lab's answer library touches only
# that lab's folder.
#
# In the course repository each is built from its source in solutions/. A
# student copy has no solutions/: make dist-student ships each library
# compiled to machine code only (SASS for a list of GPUs, no PTX, no source)
# in grader/prebuilt/<library>/, and this imports it. docs/design.md,
# section 5, explains the trade-off.
#
# Called once, before any lab's folder is added: a lab may link an earlier
# lab's answer library (lab 3 links lab 2's, lab 7 lab 3's), and defining
# them all first keeps that true whatever order the labs come in.
function(add_answer_libraries)
  file(GLOB lists RELATIVE ${PROJECT_SOURCE_DIR}/grader CONFIGURE_DEPENDS
       ${PROJECT_SOURCE_DIR}/grader/lab[0-9]*/lab[0-9]*_answer_libraries.list)
  list(SORT lists COMPARE NATURAL)
  foreach(list_file ${lists})
    # The number in the file's name must be its folder's: a list copied
    # into another lab's folder and not renamed stops here, instead of
    # defining the same libraries twice.
    if(NOT list_file MATCHES "^lab([0-9]+)/lab([0-9]+)_answer_libraries\\.list$"
       OR NOT CMAKE_MATCH_1 STREQUAL CMAKE_MATCH_2)
      message(FATAL_ERROR "grader/${list_file}: an answer-library list is "
              "grader/labN/labN_answer_libraries.list, with N its folder's number")
    endif()
    set(number ${CMAKE_MATCH_1})
    # Edits to a list re-run the configure, as edits to a CMakeLists.txt do.
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
                 ${PROJECT_SOURCE_DIR}/grader/${list_file})
    file(STRINGS ${PROJECT_SOURCE_DIR}/grader/${list_file} lines REGEX "^[a-z]")
    foreach(line ${lines})
      string(REGEX REPLACE "[ \t]+" ";" fields "${line}")
      list(GET fields 0 name)
      list(GET fields 1 source)
      list(GET fields 2 lab_dir)
      # A lab declares its own answers: code from solutions/labN_<topic>/,
      # implementing labN.h. Another lab's answer belongs in that lab's list.
      if(NOT lab_dir MATCHES "^lab${number}_" OR NOT source MATCHES "^${lab_dir}/")
        message(FATAL_ERROR "grader/${list_file}: ${name} is built from solutions/${source} "
                "against labs/${lab_dir}/; lab ${number}'s list holds only lab ${number}'s "
                "answers, from solutions/lab${number}_<topic>/")
      endif()
      add_answer_library(${name} ${source} ${lab_dir})
    endforeach()
  endforeach()
endfunction()

function(add_answer_library name source lab_dir)
  set(source_path ${PROJECT_SOURCE_DIR}/solutions/${source})
  if(EXISTS ${source_path})
    add_library(${name} STATIC ${source_path})
    target_include_directories(${name} PUBLIC ${PROJECT_SOURCE_DIR}/labs/${lab_dir})
    # Code from solutions/, built like a student's: the contract only.
    target_link_libraries(${name} PUBLIC labs_common)
    cuda_labs_warnings(${name})
    return()
  endif()

  set(prebuilt ${PROJECT_SOURCE_DIR}/grader/prebuilt/${name})
  set(archive ${prebuilt}/lib${name}.a)
  if(NOT EXISTS ${archive})
    message(FATAL_ERROR "solutions/${source} is missing and so is ${archive}. A copy of "
            "the course without solutions/ must be made with `make dist-student OUT=dir` "
            "in the course repository, which builds that library.")
  endif()
  # Written by dist-student: the toolkit, host and GPU architectures it was built for.
  include(${prebuilt}/build-info.cmake)
  string(REGEX MATCH "^[0-9]+" our_cuda_major "${CMAKE_CUDA_COMPILER_VERSION}")
  string(REGEX MATCH "^[0-9]+" its_cuda_major "${PREBUILT_CUDA_VERSION}")
  if(NOT our_cuda_major STREQUAL its_cuda_major
     OR NOT CMAKE_SYSTEM_PROCESSOR STREQUAL PREBUILT_PROCESSOR)
    message(WARNING "grader/prebuilt/${name} was built with CUDA ${PREBUILT_CUDA_VERSION} "
            "for ${PREBUILT_PROCESSOR}; this machine has CUDA ${CMAKE_CUDA_COMPILER_VERSION} "
            "on ${CMAKE_SYSTEM_PROCESSOR}. The graders that time against it may fail to "
            "link or to run: ask for a copy built for this setup.")
  endif()
  message(STATUS "${name}: prebuilt (SASS for ${PREBUILT_ARCHITECTURES})")

  add_library(${name} STATIC IMPORTED GLOBAL)
  set_target_properties(${name} PROPERTIES
    IMPORTED_LOCATION ${archive}
    IMPORTED_LINK_INTERFACE_LANGUAGES CUDA
    INTERFACE_INCLUDE_DIRECTORIES ${prebuilt}
    INTERFACE_LINK_LIBRARIES labs_common)
endfunction()
