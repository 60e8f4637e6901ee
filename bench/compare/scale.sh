#!/usr/bin/env bash
# aeval at scale (issue 54): one `aeval run` over N stored answers (a predictions_file model, 12-word
# reference and prediction pairs with edits, no audio), scored by WER and CER, for N = 2k, 20k, 200k, 1M,
# without an interval (--aggregator by-kind: groups only) and with bootstrap-95 (1,000 resamples). Reports
# wall time, CPU time, peak memory and CPU µs per sample, next to the floor: jq reading and writing the same
# samples.jsonl with nothing else. Needs: a Release build (scripts/build.sh), jq.
# Usage: scale.sh [N ...]   (default: 2000 20000 200000 1000000)
set -euo pipefail
cd "$(dirname "$0")/../.."
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(2000 20000 200000 1000000)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/registry/models" "$work/registry/aggregators"
cat > "$work/registry/aggregators/a.yaml" <<'YAML'
by-kind-only:
  class: summary
  args: {group_by: [kind]}
with-interval:
  class: summary
  args: {group_by: [kind], bootstrap: 1000, confidence: 0.95}
YAML
printf '%-8s %-9s %9s %9s %9s %12s\n' samples interval "wall s" "CPU s" "peak MB" "CPU us/sample"
measure() {  # label, samples, command...
  local label=$1 n=$2
  shift 2
  /usr/bin/time -f '%e %U %S %M' -o "$work/time" "$@" > "$work/log" 2>&1 || { cat "$work/log"; exit 1; }
  read -r wall user system kb < "$work/time"
  awk -v n="$n" -v l="$label" -v w="$wall" -v u="$user" -v s="$system" -v k="$kb" \
    'BEGIN { printf "%-8d %-9s %9.2f %9.2f %9.0f %12.1f\n", n, l, w, u + s, k / 1024, 1e6 * (u + s) / n }'
}
for n in "${sizes[@]}"; do
  python3 - "$n" "$work" <<'PY'
import json, sys
n, work = int(sys.argv[1]), sys.argv[2]
words = "the a cat dog sat on mat quick brown fox jumps over lazy river runs fast slow green house tree".split()
state = 1
def draw(k):
    global state
    state = (state * 6364136223846793005 + 1442695040888963407) % 2**64
    return (state >> 33) % k
with open(f"{work}/samples.jsonl", "w") as d, open(f"{work}/answers.jsonl", "w") as a:
    for i in range(n):
        ref = [words[draw(len(words))] for _ in range(12)]
        hyp = [words[draw(len(words))] if draw(8) == 0 else w for w in ref if draw(20)]
        d.write(json.dumps({"id": f"u{i}", "text": " ".join(ref), "kind": ["read", "chat", "news"][draw(3)]}) + "\n")
        a.write(json.dumps({"id": f"u{i}", "prediction": " ".join(hyp)}) + "\n")
PY
  cat > "$work/registry/models/m.yaml" <<YAML
stored-answers:
  class: predictions_file
  args: {path: $work/answers.jsonl}
YAML
  for label in off on; do
    aggregator=by-kind-only
    [ "$label" = on ] && aggregator=with-interval
    rm -rf "$work/out"
    measure "$label" "$n" build/aeval --registry "$work/registry" run --dataset "$work/samples.jsonl" \
      --model stored-answers --evaluator wer,cer --aggregator "$aggregator" --no-cache -q --output "$work/out"
  done
  measure floor "$n" sh -c "jq -c . $(ls "$work"/out/samples/stored-answers/*/samples.jsonl) > $work/floor.jsonl"
done
