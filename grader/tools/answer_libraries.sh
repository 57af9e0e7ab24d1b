# shellcheck shell=bash
# Sourced by dist-student.sh and check-dist-student.sh (bash).
#
# answer_libraries REPO prints every answer library the labs declare in
# grader/labN/labN_answer_libraries.list, one "<library> <source under
# solutions/> <lab folder>" line each, in lab order. Found by directory as
# grader/cmake/AnswerLibraries.cmake finds them, so that the student copy
# ships exactly the libraries its configure imports.
answer_libraries() {
  local repo=$1 list folder
  while IFS= read -r list; do
    folder=$(basename "$(dirname "$list")")
    # The same rule as CMake's: labN/labN_answer_libraries.list only.
    if [ "$(basename "$list")" != "${folder}_answer_libraries.list" ]; then
      echo "answer_libraries: ${list#"$repo"/} is not in the folder its name gives" >&2
      return 1
    fi
    # Comments and blank lines aside; fields as they are, one space apart.
    awk '/^[a-z]/ { print $1, $2, $3 }' "$list"
  done < <(find "$repo/grader" -mindepth 2 -maxdepth 2 -path "$repo/grader/lab[0-9]*/*" \
    -name 'lab[0-9]*_answer_libraries.list' | sort -V)
}
