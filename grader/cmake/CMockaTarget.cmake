# Provides the target `lab_cmocka` for CMocka 1.1.5 (Debian bookworm: a config
# file that only sets CMOCKA_INCLUDE_DIR / CMOCKA_LIBRARIES) and for newer
# releases (an imported target cmocka::cmocka), falling back to a plain search.
find_package(cmocka CONFIG QUIET)

add_library(lab_cmocka INTERFACE)
if(TARGET cmocka::cmocka)
  target_link_libraries(lab_cmocka INTERFACE cmocka::cmocka)
elseif(TARGET cmocka)
  target_link_libraries(lab_cmocka INTERFACE cmocka)
else()
  if(NOT CMOCKA_LIBRARIES)
    find_library(CMOCKA_LIBRARIES NAMES cmocka)
  endif()
  if(NOT CMOCKA_INCLUDE_DIR)
    find_path(CMOCKA_INCLUDE_DIR NAMES cmocka.h)
  endif()
  if(NOT CMOCKA_LIBRARIES OR NOT CMOCKA_INCLUDE_DIR)
    message(FATAL_ERROR
      "CMocka not found. Install it with: sudo apt-get install -y libcmocka-dev "
      "(or point CMAKE_PREFIX_PATH at a CMocka installation).")
  endif()
  target_include_directories(lab_cmocka INTERFACE ${CMOCKA_INCLUDE_DIR})
  target_link_libraries(lab_cmocka INTERFACE ${CMOCKA_LIBRARIES})
endif()
