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
# Leaks inside Debian's and DuckDB's libraries that aeval cannot fix are suppressed, as for the fuzzers.
suppressions=$PWD/fuzz/lsan-suppressions.txt
(cd build-sanitize && ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=$suppressions UBSAN_OPTIONS=print_stacktrace=1 \
   ctest --output-on-failure --parallel "$jobs")
