#!/usr/bin/env bash
# A whole `aeval run` over a Hub split stored as Parquet the way the `datasets` library writes audio
# (100 rows a row group, SNAPPY; written by arrow-rs through the npm package parquet-wasm, not by
# DuckDB), against the same WAV files listed in a JSONL manifest: wall time, CPU time and peak memory
# of each, the same model (identity-codec) and evaluator (si-sdr). The split sits in the cache layout
# of an entry pinned to a commit, so the run asks no network. Repeated RUNS times, interleaved.
# Needs a Release build (scripts/build.sh), Debian's Asterisk prompts, Node.js and the npm registry.
# Usage: hub_parquet_run.sh [SCALE (4: 2,244 clips)] [RUNS (3)] [WORK]
set -euo pipefail
cd "$(dirname "$0")/../.."
scale=${1:-4}
runs=${2:-3}
work=${3:-$(mktemp -d)}
root=$PWD
aeval=${AEVAL:-$root/build/aeval}  # another build to compare: AEVAL=path
split=$work/x$scale
snapshot=$split/cache/aeval/datasets/hub/bench--asterisk/snapshots/0123456789abcdef0123456789abcdef01234567
[ -d "$split" ] || build/bench/aeval_bench_parquet prepare "$work" "$scale"
if [ ! -f "$split/rewritten" ]; then
  [ -d "$work/npm/node_modules/parquet-wasm" ] ||
    npm install --prefix "$work/npm" --no-audit --no-fund --silent parquet-wasm@0.8.0 > /dev/null
  cp bench/compare/rewrite_parquet.mjs "$work/npm/"
  parquet=$snapshot/data/test-00000-of-00001.parquet
  node "$work/npm/rewrite_parquet.mjs" "$parquet" "$parquet.100" 100
  mv "$parquet.100" "$parquet"
  sed -i "s/\"size\": [0-9]*/\"size\": $(stat -c %s "$parquet")/" "$snapshot/.aeval/default/test.json"
  # The same clips as WAV files, in the split's order (copy, then file name).
  for copy in $(seq 0 $((scale - 1))); do
    for wav in $(ls "$work/wav" | LC_ALL=C sort); do
      printf '{"id": "%s-%d", "audio": "%s", "text": "words"}\n' "${wav%.wav}" "$copy" "$work/wav/$wav"
    done
  done > "$split/wavs.jsonl"
  touch "$split/rewritten"
fi
export XDG_CACHE_HOME=$split/cache
# Each run's 2,244 output files go to memory (/dev/shm) where there is one: on ext4, creating them right
# after deleting the last run's costs inode searches that swamped the difference being measured.
out=$( [ -d /dev/shm ] && mktemp -d -p /dev/shm || echo "$work/out")
trap 'rm -rf "$out"' EXIT
printf '%-8s %6s %9s %9s %12s\n' source run "wall s" "CPU s" "peak RSS MB"
for run in $(seq 1 "$runs"); do
  for source in parquet wavs; do
    dataset=$([ $source = parquet ] && echo bench-asterisk || echo "$split/wavs.jsonl")
    rm -rf "$out"
    /usr/bin/time -f '%e %U %S %M' -o "$work/time" "$aeval" --registry "$split/registry" run \
      --dataset "$dataset" --model identity-codec --evaluator si-sdr --no-cache --quiet --output "$out" > /dev/null
    read -r wall user system rss < "$work/time"
    awk -v s=$source -v r=$run -v w=$wall -v u=$user -v y=$system -v m=$rss \
      'BEGIN { printf "%-8s %6d %9.2f %9.2f %12.0f\n", s, r, w, u + y, m / 1024 }'
  done
done
