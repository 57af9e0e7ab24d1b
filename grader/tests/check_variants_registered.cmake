# cmake -D VARIANTS_DIR=<grader/tests> -D REGISTERED=<file> -P check_variants_registered.cmake
# Every variant file (labN/<name>.cmake) must be registered in
# grader/tests/CMakeLists.txt: a file nobody registered would never run, and
# nothing else would notice. REGISTERED (written at configure time) lists the
# registered ones; the files are listed now, so a new file shows up here
# without a reconfigure.
cmake_minimum_required(VERSION 3.24) # policies of the project (IN_LIST, ...)
include(${REGISTERED})
file(GLOB variant_files RELATIVE ${VARIANTS_DIR} ${VARIANTS_DIR}/lab*/*.cmake)
set(forgotten "")
foreach(file ${variant_files})
  if(NOT file IN_LIST REGISTERED_VARIANTS)
    string(APPEND forgotten "  add_lab_variant(${file})\n")
  endif()
endforeach()
if(forgotten)
  message(FATAL_ERROR "variant files that grader/tests/CMakeLists.txt does not register "
          "(they never run); add:\n${forgotten}")
endif()
list(LENGTH variant_files count)
message(STATUS "all ${count} variant files are registered")
