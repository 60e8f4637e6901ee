#!/usr/bin/env bash
# Side by side: aeval's audio layer vs sox (the reference sox-style resampler)
# converting the same 30 s 44.1 kHz stereo files to 16 kHz mono, on one core.
# Needs: a Release build (scripts/build.sh) and Debian's sox.
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v sox >/dev/null || { echo "install sox: apt-get install sox" >&2; exit 1; }
echo "== aeval (decode + downmix + libsoxr HQ resample, in memory) =="
taskset -c 0 build/bench/aeval_bench_audio --benchmark_filter='DecodeResample' 2>/dev/null | tail -n 2
out=$(mktemp --suffix=.wav)
for f in /tmp/aeval-bench-44k-stereo.wav /tmp/aeval-bench-44k-stereo.flac; do
  runs=10
  start=$(date +%s.%N)
  for _ in $(seq $runs); do taskset -c 0 sox -q "$f" -r 16000 -c 1 -b 32 -e float "$out" rate -h; done
  end=$(date +%s.%N)
  echo "sox rate -h $(basename "$f"): $(echo "scale=1; 30 * $runs / ($end - $start)" | bc) x realtime (incl. process start and file write)"
done
rm -f "$out"
