#!/usr/bin/env bash
# A whole `aeval run` against the fixed-latency server of aeval_bench_remote
# (20 ms per answer): N text samples through prompt rendering, the
# openai_chat model, exact-match scoring and the run store, at --jobs 16, 128
# and 512. Reports samples per second against concurrency / 20 ms and the
# CPU time of the aeval process per sample (start-up and writing the results
# included). The server answers "ok" to everything: the scores are beside the point.
# Needs: a Release build (scripts/build.sh). Usage: run_throughput.sh [N]
set -euo pipefail
cd "$(dirname "$0")/../.."
n=${1:-20000}
work=$(mktemp -d)
build/bench/aeval_bench_remote --serve > "$work/port" &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$work"' EXIT
sleep 0.3
port=$(cat "$work/port")
mkdir -p "$work/registry/models" "$work/registry/prompts" "$work/registry/evaluators"
cat > "$work/registry/models/m.yaml" <<YAML
bench-llm:
  class: openai_chat
  args: {base_url: "http://127.0.0.1:$port/v1", model: bench-model, input_sample_rate: 0, max_retries: 0, max_concurrency: 512}
YAML
cat > "$work/registry/prompts/p.yaml" <<'YAML'
say-it:
  class: chat
  args:
    messages:
      - role: user
        content:
          - {type: text, value: "{{ reference }}"}
YAML
printf 'same-text:\n  class: exact_match\n' > "$work/registry/evaluators/e.yaml"
for i in $(seq 0 $((n - 1))); do printf '{"id": "n%d", "text": "number %d"}\n' "$i" "$i"; done > "$work/numbers.jsonl"
printf '%-6s %8s %10s %9s %16s\n' jobs samples samples/s "of ideal" "CPU us/sample"
for jobs in 16 128 512; do
  /usr/bin/time -f '%U %S' -o "$work/time" build/aeval --registry "$work/registry" run --dataset "$work/numbers.jsonl" \
    --prompt say-it --model bench-llm --evaluator same-text --no-cache --jobs "$jobs" --output "$work/out" > "$work/log" 2>&1
  run_json=$(ls -t "$work"/out/numbers/bench-llm/*/run.json | head -n 1)
  seconds=$(sed -n 's/.*"elapsed_seconds": *\([0-9.e+-]*\).*/\1/p' "$run_json" | tail -n 1)
  read -r user system < "$work/time"
  awk -v j="$jobs" -v n="$n" -v s="$seconds" -v u="$user" -v y="$system" \
    'BEGIN { r = n / s; printf "%-6d %8d %10.0f %8.1f%% %16.1f\n", j, n, r, 100 * r / (j / 0.020), 1e6 * (u + y) / n }'
done
