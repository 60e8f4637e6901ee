#!/usr/bin/env bash
# Side by side: aeval's text metrics and the Python references Debian ships,
# in one run on the same real inputs (needs a Release build, the golden
# vectors in ../shared/reference, python3-nltk/scipy/sklearn and wordnet-base).
set -euo pipefail
cd "$(dirname "$0")/../.."
inputs=${AEVAL_REFERENCE_DIR:-../shared/reference}/nltk_meteor.jsonl
[ -f "$inputs" ] || { echo "missing $inputs" >&2; exit 1; }
ours=$(taskset -c 0 build/bench/aeval_bench_text "$inputs")
theirs=$(taskset -c 0 /usr/bin/python3 bench/compare/text_metrics_reference.py "$inputs")
/usr/bin/python3 - "$ours" "$theirs" <<'PY'
import json, sys
ours, theirs = json.loads(sys.argv[1]), json.loads(sys.argv[2])
print(f"{'metric (inputs)':40} {'aeval s':>10} {'python s':>10} {'speed-up':>9}")
for name, t in ours.items():
    if name == "checksum":
        continue
    ref = theirs.get(name)
    ratio = f"{ref / t:8.0f}x" if ref else "   (n/a)"
    print(f"{name:40} {t:10.4f} {ref if ref else float('nan'):10.4f} {ratio}")
PY
