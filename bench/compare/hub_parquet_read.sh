#!/usr/bin/env bash
# Samples/s reading audio from a Hub-style Parquet split (the `huggingface`
# class, cached, pinned) against decoding the same clips from memory, and the
# peak memory as the split grows. One core. Needs a Release build
# (scripts/build.sh) and Debian's Asterisk prompts. Usage: hub_parquet_read.sh [WORK]
set -euo pipefail
cd "$(dirname "$0")/../.."
work=${1:-$(mktemp -d)}
bench=build/bench/aeval_bench_parquet
for scale in 1 4 16 64; do
  [ -d "$work/x$scale" ] || $bench prepare "$work" "$scale"
  echo "== scale $scale: $(du -h "$work/x$scale" | tail -1 | cut -f1)"
  taskset -c 0 $bench read "$work" "$scale"
  taskset -c 0 $bench decode "$work" "$scale"
done
