# add_lab_reference(NUMBER 2 DIR lab2_naive_matmul) defines lab2_reference:
# lab 2's reference solution as a library that another lab's grader times
# against (lab 3's speed checks use lab 2's naive kernel as their baseline).
#
# In the course repository it is lab2_solutions, built from solutions/. A
# student copy has no solutions/: make dist-student ships the reference
# compiled to machine code only (SASS for a list of GPUs, no PTX, no source)
# in grader/prebuilt/labN/, and this imports it. docs/design.md explains the
# trade-off.
function(add_lab_reference)
  cmake_parse_arguments(REF "" "NUMBER;DIR" "" ${ARGN})
  set(target lab${REF_NUMBER}_reference)
  if(TARGET lab${REF_NUMBER}_solutions)
    add_library(${target} ALIAS lab${REF_NUMBER}_solutions)
    return()
  endif()

  set(prebuilt ${PROJECT_SOURCE_DIR}/grader/prebuilt/lab${REF_NUMBER})
  set(archive ${prebuilt}/liblab${REF_NUMBER}_reference.a)
  if(NOT EXISTS ${archive})
    message(FATAL_ERROR "solutions/${REF_DIR} is missing and so is ${archive}. A copy of "
            "the course without solutions/ must be made with `make dist-student OUT=dir` "
            "in the course repository, which builds that library.")
  endif()
  # Written by dist-student: the toolkit, host and GPU architectures it was built for.
  include(${prebuilt}/build-info.cmake)
  string(REGEX MATCH "^[0-9]+" our_cuda_major "${CMAKE_CUDA_COMPILER_VERSION}")
  string(REGEX MATCH "^[0-9]+" its_cuda_major "${PREBUILT_CUDA_VERSION}")
  if(NOT our_cuda_major STREQUAL its_cuda_major
     OR NOT CMAKE_SYSTEM_PROCESSOR STREQUAL PREBUILT_PROCESSOR)
    message(WARNING "grader/prebuilt/lab${REF_NUMBER} was built with CUDA "
            "${PREBUILT_CUDA_VERSION} for ${PREBUILT_PROCESSOR}; this machine has CUDA "
            "${CMAKE_CUDA_COMPILER_VERSION} on ${CMAKE_SYSTEM_PROCESSOR}. Lab "
            "${REF_NUMBER}'s own grading is not affected, but the graders that time against "
            "its reference may fail to link or to run: ask for a copy built for this setup.")
  endif()
  message(STATUS "lab${REF_NUMBER} reference: prebuilt (SASS for ${PREBUILT_ARCHITECTURES})")

  add_library(${target} STATIC IMPORTED GLOBAL)
  set_target_properties(${target} PROPERTIES
    IMPORTED_LOCATION ${archive}
    IMPORTED_LINK_INTERFACE_LANGUAGES CUDA
    INTERFACE_INCLUDE_DIRECTORIES ${prebuilt}
    INTERFACE_LINK_LIBRARIES labs_common)
endfunction()
