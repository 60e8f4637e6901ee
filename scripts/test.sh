#!/usr/bin/env bash
# Installs what is missing, builds aeval twice (Release, and ASan+UBSan) and
# runs the whole test suite of each with ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --tests
jobs=$(nproc)
scripts/build.sh release -DAEVAL_BENCH=OFF  # the benchmarks are built by scripts/build.sh, not tested
(cd build && ctest --output-on-failure --parallel "$jobs")
scripts/build.sh sanitize
(cd build-sanitize && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
   ctest --output-on-failure --parallel "$jobs")
