#!/usr/bin/env bash
# Side by side: aeval's alignment vs rapidfuzz-cpp (what RapidFuzz's Python
# wheel runs under jiwer) on the same 128 pairs of 40 to 120,000 tokens, on
# one core. Needs a Release build and rapidfuzz-cpp's headers:
#   bench/compare/levenshtein_vs_rapidfuzz.sh /path/to/rapidfuzz-cpp
set -euo pipefail
cd "$(dirname "$0")/../.."
[ $# -eq 1 ] && [ -f "$1/rapidfuzz/distance/Levenshtein.hpp" ] ||
  { echo "usage: $0 RAPIDFUZZ_CPP_DIR (a checkout of github.com/rapidfuzz/rapidfuzz-cpp)" >&2; exit 2; }
golden=tests/data/levenshtein_long
reference=$(mktemp -d)
trap 'rm -rf "$reference"' EXIT
g++ -std=c++17 -O2 -I"$1" "$golden/make_levenshtein_golden.cpp" -o "$reference/make"
echo "== rapidfuzz-cpp $(git -C "$1" rev-parse --short HEAD 2>/dev/null || echo '(unknown commit)') =="
start=$(date +%s.%N)
taskset -c 0 "$reference/make" > "$reference/out.jsonl"
end=$(date +%s.%N)
echo "128 pairs in $(echo "$end - $start" | bc) s (including drawing the pairs)"
cmp -s "$reference/out.jsonl" "$golden/levenshtein_long.jsonl" && echo "same opcodes as $golden" ||
  echo "opcodes differ from $golden"
echo "== aeval =="
taskset -c 0 build/bench/aeval_bench_levenshtein "$golden/levenshtein_long.jsonl"
