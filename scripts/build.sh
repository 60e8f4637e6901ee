#!/usr/bin/env bash
# Configures and builds one flavour of aeval: build.sh [release|sanitize] [-DOPTION=VALUE ...]
# sanitize: Clang with ASan+UBSan, and the libFuzzer targets of fuzz/; -O0 compiles twice as fast as -O1,
# and the layers whose loops the tests run on real audio keep -O1 (CMakeLists.txt).
# Further arguments go to CMake (scripts/test.sh leaves the benchmarks out: -DAEVAL_BENCH=OFF).
set -euo pipefail
cd "$(dirname "$0")/.."
flavour=${1:-release}
cxx=""  # empty: CMake's default compiler
case "$flavour" in
  release)  dir=build;          flags=(-DCMAKE_BUILD_TYPE=Release -DAEVAL_BENCH=ON) ;;
  sanitize) dir=build-sanitize; cxx=clang++
            flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O0 -g1" -DAEVAL_SANITIZE=ON
                   -DAEVAL_BENCH=OFF -DAEVAL_FUZZ=ON) ;;
  *) echo "usage: scripts/build.sh [release|sanitize] [-DOPTION=VALUE ...]" >&2; exit 2 ;;
esac
[ $# -gt 0 ] && shift
flags+=("$@")
if [ -n "$cxx" ]; then
  found=$(command -v "$cxx") || { echo "build.sh: $flavour needs $cxx (scripts/setup.sh installs it)" >&2; exit 1; }
  cxx=$found
  # A folder configured with another compiler starts afresh: CMake would
  # otherwise drop every other setting while it switches.
  if [ -f "$dir/CMakeCache.txt" ] && ! grep -q "^CMAKE_CXX_COMPILER:[A-Z]*=$cxx\$" "$dir/CMakeCache.txt"; then
    rm -rf "$dir/CMakeCache.txt" "$dir/CMakeFiles"
  fi
  flags+=("-DCMAKE_CXX_COMPILER=$cxx")
fi
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
# Reuse an existing build folder with whatever generator configured it.
[ -f "$dir/CMakeCache.txt" ] && generator=()
cmake -S . -B "$dir" "${generator[@]}" "${flags[@]}" >/dev/null
cmake --build "$dir" --parallel "$(nproc)"
