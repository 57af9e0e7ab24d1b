#!/usr/bin/env bash
# Makes sure the build's tools are here before CMake runs: cmake >= 3.24 and
# CMocka. Missing ones are installed with apt-get when we are root (or have
# passwordless sudo); otherwise we stop with the one command to run.
set -u

need_packages=()

cmake_ok() {
  command -v cmake >/dev/null 2>&1 || return 1
  local version
  version=$(cmake --version | head -n1 | sed -E 's/[^0-9]*([0-9]+)\.([0-9]+).*/\1 \2/')
  set -- $version
  [ "$1" -gt 3 ] || { [ "$1" -eq 3 ] && [ "$2" -ge 24 ]; }
}

cmocka_ok() {
  # Where CMake will look: the system, plus any CMAKE_PREFIX_PATH entries.
  local prefixes="/usr /usr/local ${CMAKE_PREFIX_PATH:-}"
  local p
  for p in ${prefixes//:/ }; do
    [ -f "$p/include/cmocka.h" ] && return 0
  done
  return 1
}

cmake_ok || need_packages+=(cmake)
cmocka_ok || need_packages+=(libcmocka-dev)
[ ${#need_packages[@]} -eq 0 ] && exit 0

install_cmd="apt-get update && apt-get install -y ${need_packages[*]}"
if ! command -v apt-get >/dev/null 2>&1; then
  echo "cuda-labs: missing ${need_packages[*]}; install them with your package manager." >&2
  exit 1
fi
if [ "$(id -u)" -eq 0 ]; then
  runner=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  runner="sudo -n"
else
  echo "cuda-labs: missing ${need_packages[*]}; run: sudo sh -c '$install_cmd'" >&2
  exit 1
fi
echo "cuda-labs: installing ${need_packages[*]} with apt-get" >&2
if ! { $runner apt-get update -qq && \
       DEBIAN_FRONTEND=noninteractive $runner apt-get install -y -qq "${need_packages[@]}"; } >&2; then
  echo "cuda-labs: apt-get failed; run: sudo sh -c '$install_cmd'" >&2
  exit 1
fi
if ! cmake_ok; then
  echo "cuda-labs: this distribution's cmake is older than 3.24; install a newer one (e.g. pip install cmake)." >&2
  exit 1
fi
