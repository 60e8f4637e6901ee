#!/usr/bin/env bash
# A UEA user's own model behind a service that answers in 0.2 s, on a 24-clip JsonlFile set, 4 workers:
# UltraEval-Audio's own main.py and `aeval uea run` on the same tree (issue 59's speed target), side by side.
# Needs what tests/e2e/uea_model_e2e_test.cpp needs (scripts/setup.sh --tests) and a Release build.
#   bench/compare/uea_user_model.sh [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
rounds=${1:-3}
work=$(mktemp -d)
trap 'kill $service 2>/dev/null; [ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
python=/usr/bin/python3
shared=$(cd ../shared && pwd)
pythonpath=$($python tests/support/uea_python/prepare.py "$shared" "$work/uea-python" | tail -1)
$python tests/support/uea_python/standin_tree.py "$shared" "$work/tree" >/dev/null

# 24 rows: the six clips four times over.
for k in 1 2 3 4; do cat "$work/tree/data.jsonl"; done >"$work/tree/data24.jsonl"
sed -i "s|data.jsonl|data24.jsonl|" "$work/tree/uea/registry/dataset/standin.yaml"

# The service: 0.2 s per answer, many at once.
cat >"$work/service.py" <<'PY'
import http.server, json, sys, time
class Handler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        self.rfile.read(int(self.headers["Content-Length"]))
        time.sleep(0.2)
        body = json.dumps({"answer": json.dumps({"content": "the cat sat on the mat"})}).encode()
        self.send_response(200); self.send_header("Content-Length", str(len(body))); self.end_headers()
        self.wfile.write(body)
    def log_message(self, *args):
        pass
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
PY
$python "$work/service.py" >"$work/port" &
service=$!
while [ ! -s "$work/port" ]; do sleep 0.05; done
printf 'standin-service:\n  class: audio_evals.models.standin_api.StandinService\n  args:\n    url: http://127.0.0.1:%s/answer\n' \
  "$(cat "$work/port")" >"$work/tree/uea/registry/model/service.yaml"

export AEVAL_UEA_PYTHON=$python XDG_CACHE_HOME=$work/cache
seconds() { local start=$EPOCHREALTIME; "$@" >>"$work/log" 2>&1 || { echo "failed: $*" >&2; tail -5 "$work/log" >&2; exit 1; }; awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { print b - a }'; }
echo "round  uea_main_py_s  aeval_s"
for round in $(seq "$rounds"); do
  uea=$(cd "$work/tree/uea" && seconds env PYTHONPATH="$work/tree/uea:$pythonpath" $python -m audio_evals.main \
        --dataset standin-set --model standin-service --workers 4 --save "$work/uea-$round.jsonl")
  ours=$(seconds env PYTHONPATH="$pythonpath" AEVAL_RESPONSE_CACHE="$work/responses-$round.sqlite" "$root/build/aeval" uea run --uea-dir "$work/tree/uea" --dataset standin-set \
         --model standin-service --workers 4 --quiet --output "$work/results-$round")
  printf '%5s  %13.2f  %7.2f\n' "$round" "$uea" "$ours"
done
