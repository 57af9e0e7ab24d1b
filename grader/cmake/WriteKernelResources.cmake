# cmake -D NVCC=nvcc -D CXXFILT=c++filt -D ARCH=90 -D SOURCES="a.cu|b.cu"
#       -D INCLUDES="dir|dir" -D OUT=<grader>.resources -P WriteKernelResources.cmake
# What the compiler made of each of the student's kernels, read from the
# build itself: the lab's sources compiled once more, device code only, for
# sm_${ARCH} (the course's reference architecture, the same on every
# machine, with or without a GPU), with ptxas's report (-Xptxas -v). One
# tab-separated line per kernel, next to the grader:
#   sm_90  registers  shared_bytes  stack_bytes  spill_store_bytes  spill_load_bytes
#   mangled  name (demangled, without its return type and parameters)
# Read by harness/checks/kernel_resources.h (the labs' static checks) and
# printed by make resources-labN. -D KEEP_CUBIN=ON keeps each source's
# machine code as <OUT>.<source name>.cubin (make sass-labN dumps it). A compile that fails writes one "# error:"
# line: the checks then fail saying so, never pass on an empty list.
string(REPLACE "|" ";" SOURCES "${SOURCES}")
string(REPLACE "|" ";" INCLUDES "${INCLUDES}")
set(include_flags "")
foreach(dir ${INCLUDES})
  list(APPEND include_flags "-I${dir}")
endforeach()

set(header "# kernel resources: ptxas for sm_${ARCH} (grader/cmake/WriteKernelResources.cmake)\n")
set(lines "")
set(names "")
foreach(source ${SOURCES})
  get_filename_component(stem ${source} NAME_WE)
  execute_process(COMMAND ${NVCC} -std=c++17 -arch=sm_${ARCH} -cubin -Xptxas -v ${include_flags}
                          ${source} -o ${OUT}.${stem}.cubin
                  RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE report)
  if(NOT KEEP_CUBIN)
    file(REMOVE ${OUT}.${stem}.cubin)
  endif()
  if(NOT code EQUAL 0)
    string(REGEX REPLACE "\n" " " report "${report}")
    string(SUBSTRING "${report}" 0 400 report)
    file(WRITE ${OUT} "${header}# error: nvcc -arch=sm_${ARCH} -cubin ${source} failed: ${report}\n")
    return()
  endif()
  # ptxas reports each kernel as: "Compiling entry function '<mangled>' for
  # 'sm_90'", its stack frame and spills, then "Used N registers, ... M
  # bytes smem" (no smem part when it has none).
  string(REPLACE "\n" ";" report_lines "${report}")
  set(kernel "")
  foreach(line ${report_lines})
    if(line MATCHES "Compiling entry function '([^']+)' for '(sm_[0-9a-z]+)'")
      set(kernel ${CMAKE_MATCH_1})
      set(arch ${CMAKE_MATCH_2})
      set(stack 0)
      set(spill_stores 0)
      set(spill_loads 0)
    elseif(kernel AND line MATCHES "([0-9]+) bytes stack frame, ([0-9]+) bytes spill stores, ([0-9]+) bytes spill loads")
      set(stack ${CMAKE_MATCH_1})
      set(spill_stores ${CMAKE_MATCH_2})
      set(spill_loads ${CMAKE_MATCH_3})
    elseif(kernel AND line MATCHES "Used ([0-9]+) registers")
      set(registers ${CMAKE_MATCH_1})
      set(shared 0)
      if(line MATCHES "([0-9]+) bytes smem")
        set(shared ${CMAKE_MATCH_1})
      endif()
      list(APPEND lines "${arch}\t${registers}\t${shared}\t${stack}\t${spill_stores}\t${spill_loads}\t${kernel}")
      list(APPEND names ${kernel})
      set(kernel "")
    endif()
  endforeach()
endforeach()

# The names as the source spells them (tiled_matmul_kernel<32>), for the
# checks' messages and for finding a kernel by the name the skeleton gives it.
set(demangled "")
if(names)
  execute_process(COMMAND ${CXXFILT} ${names} RESULT_VARIABLE code OUTPUT_VARIABLE demangled)
  if(NOT code EQUAL 0)
    file(WRITE ${OUT} "${header}# error: ${CXXFILT} failed (${code})\n")
    return()
  endif()
  string(REGEX REPLACE "\n$" "" demangled "${demangled}")
  string(REPLACE "\n" ";" demangled "${demangled}")
endif()
set(content "${header}")
foreach(line name IN ZIP_LISTS lines demangled)
  string(REGEX REPLACE "^void " "" name "${name}")
  string(REGEX REPLACE "\\(.*$" "" name "${name}")
  string(APPEND content "${line}\t${name}\n")
endforeach()
file(WRITE ${OUT}.tmp "${content}")
file(RENAME ${OUT}.tmp ${OUT})
