#!/usr/bin/env bash
# Native DNSMOS against ONNX Runtime on the same machine, one core, alternated ROUNDS times: each round runs
# aeval_bench_dnsmos with the AVX-512 kernels (where the CPU has them), with the AVX2 kernels, and ONNX
# Runtime (npm onnxruntime-node 1.30.0, installed into WORK once). Prints each run's per-window times.
# BEFORE=PATH adds another build's aeval_bench_dnsmos to each round (a change against its parent).
#   bench/compare/dnsmos_vs_onnxruntime.sh [ROUNDS] [WORK]
# Needs a Release build (scripts/build.sh), ../shared, Node.js and the npm registry once.
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-3}
work=${2:-${TMPDIR:-/tmp}/aeval-dnsmos-ort}
shared=${AEVAL_SHARED_DIR:-../shared}
mkdir -p "$work"
[ -d "$work/node_modules/onnxruntime-node" ] ||
  npm install --prefix "$work" --no-audit --no-fund --silent --ignore-scripts onnxruntime-node@1.30.0 > /dev/null
cp bench/compare/dnsmos_onnxruntime.mjs "$work/"
kernels=(avx2)
grep -qw avx512f /proc/cpuinfo && kernels=(avx512 avx2)
grep -m1 "model name" /proc/cpuinfo
for round in $(seq "$rounds"); do
  for k in "${kernels[@]}"; do
    for build in ${BEFORE:+before} this; do
      bench=$([ "$build" = before ] && echo "$BEFORE" || echo build/bench/aeval_bench_dnsmos)
      echo "== round $round: aeval ($build), $k kernels"
      taskset -c 0 "$bench" "$shared/models/dnsmos" "$shared/reference" "$k" | grep network_per_window
    done
  done
  echo "== round $round: ONNX Runtime 1.30.0"
  taskset -c 0 node "$work/dnsmos_onnxruntime.mjs" "$shared/models/dnsmos"
done
