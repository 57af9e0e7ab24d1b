# COURSE_PYTHON: the command every Python ctest runs (the tools' unit tests,
# the handout checks, the batch grader's tests, make dist-student's check).
#
# One interpreter for the whole project: the Makefile decides it (its
# PYTHON, default python3 on PATH) and passes it here as
# Python3_EXECUTABLE, at the first configure and again whenever it changes.
# A plain `cmake` without it finds one itself.
#
# Without a Python, a student copy's compiled graders (make check-labN)
# still build: students do not need one. Graders built from their sources
# do (grader/tools/gen_calls.py writes each lab's labN_calls.c): that step
# fails with the reason below. The Python tests are still registered, each
# failing with the reason, so a machine without Python never shows a
# smaller suite that passes (make test stops before the build anyway).
find_package(Python3 COMPONENTS Interpreter)
if(Python3_FOUND)
  set(COURSE_PYTHON ${Python3_EXECUTABLE})
else()
  set(no_python_reason
      "no Python 3 interpreter (Python3_EXECUTABLE is ${Python3_EXECUTABLE}): install python3 and python3-matplotlib, or give make PYTHON=/path/to/python3")
  message(WARNING "${no_python_reason}; the Python tests will fail")
  # A stand-in that fails with the reason; the test's own arguments follow
  # it and are ignored (they become sh's positional parameters).
  set(COURSE_PYTHON sh -c "echo '${no_python_reason}' >&2 && false" no-python)
endif()
