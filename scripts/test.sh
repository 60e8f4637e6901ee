#!/usr/bin/env bash
# Installs what is missing, builds aeval twice (Release, and ASan+UBSan) and
# runs the whole test suite under Release, and its in-process part under the sanitizers.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --tests
jobs=$(nproc)
scripts/build.sh release -DAEVAL_BENCH=OFF  # the benchmarks are built by scripts/build.sh, not tested
(cd build && ctest --output-on-failure --parallel "$jobs")
scripts/build.sh sanitize
# Leaks inside Debian's and DuckDB's libraries that aeval cannot fix are suppressed, as for the fuzzers.
suppressions=$PWD/fuzz/lsan-suppressions.txt
# Under the sanitizers: the unit, conformance, differential and fuzz tests (the code in-process), and of the
# end-to-end suites (processes, servers, Python: the Release build's) the run's own paths through the CLI.
sanitized() {
  (cd build-sanitize && ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=$suppressions UBSAN_OPTIONS=print_stacktrace=1 \
     ctest --output-on-failure --parallel "$jobs" "$@")
}
sanitized -E 'E2E\.'
sanitized -R '^(RunE2E|ScoreE2E|DeadEndpointE2E|ResponseCacheE2E|RunArgumentsE2E)\.'
